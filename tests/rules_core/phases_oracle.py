"""The 2d6 combat phases rules written out once more, independently of ``rules_core``, for
the tests' oracles: the chance of each outcome by brute force over every ordered roll,
and how many dice an action takes and leaves (as the Rulings page states them)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from rules_core.phases.tables import Outcome, Phase


@cache
def counts(phase: Phase, dice: int) -> dict[Outcome, Fraction]:
    """Every ordered roll classified from the rules text (best two on offense, worst two
    on defence; two sixes ultra; 6- failure, 7-9 partial, 10+ success)."""
    tally = dict.fromkeys(Outcome, 0)
    for faces in itertools.product(range(1, 7), repeat=dice):
        a, b = sorted(faces, reverse=phase is Phase.OFFENSE)[:2]
        key = (Outcome.ULTRA if a == b == 6 else Outcome.FAILURE if a + b <= 6
               else Outcome.PARTIAL if a + b <= 9 else Outcome.SUCCESS)
        tally[key] += 1
    return {o: Fraction(n, 6 ** dice) for o, n in tally.items() if n}


def spent(left: int, always: bool) -> int:
    """Dice one action takes: 2, or 3 when exactly 3 are left or the side always takes the
    extra die and has 3 or more."""
    return 3 if left == 3 or (always and left >= 3) else 2


def dice_after(phase: Phase, outcome: Outcome, left: int, spend: int) -> int:
    """Dice left after an action: a failed offense or a successful defence removes one more
    if any is left."""
    rest = left - spend
    if (phase is Phase.OFFENSE and outcome is Outcome.FAILURE) or \
            (phase is Phase.DEFENCE and outcome is Outcome.SUCCESS):
        rest = max(0, rest - 1)
    return rest
