"""Lighthouse over the built site, on a phone profile: prints a table of scores and figures.

    .venv/bin/python benchmarks/lighthouse.py [--site DIR] [--json FILE] [--pages KEY ...]
        [--runs N] [--reports DIR]

Builds the site (or takes an already built ``--site`` directory), serves it on localhost
with ``calculators.serve`` (compression and cache headers as a static host sends them),
and runs the pinned npm ``lighthouse`` (installed on first use into ``build/lighthouse/``,
outside the project's own packages: its dependency tree asks npm for a moving "latest")
in the system Chromium with its default mobile
profile and simulated throttling, one page at a time: the home page, one calculator page
per system, the army builder and the tracker. For each page it reports the four category
scores, FCP, LCP, TBT, CLS and the bytes transferred; ``--json`` writes them under the key
``lighthouse`` of FILE (other keys in FILE, e.g. from site_speed.py, are kept), with the
machine's load average before and after (``lighthouse_load``). ``--runs N`` audits each
page N times and keeps the run with the median performance score (Lighthouse's own advice
for noisy machines); ``--reports DIR`` keeps every full Lighthouse JSON report.

No figure is asserted: machines are shared and noisy, and Lighthouse's performance score
moves with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calculators import serve  # noqa: E402
from calculators.generate import generate  # noqa: E402
from tests.conftest import _free_port  # noqa: E402

PAGES = {
    "home": "",
    "gunplay calculator": "gunplay/difficulty/",
    "cortex calculator": "cortex/rolls/",
    "heroic calculator": "heroic/melee/",
    "sucs calculator": "sucs/attacks/",
    "phases calculator": "phases/actions/",
    "army builder": "sucs/roster/",
    "tracker": "phases/tracker/",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"fcp_ms": "first-contentful-paint", "lcp_ms": "largest-contentful-paint",
           "tbt_ms": "total-blocking-time", "cls": "cumulative-layout-shift",
           "bytes": "total-byte-weight"}
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")


def chromium() -> str:
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(path).exists():
            return path
    found = shutil.which("chromium")
    if not found:
        sys.exit("No Chromium: install the `chromium` package (make test does as root).")
    return found


LIGHTHOUSE = "12.8.2"
LIGHTHOUSE_DIR = ROOT / "build" / "lighthouse"


def lighthouse_cli() -> Path:
    """The pinned Lighthouse, installed from npm on first use."""
    cli = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
    package = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "package.json"
    if not cli.exists() or json.loads(package.read_text())["version"] != LIGHTHOUSE:
        LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(LIGHTHOUSE_DIR), "--no-audit", "--no-fund",
                        "--no-save", f"lighthouse@{LIGHTHOUSE}"], check=True)
    return cli


def audit(url: str, keep: Path | None = None) -> dict[str, float]:
    """One Lighthouse run: the category scores (0-100) and the figures in METRICS; the
    whole report is written to ``keep`` if given."""
    cli = lighthouse_cli()
    proc = subprocess.run(
        ["node", str(cli), url, "--output=json", "--output-path=stdout", "--quiet",
         f"--chrome-flags={CHROME_FLAGS}", f"--only-categories={','.join(CATEGORIES)}"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium()}, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    if keep:
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_text(proc.stdout)
    row = {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}
    for key, audit_id in METRICS.items():
        value = report["audits"][audit_id].get("numericValue")
        row[key] = round(value, 3) if key == "cls" else round(value or 0)
    return row


def table(rows: dict[str, dict[str, float]]) -> str:
    head = ("page", "perf", "a11y", "best", "seo", "FCP s", "LCP s", "TBT ms", "CLS", "KiB")
    lines = ["  ".join(f"{h:>8}" if i else f"{h:20}" for i, h in enumerate(head))]
    for page, r in rows.items():
        cells = [r["performance"], r["accessibility"], r["best-practices"], r["seo"],
                 f"{r['fcp_ms'] / 1000:.1f}", f"{r['lcp_ms'] / 1000:.1f}", r["tbt_ms"],
                 f"{r['cls']:.3f}", round(r["bytes"] / 1024)]
        lines.append(f"{page:20}" + "".join(f"  {c!s:>8}" for c in cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="an already built site (built for this port's URL)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--generator", default=os.environ.get("GENERATOR", "mkdocs"),
                        choices=("mkdocs", "zensical"))
    parser.add_argument("--json", type=Path, help="write the figures under 'lighthouse' in FILE")
    parser.add_argument("--pages", nargs="*", help="page keys to run (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median is kept")
    parser.add_argument("--reports", type=Path, help="keep every full Lighthouse report here")
    args = parser.parse_args()
    load_before = os.getloadavg()
    port = args.port or _free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp:
        site_dir = args.site
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            generate(args.generator, site_dir, url)
        serve.SiteHandler.gzip_store.warm(str(site_dir))  # compressed before anything is timed
        server = serve.server(str(site_dir), port, quiet=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        rows = {}
        try:
            for name, path in PAGES.items():
                if args.pages and name not in args.pages:
                    continue
                runs = []
                for n in range(args.runs):
                    keep = args.reports / f"{name.replace(' ', '-')}-{n + 1}.json" if args.reports else None
                    runs.append(audit(url + path, keep))
                rows[name] = sorted(runs, key=lambda r: r["performance"])[len(runs) // 2]
                print(f"  {name}: performance {[r['performance'] for r in runs]}", file=sys.stderr)
        finally:
            server.shutdown()
    load = {"before": [round(x, 1) for x in load_before], "after": [round(x, 1) for x in os.getloadavg()]}
    print(table(rows))
    print(f"load average (1, 5, 15 min) before {load['before']}, after {load['after']} "
          f"on {os.cpu_count()} cores")
    if args.json:
        data = json.loads(args.json.read_text()) if args.json.exists() else {}
        data["lighthouse"] = rows
        data["lighthouse_load"] = load
        args.json.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
