"""How long ``sucs.roster_battle`` (army against army) takes, in CPython and inside
Pyodide under Node (the browser's Python build): the page's default, two 10-unit armies
(issue 29's size; again with an officer each, whose loss leaves its army acting once a
turn), two armies of the most units a battle takes, four a side (the exact
walk tried, then the pruned walk) and five against one (exact).

Run: .venv/bin/python benchmarks/sucs_battle.py
Prints seconds per case (CPU in CPython; wall-clock in Pyodide, one run after a warm-up
of the same case) and how each was answered (exact; the pruned walk, with the chance it
dropped; or simulated, with how many battles).
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_core import api  # noqa: E402
from rules_core.sucs.calc_roster_battle import BATTLE, MAX_BATTLE_UNITS  # noqa: E402


def _army(name: str, *lines: tuple[str, int, dict[str, Any]]) -> dict[str, Any]:
    return {"format": "sucs-roster", "version": 1, "name": name, "points_limit": 0,
            "units": [{"name": n, "count": c, "stats": s} for n, c, s in lines]}


RIFLES, VETERANS = {"quality": 3, "attack": 1}, {"quality": 4, "attack": 1, "armor": 1}
GUNNERS, TANK = {"quality": 3, "attack": 1, "targets": 2}, {"quality": 5, "attack": 3, "armor": 2}
STEALTHY = {"quality": 4, "attack": 2, "armor": 1, "stealth": True}
TEN_A = _army("Ten", ("Rifle squad", 4, RIFLES), ("Veterans", 3, VETERANS),
              ("Gun team", 2, GUNNERS), ("Tank", 1, TANK))
TEN_B = _army("Ten more", ("Rifle squad", 3, RIFLES), ("Scouts", 3, STEALTHY),
              ("Gun team", 2, GUNNERS), ("Veterans", 2, VETERANS))
OFFICER = {**VETERANS, "commander": True, "support_reorganize": True, "range": 12}
LED_A = _army("Ten, led", ("Officer", 1, OFFICER), ("Rifle squad", 4, RIFLES),
              ("Veterans", 2, VETERANS), ("Gun team", 2, GUNNERS), ("Tank", 1, TANK))
LED_B = _army("Ten more, led", ("Officer", 1, OFFICER), ("Rifle squad", 3, RIFLES),
              ("Scouts", 3, STEALTHY), ("Gun team", 2, GUNNERS), ("Veterans", 1, VETERANS))
HALF = MAX_BATTLE_UNITS // 4
MOST = _army("Most", ("Rifle squad", HALF, RIFLES), ("Veterans", HALF, VETERANS),
             ("Gun team", HALF, GUNNERS), ("Scouts", MAX_BATTLE_UNITS - 3 * HALF, STEALTHY))
FOUR = _army("Four", ("Tank", 1, TANK), ("Scouts", 1, STEALTHY), ("Gun team", 1, GUNNERS),
             ("Veterans", 1, VETERANS))

CASES: list[tuple[str, dict[str, Any]]] = [
    ("page default", {f.name: f.initial for f in BATTLE.fields}),
    ("two 10-unit armies, 10 turns", {"roster_a": TEN_A, "roster_b": TEN_B, "turns": 10}),
    ("two 10-unit armies with an officer each", {"roster_a": LED_A, "roster_b": LED_B,
                                                  "turns": 10}),
    (f"two {MAX_BATTLE_UNITS}-unit armies, 10 turns", {"roster_a": MOST, "roster_b": MOST, "turns": 10}),
    ("four different units a side, 10 turns", {"roster_a": FOUR, "roster_b": FOUR, "turns": 10}),
    ("five rifle squads against a tank, 10 turns",
     {"roster_a": _army("Platoon", ("Rifle squad", 5, RIFLES)),
      "roster_b": _army("Armour", ("Tank", 1, TANK)), "turns": 10}),
]

#: the same cases inside Pyodide under Node: the project mounted read-only, icepool from
#: the virtual environment (pure Python)
NODE = """
import { loadPyodide } from "pyodide";
const [root, sitePackages, cases] = process.argv.slice(-3);
const py = await loadPyodide();
py.FS.mkdirTree("/repo"); py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.FS.mkdirTree("/sp"); py.FS.mount(py.FS.filesystems.NODEFS, { root: sitePackages }, "/sp");
py.globals.set("cases", cases);
console.log(await py.runPythonAsync(`
import json, sys, time
sys.path[:0] = ["/repo"]
sys.path.append("/sp")
from rules_core import api
out = []
for label, inputs in json.loads(cases):
    api.run("sucs.roster_battle", inputs)
    start = time.perf_counter()
    reply = api.run("sucs.roster_battle", inputs)
    out.append([label, time.perf_counter() - start, reply["ok"]])
json.dumps(out)
`));
"""


def _answer(reply: dict[str, Any]) -> str:
    if not reply["ok"]:
        return f"refused ({reply['error']['field']})"
    result = reply["result"]
    if result["method"] == "pruned":
        return f"pruned, error at most {result['error_bound']:.1e}"
    return "exact" if result["method"] == "exact" else f"simulated, {result['trials']} battles"


def main() -> None:
    print(f"{'case':44} {'CPython cpu s':>13}  answer")
    for label, inputs in CASES:
        cpu = time.process_time()
        reply = api.run("sucs.roster_battle", inputs)
        print(f"{label:44} {time.process_time() - cpu:13.2f}  {_answer(reply)}", flush=True)
    site = sysconfig.get_paths()["purelib"]
    done = subprocess.run(["node", "--input-type=module", "-e", NODE, "--", str(ROOT), site,
                           json.dumps(CASES)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        print(f"Pyodide under Node failed: {done.stderr.strip()[-500:]}")
        return
    print(f"\n{'case':44} {'Pyodide wall s':>14}")
    for label, seconds, ok in json.loads(done.stdout.strip().splitlines()[-1]):
        print(f"{label:44} {seconds:14.2f}  {'answered' if ok else 'refused'}")


if __name__ == "__main__":
    main()
