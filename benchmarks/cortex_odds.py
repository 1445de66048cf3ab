"""How long ``cortex.odds`` takes for the largest pools it accepts (12 dice a side).

Run: .venv/bin/python benchmarks/cortex_odds.py
Prints wall-clock and CPU seconds (CPU time is steadier on a shared machine). Caches are
cleared before each run so every figure is a cold computation.
"""

from __future__ import annotations

import time

from rules_core.cortex.effect import Rules, _best, taken_out_count
from rules_core.cortex.odds import Target, contest_odds

MIXED = [4, 6, 8, 10, 12] * 2 + [8, 6]  # every size: the most work per die
CASES = [
    ("12d12 vs 12d12, no target", [12] * 12, [12] * 12, None),
    ("12d12 vs 12d12, 5 d8 members", [12] * 12, [12] * 12, Target((8,) * 5)),
    ("12 mixed vs 12 mixed, no target", MIXED, MIXED, None),
    ("12 mixed vs 12 mixed, 6 mixed members, Part II",
     MIXED, MIXED, Target((4, 6, 8, 10, 12, 12), 4, Rules.PART2, True)),
    ("12 mixed vs 12 mixed, 6 mixed members, Part I",
     MIXED, MIXED, Target((4, 6, 8, 10, 12, 12), 4, Rules.PART1, True)),
]


def main() -> None:
    print(f"{'case':52} {'wall s':>8} {'cpu s':>8}")
    for label, attacker, defender, target in CASES:
        walls, cpus = [], []
        for _ in range(3):
            _best.cache_clear()
            taken_out_count.cache_clear()
            wall, cpu = time.perf_counter(), time.process_time()
            contest_odds(attacker, defender, plot_point=True, target=target)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{label:52} {min(walls):8.3f} {min(cpus):8.3f}")


if __name__ == "__main__":
    main()
