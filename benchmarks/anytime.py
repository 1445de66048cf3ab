"""Answers that sharpen, measured in Pyodide in Chromium: for each whole fight, how soon
its first answer shows, when it settles, how it was answered and how fast it simulates.

Builds the site (or takes ``--site DIR``, built for ``--url``), serves it on localhost,
opens the army builder's page and asks the page's own worker for each fight through the
bridge every app gets (``bridge.refine``: each newer answer as it comes, then the settled
one), one fight at a time, after one warm-up fight.

Run: .venv/bin/python benchmarks/anytime.py [--json FILE] [--only NAME]
Writes ``{"fights": [{"name", "first_ms", "settled_ms", "method", "half_width_pp",
"error_bound", "battles_per_s"}, ...]}``. ``battles_per_s``: fights played a second of
the whole refinement (walks tried included); null for a walk's answer.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.site_speed import free_port, launch, serve_site  # noqa: E402
from benchmarks.sucs_battle import LED_A, LED_B, MOST, TEN_A, TEN_B  # noqa: E402
from calculators.generate import generate  # noqa: E402
from rules_core import api  # noqa: E402
from tests.rules_core.sucs_worst import worst_inputs  # noqa: E402
from tests.rules_core.test_sucs_engagement_budget import PROBE  # noqa: E402

#: the engagement inputs slowest to a first answer in CPython (the budget test's), and the
#: fourth reliability probe's
WORST = [(label, inputs) for label, inputs in worst_inputs()
         if label.startswith(("six a side, melee, every", "six stealthy vs six different, melee, penalty"))]
WORST.append(("the probe's melee at a cap of 100", PROBE))


def initial(name: str, **over: Any) -> dict[str, Any]:
    return {**api.spec(name)["initial"], **over}


FIGHTS: list[tuple[str, str, dict[str, Any]]] = [
    ("sucs armies 10 v 10", "sucs.roster_battle",
     initial("sucs.roster_battle", roster_a=json.dumps(TEN_A), roster_b=json.dumps(TEN_B), turns=10)),
    ("sucs armies 10 v 10 officers", "sucs.roster_battle",
     initial("sucs.roster_battle", roster_a=json.dumps(LED_A), roster_b=json.dumps(LED_B), turns=10)),
    ("sucs armies 20 v 20", "sucs.roster_battle",
     initial("sucs.roster_battle", roster_a=json.dumps(MOST), roster_b=json.dumps(MOST), turns=10)),
    ("sucs engagement melee cap 20", "sucs.engagement",
     initial("sucs.engagement", mode="melee", max_rounds=20)),
    ("sucs engagement melee cap 100", "sucs.engagement",
     initial("sucs.engagement", mode="melee", max_rounds=100)),
    *((f"sucs worst: {label}", "sucs.engagement", inputs) for label, inputs in WORST),
    ("heroic 12 v 8 carried cap 100", "heroic.engagement",
     initial("heroic.engagement", wounds="carry", max_rounds=100)),
    ("heroic 40 v 40 cap 100", "heroic.engagement",
     initial("heroic.engagement", a_members=40, b_members=40, max_rounds=100)),
    ("sucs small exact", "sucs.engagement", initial("sucs.engagement")),
    ("heroic small exact", "heroic.engagement", initial("heroic.engagement")),
    ("gunplay small exact", "gunplay.engagement", initial("gunplay.engagement")),
    ("cortex small exact", "cortex.engagement", initial("cortex.engagement")),
    ("phases small exact", "phases.engagement", initial("phases.engagement")),
]

MEASURE = """async ([name, inputs]) => {
  const { bridge } = await import([...document.scripts].find(
    s => s.src.includes('/assets/calculators/calculators.')).src);
  const root = document.createElement('div');
  root.dataset.uid = 'bench-' + Math.random().toString(36).slice(2);
  const t0 = performance.now();
  let first = null;
  const reply = await bridge.refine(root, name, inputs, () => {
    if (first === null) first = performance.now() - t0;
  });
  const settled = performance.now() - t0;
  return { first: first === null ? settled : first, settled, reply };
}"""


def figures(name: str, got: dict[str, Any]) -> dict[str, Any]:
    reply = got["reply"]
    if not reply or not reply.get("ok"):
        return {"name": name, "error": reply and reply.get("error")}
    result = reply["result"]
    method = result.get("method", "exact")
    intervals = result.get("intervals") or {}
    half = max(((h - lo) / 2 for lo, h in intervals.values()), default=None)
    trials = result.get("trials")
    return {"name": name, "first_ms": round(got["first"]), "settled_ms": round(got["settled"]),
            "method": method, "half_width_pp": None if half is None else round(100 * half, 3),
            "error_bound": result.get("error_bound", 0.0 if method == "exact" else None),
            "battles_per_s": (round(trials / (got["settled"] / 1000)) if trials else None),
            "precision": result.get("precision")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, metavar="FILE")
    parser.add_argument("--site", type=Path, help="a site already built for --url")
    parser.add_argument("--url", help="where --site is built to be served")
    parser.add_argument("--only", action="append", help="a fight's name (again for more)")
    args = parser.parse_args()
    if args.site:
        out, base = args.site, args.url
        port = int(base.rstrip("/").rsplit(":", 1)[1])
    else:
        port = free_port()
        base = f"http://127.0.0.1:{port}/"
        out = Path(tempfile.mkdtemp(prefix="bench-anytime-"))
        generate("mkdocs", out, base)
    httpd = serve_site(out, port)
    rows = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(base + "sucs/roster/")
            page.wait_for_function("() => document.documentElement.dataset.runtime === 'ready'",
                                   timeout=240_000)
            page.evaluate(MEASURE, ["heroic.engagement", initial("heroic.engagement")])  # warm-up
            for name, calculator, inputs in FIGHTS:
                if args.only and name not in args.only:
                    continue
                got = page.evaluate(MEASURE, [calculator, inputs])
                row = figures(name, got)
                rows.append(row)
                print(json.dumps(row), flush=True)
            browser.close()
    finally:
        httpd.shutdown()
    if args.json:
        args.json.write_text(json.dumps({"fights": rows}, indent=2))


if __name__ == "__main__":
    main()
