"""Make it a fair fight, measured (issue 45): the default search of each system's
``<system>.balance`` and of the army battle's (``sucs.roster_balance``) in CPython
(processor time), then in Pyodide in Chromium how soon its first curve shows (the first
answer with two points or more) and when it settles, and the Heroic search over 1-40
members of a side. Prints figures; asserts nothing.

Run: .venv/bin/python benchmarks/balance.py [--cpython-only] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_core import api  # noqa: E402

#: each system's default search, and the Heroic search over 1-40 orcs
SEARCHES: list[tuple[str, str, dict[str, Any]]] = [
    *((f"{system} default", f"{system}.balance", {})
      for system in ("gunplay", "cortex", "heroic", "sucs", "phases")),
    ("sucs army default", "sucs.roster_balance", {}),
    ("heroic 1-40 members", "heroic.balance", {"vary": "a_members", "low": 1, "high": 40}),
]

MEASURE = """async ([name, inputs]) => {
  const { bridge } = await import([...document.scripts].find(
    s => s.src.includes('/assets/calculators/calculators.')).src);
  const root = document.createElement('div');
  root.dataset.uid = 'bench-' + Math.random().toString(36).slice(2);
  const t0 = performance.now();
  let first = null, curve = null;
  const reply = await bridge.refine(root, name, inputs, (partial) => {
    const now = performance.now() - t0;
    if (first === null) first = now;
    if (curve === null && partial.ok && Object.keys(partial.result.curve).length >= 2) curve = now;
  });
  const settled = performance.now() - t0;
  return { first: first ?? settled, curve: curve ?? settled, settled,
           value: reply && reply.ok ? reply.result.value : null,
           method: reply && reply.ok ? reply.result.method : null,
           points: reply && reply.ok ? reply.result.tried.length : null };
}"""


def inputs_of(calculator: str, over: dict[str, Any]) -> dict[str, Any]:
    return {**api.spec(calculator)["initial"], **over}


def cpython() -> list[dict[str, Any]]:
    rows = []
    for name, calculator, over in SEARCHES:
        start = time.process_time()
        reply = api.run(calculator, inputs_of(calculator, over))
        took = time.process_time() - start
        result = reply["result"] if reply["ok"] else {}
        row = {"name": name, "cpu_s": round(took, 2), "value": result.get("value"),
               "method": result.get("method"), "points": len(result.get("tried", []))}
        rows.append(row)
        print("cpython", json.dumps(row), flush=True)
    return rows


def pyodide() -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    from benchmarks.site_speed import free_port, launch, serve_site
    from calculators.generate import generate

    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    out = Path(tempfile.mkdtemp(prefix="bench-balance-"))
    generate("mkdocs", out, base)
    httpd = serve_site(out, port)
    rows = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(base + "heroic/groups/")
            page.wait_for_function("() => document.documentElement.dataset.runtime === 'ready'",
                                   timeout=240_000)
            page.evaluate(MEASURE, ["gunplay.balance", inputs_of("gunplay.balance", {})])  # warm-up
            for name, calculator, over in SEARCHES:
                got = page.evaluate(MEASURE, [calculator, inputs_of(calculator, over)])
                row = {"name": name, "first_ms": round(got["first"]), "curve_ms": round(got["curve"]),
                       "settled_ms": round(got["settled"]), "value": got["value"],
                       "method": got["method"], "points": got["points"]}
                rows.append(row)
                print("pyodide", json.dumps(row), flush=True)
            browser.close()
    finally:
        httpd.shutdown()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpython-only", action="store_true")
    parser.add_argument("--json", type=Path, metavar="FILE")
    args = parser.parse_args()
    got = {"cpython": cpython()}
    if not args.cpython_only:
        got["pyodide"] = pyodide()
    if args.json:
        args.json.write_text(json.dumps(got, indent=2))


if __name__ == "__main__":
    main()
