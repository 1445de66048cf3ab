"""How long ``sucs.engagement`` takes to answer or refuse the heaviest inputs its form
accepts (issue 29: each within 1 s of CPU in CPython, 3 s at a round cap of 100), and a
few fights it answers.

Run: .venv/bin/python benchmarks/sucs_engagement.py
Prints CPU seconds (steadier than wall-clock on a shared machine), the turn walk's work
and whether the fight was answered (exact, pruned with its bound, or simulated) or refused
(and on which input).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_core import api  # noqa: E402
from tests.rules_core.sucs_worst import worst_inputs  # noqa: E402

ANSWERED = [
    ("page default, exchange of fire", {}),
    ("page default, round cap 100", {"max_rounds": 100}),
    ("three a side, exchange of fire", {"side_a": "3/1/1, 3/2/1, 4/1/0",
                                        "side_b": "3/1x2/0, 3/1/1, 4/2/2"}),
    ("one against three, melee", {"side_a": "4/2/2", "side_b": "3/1/1, 3/1/1, 3/1/1",
                                  "mode": "melee"}),
    ("page default, melee (past both walks: simulated)", {"mode": "melee"}),
]


def _how(result: dict) -> str:
    """How an answer was reached: exact, the pruned walk's bound, or a simulation."""
    if result.get("method") == "simulation":
        return f"simulated, {result['trials']:,} fights"
    if result.get("error_bound"):
        return f"pruned, error at most {result['error_bound']:.1e}"
    return "exact"


def main() -> None:
    print(f"{'case':64} {'cpu s':>6}  answer")
    for label, inputs in ANSWERED + worst_inputs():
        cpu = time.process_time()
        reply = api.run("sucs.engagement", inputs)
        spent = time.process_time() - cpu
        answer = (f"answered: {_how(reply['result'])}" if reply["ok"]
                  else f"refused ({reply['error']['field']})")
        print(f"{label:64} {spent:6.2f}  {answer}", flush=True)


if __name__ == "__main__":
    main()
