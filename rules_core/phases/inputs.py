"""What the 2d6 combat phases calculators share: the pages they sit on and link to, the
phase field, and each side's action dice with when it rolls a third die."""

from __future__ import annotations

from rules_core.fields import ChoiceField, Field, IntField
from rules_core.phases.expectations import EXTRA_CHOICES
from rules_core.phases.tables import MAX_POOL, MIN_POOL, PHASE_LABELS, Phase

#: the pages the calculators sit on and link to
ACTIONS_PAGE = "phases/actions"
MOMENTUM_PAGE = "phases/momentum"
ROUNDS_PAGE = "phases/rounds"
TRACKER_PAGE = "phases/tracker"

PHASE_CHOICES = tuple((p.value, PHASE_LABELS[p]) for p in Phase)


def side_fields(offense_help: str, defence_help: str,
                minimum: int = MIN_POOL) -> tuple[Field, ...]:
    """Each side's action dice and when it rolls a third die (source: "Action dice
    tracker", "Advantage and disadvantage"): the same four fields for every calculator
    that sets up both phases; only the help under the pools (and, for a whole fight, the
    smallest pool: two dice, one action) differs."""
    return (
        IntField("offense_dice", "Offense dice", default=5, minimum=minimum,
                 maximum=MAX_POOL, help=offense_help),
        IntField("defence_dice", "Defence dice", default=5, minimum=minimum,
                 maximum=MAX_POOL, help=defence_help),
        ChoiceField("offense_extra", "Players use a third die for advantage", default="auto",
                    choices=EXTRA_CHOICES),
        ChoiceField("defence_extra", "Referee uses a third die for disadvantage",
                    default="auto", choices=EXTRA_CHOICES),
    )
