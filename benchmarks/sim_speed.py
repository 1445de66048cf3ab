"""Simulated fights per second, per system that simulates (issue 40, item 5): the SUCS army
battle (two 10-unit rosters: ten rifle squads against ten veterans, two mixed armies, the
same with an officer each, and two armies of the most units a battle takes), the SUCS
engagement (the page's own sides in close combat at round caps of 20 and 100) and the
Heroic group fight (the source's 12 orcs against 8 knights with carried wounds, and 40
against 40, at a round cap of 100).

Each case builds its fight afresh (as a request does: the caches start empty) and plays
it through the calculator's own simulation (:func:`rules_core.sucs.fight.simulated`, or
:func:`rules_core.solver.simulated` with the Heroic :func:`play_quickly`), the same seed
as the pages use.

Run: .venv/bin/python benchmarks/sim_speed.py [--pyodide] [--battles N]
Prints battles per second in CPython (CPU time), through the calculator's simulation and
for the simulator alone (``play_quickly``), and with ``--pyodide`` the same in the pinned
Pyodide under Node (the Node process's CPU time, after a warm-up run of a tenth as many
fights).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.sucs_battle import (  # noqa: E402
    LED_A,
    LED_B,
    MOST,
    RIFLES,
    TEN_A,
    TEN_B,
    VETERANS,
)
from benchmarks.sucs_battle import _army as _army  # noqa: E402
from rules_core import solver  # noqa: E402
from rules_core.fields import initial_inputs, validate_all  # noqa: E402
from rules_core.heroic import calc_groups_fight as heroic_calc  # noqa: E402
from rules_core.heroic import quick as heroic_quick  # noqa: E402
from rules_core.sucs import calc_actions_fight as engagement  # noqa: E402
from rules_core.sucs import calc_roster_battle as battle  # noqa: E402
from rules_core.sucs import fight as sucs  # noqa: E402
from rules_core.sucs import quick as sucs_quick  # noqa: E402

#: (label, calculator, inputs): every case is simulated whatever its size
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("sucs armies 10 rifles v 10 veterans", "sucs.roster_battle",
     {"roster_a": _army("Rifles", ("Rifle squad", 10, RIFLES)),
      "roster_b": _army("Veterans", ("Veterans", 10, VETERANS)), "turns": 10}),
    ("sucs armies 10 v 10", "sucs.roster_battle",
     {"roster_a": TEN_A, "roster_b": TEN_B, "turns": 10}),
    ("sucs armies 10 v 10 officers", "sucs.roster_battle",
     {"roster_a": LED_A, "roster_b": LED_B, "turns": 10}),
    (f"sucs armies {battle.MAX_BATTLE_UNITS} v {battle.MAX_BATTLE_UNITS}", "sucs.roster_battle",
     {"roster_a": MOST, "roster_b": MOST, "turns": 10}),
    ("sucs engagement melee cap 20", "sucs.engagement", {"mode": "melee", "max_rounds": 20}),
    ("sucs engagement melee cap 100", "sucs.engagement", {"mode": "melee", "max_rounds": 100}),
    ("heroic 12 v 8 carried cap 100", "heroic.engagement",
     {"wounds": "carry", "max_rounds": 100}),
    ("heroic 40 v 40 cap 100", "heroic.engagement",
     {"a_members": 40, "b_members": 40, "max_rounds": 100}),
    ("heroic 40 v 40 carried cap 100", "heroic.engagement",
     {"a_members": 40, "b_members": 40, "wounds": "carry", "max_rounds": 100}),
]


def fight_and_cap(calc: str, inputs: dict[str, Any]) -> tuple[Any, int]:
    """A fresh fight for the case, and its round cap."""
    form = {"sucs.roster_battle": battle.BATTLE, "sucs.engagement": engagement.ENGAGEMENT,
            "heroic.engagement": heroic_calc.ENGAGEMENT}[calc]
    clean, errors = validate_all(form.fields, {**initial_inputs(form.fields), **inputs})
    assert clean is not None and not errors, errors
    if calc == "sucs.roster_battle":
        return battle.battle_of(clean), clean["turns"]
    if calc == "sucs.engagement":
        return engagement.fight_of(clean), clean["max_rounds"]
    return heroic_calc.build(clean), clean["max_rounds"]


def quick_player(calc: str) -> Any:
    """The system's ``play_quickly`` (:mod:`rules_core.sucs.quick`, :mod:`rules_core.heroic.quick`)."""
    return sucs_quick.play_quickly if calc.startswith("sucs.") else heroic_quick.play_quickly


def simulate(calc: str, fight: Any, cap: int, battles: int) -> solver.Simulated:
    """``battles`` fights played the way the calculator plays them, tallied as the answer
    cascade tallies them (no work cap); a SUCS fight's turn walk is not budgeted."""
    if calc.startswith("sucs."):
        fight.max_work = sucs.UNCOUNTED
    play = quick_player(calc)
    return solver.simulated(fight, max_rounds=cap, trials=battles,
                            play_once=lambda rng: play(fight, cap, rng))


def play_only(calc: str, fight: Any, cap: int, battles: int) -> float:
    """Rounds played in ``battles`` fights by the simulator alone (``play_quickly``, one
    seeded generator), without the solver's tally of each fight's outcome and losses."""
    play = quick_player(calc)
    rng = random.Random(solver.SIM_SEED)
    return sum(play(fight, cap, rng)[1] for _ in range(battles)) / battles


def measure(battles: int) -> list[tuple[str, float, float, float]]:
    """(case, battles per second through the calculator's simulation, the simulator's
    alone, rounds per fight) for every case, CPU time."""
    out = []
    for label, calc, inputs in CASES:
        fight, cap = fight_and_cap(calc, inputs)
        cpu = time.process_time()
        simulate(calc, fight, cap, battles)
        spent = time.process_time() - cpu
        fight, cap = fight_and_cap(calc, inputs)
        cpu = time.process_time()
        rounds = play_only(calc, fight, cap, battles)
        alone = time.process_time() - cpu
        out.append((label, battles / spent, battles / alone, rounds))
    return out


#: the same cases inside Pyodide under Node: the project mounted read-only, icepool from
#: the virtual environment (pure Python)
NODE = """
import { loadPyodide } from "pyodide";
const [root, sitePackages, battles] = process.argv.slice(-3);
const py = await loadPyodide();
py.FS.mkdirTree("/repo"); py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.FS.mkdirTree("/sp"); py.FS.mount(py.FS.filesystems.NODEFS, { root: sitePackages }, "/sp");
py.globals.set("battles", Number(battles));
console.log(await py.runPythonAsync(`
import json, sys
from js import process
sys.path[:0] = ["/repo"]
sys.path.append("/sp")
from benchmarks import sim_speed


def cpu():
    used = process.cpuUsage()
    return (used.user + used.system) / 1e6


out = []
for label, calc, inputs in sim_speed.CASES:
    fight, cap = sim_speed.fight_and_cap(calc, inputs)
    sim_speed.simulate(calc, fight, cap, max(1, battles // 10))
    fight, cap = sim_speed.fight_and_cap(calc, inputs)
    start = cpu()
    sim_speed.simulate(calc, fight, cap, battles)
    through = battles / (cpu() - start)
    fight, cap = sim_speed.fight_and_cap(calc, inputs)
    start = cpu()
    sim_speed.play_only(calc, fight, cap, battles)
    out.append([label, through, battles / (cpu() - start)])
json.dumps(out)
`));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=2000, help="fights per case")
    parser.add_argument("--pyodide", action="store_true", help="also in Pyodide under Node")
    args = parser.parse_args()
    print("battles per second: through the calculator's simulation (solver.simulated, which "
          "also tallies\neach fight's outcome, losses and ending round), and the simulator "
          "alone (play_quickly)\n")
    print(f"{'CPython':40} {'simulated':>10} {'alone':>10} {'rounds each':>11}")
    for label, rate, alone, rounds in measure(args.battles):
        print(f"{label:40} {rate:10,.0f} {alone:10,.0f} {rounds:11.1f}", flush=True)
    if not args.pyodide:
        return
    site = sysconfig.get_paths()["purelib"]
    done = subprocess.run(["node", "--input-type=module", "-e", NODE, "--", str(ROOT), site,
                           str(args.battles)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        print(f"Pyodide under Node failed: {done.stderr.strip()[-500:]}")
        return
    print(f"\n{'Pyodide under Node':40} {'simulated':>10} {'alone':>10}")
    for label, rate, alone in json.loads(done.stdout.strip().splitlines()[-1]):
        print(f"{label:40} {rate:10,.0f} {alone:10,.0f}")


if __name__ == "__main__":
    main()
