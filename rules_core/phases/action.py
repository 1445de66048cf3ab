"""One action roll (source: 2d6 combat phases, "Outcomes" and "Action dice tracker").

Two action dice are rolled and added. A third die gives advantage on offense (keep the
best two) or, spent by the referee, disadvantage on defence (keep the worst two). The
kept total sets the outcome: 6 or less failure, 7-9 partial success, 10+ success, and
two sixes among the kept dice an ultra success (counted apart from success).

:func:`resolve` is the one resolution function: the real roller feeds it random faces
and :func:`outcome_distribution` runs every combination of faces through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import icepool

from rules_core.dice.distribution import from_icepool
from rules_core.errors import InputError
from rules_core.phases.tables import FAILURE_MAX, KEPT, PARTIAL_MAX, SIDES, Outcome, Phase


@dataclass(frozen=True)
class Resolution:
    """The dice rolled, the two kept, their total and the outcome."""

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    outcome: Outcome


def check_faces(field: str, faces: object) -> tuple[int, ...]:
    """Faces from JSON: a list of 2 or 3 whole numbers from 1 to 6, else InputError."""
    if not isinstance(faces, (list, tuple)) or not KEPT <= len(faces) <= KEPT + 1:
        raise InputError(field, "expected a list of 2 or 3 die faces, each from 1 to 6, "
                                f"received {faces!r:.60}.")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
            raise InputError(field, f"each die face must be a whole number from 1 to {SIDES}, "
                                    f"received {face!r:.30}.")
    return tuple(faces)


def kept_dice(phase: Phase, faces: Sequence[int]) -> tuple[int, ...]:
    """The two dice that count: all of two; of three, the best two on offense
    (advantage) or the worst two on defence (disadvantage)."""
    ordered = sorted(faces, reverse=phase is Phase.OFFENSE)
    return tuple(ordered[:KEPT])


def outcome_of(kept: Sequence[int]) -> Outcome:
    """The outcome band of the kept dice (source: Outcomes table)."""
    if all(face == SIDES for face in kept):
        return Outcome.ULTRA
    total = sum(kept)
    if total <= FAILURE_MAX:
        return Outcome.FAILURE
    if total <= PARTIAL_MAX:
        return Outcome.PARTIAL
    return Outcome.SUCCESS


def resolve(phase: Phase, faces: Sequence[int]) -> Resolution:
    """Resolve one action roll of 2 or 3 dice in ``phase``."""
    checked = check_faces("faces", list(faces))
    kept = kept_dice(phase, checked)
    return Resolution(checked, kept, sum(kept), outcome_of(kept))


def outcome_distribution(phase: Phase, dice: int) -> dict[Outcome, Fraction]:
    """Exact chance of each outcome for an action of ``dice`` (2 or 3) dice.

    Every multiset of faces (icepool's expanded pool, with its multiplicity) goes
    through :func:`resolve`, so the odds are the roller's own rule.
    """
    if dice not in (KEPT, KEPT + 1):
        raise InputError("dice", f"an action rolls 2 or 3 dice, received {dice!r}.")
    pool = icepool.d6.pool(dice).expand()
    die = pool.map(lambda faces: resolve(phase, faces).outcome.value)
    dist = from_icepool(die)
    return {o: dist.get(o.value, Fraction(0)) for o in Outcome}
