"""Lighthouse's installability audits over the site built under a GitHub Pages project path.

    .venv/bin/python benchmarks/installable.py [--json FILE]

Lighthouse 12 (benchmarks/lighthouse.py) no longer has a PWA category, so this runs
Lighthouse 11, the last version with it (installed on first use into
``build/lighthouse-pwa/``), in the system Chromium: the site is built for
``http://127.0.0.1:<port>/tcr/`` and served there, and the PWA category is run on the home
page (the manifest's start page) and a rules page. It prints each automated audit
(installable manifest, maskable icon, splash screen, themed address bar, viewport,
content width) and exits 1 if one fails; ``--json`` writes them under the key
``installable`` of FILE (other keys are kept). The browser tests check the same criteria
and Chromium's own installability errors on every build (tests/browser/test_installable.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.lighthouse import CHROME_FLAGS, chromium  # noqa: E402
from calculators import serve  # noqa: E402
from calculators.generate import generate  # noqa: E402
from tests.conftest import _free_port  # noqa: E402

LIGHTHOUSE_PWA = "11.7.1"
LIGHTHOUSE_PWA_DIR = ROOT / "build" / "lighthouse-pwa"
BASE = "tcr/"
PAGES = {"home (start page)": "", "rules page": "rulings/"}


def lighthouse_cli() -> Path:
    """The pinned Lighthouse 11, installed from npm on first use."""
    package = LIGHTHOUSE_PWA_DIR / "node_modules" / "lighthouse" / "package.json"
    if not package.exists() or json.loads(package.read_text())["version"] != LIGHTHOUSE_PWA:
        LIGHTHOUSE_PWA_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(LIGHTHOUSE_PWA_DIR), "--no-audit", "--no-fund",
                        "--no-save", f"lighthouse@{LIGHTHOUSE_PWA}"], check=True)
    return LIGHTHOUSE_PWA_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"


def audit(url: str) -> dict[str, float | None]:
    """The PWA category's automated audits on ``url``: {audit id: score (1 = pass)}."""
    proc = subprocess.run(
        ["node", str(lighthouse_cli()), url, "--output=json", "--output-path=stdout", "--quiet",
         f"--chrome-flags={CHROME_FLAGS}", "--only-categories=pwa"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium()}, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    audits = report["audits"]
    return {ref["id"]: audits[ref["id"]]["score"] for ref in report["categories"]["pwa"]["auditRefs"]
            if audits[ref["id"]]["scoreDisplayMode"] != "manual"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="write the results under 'installable' in FILE")
    args = parser.parse_args()
    port = _free_port()
    url = f"http://127.0.0.1:{port}/{BASE}"
    with tempfile.TemporaryDirectory() as tmp:
        generate("mkdocs", Path(tmp) / BASE, url)
        server = serve.server(tmp, port, quiet=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            results = {name: audit(url + path) for name, path in PAGES.items()}
        finally:
            server.shutdown()
            server.server_close()
    failed = []
    for name, audits in results.items():
        print(f"{name}: " + ", ".join(f"{key} {'pass' if score == 1 else 'FAIL'}" for key, score in audits.items()))
        failed += [f"{name}: {key}" for key, score in audits.items() if score != 1]
    if args.json:
        data = json.loads(args.json.read_text()) if args.json.exists() else {}
        data["installable"] = {"lighthouse": LIGHTHOUSE_PWA, "base": "/" + BASE, "audits": results}
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    if failed:
        print("failed: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
