"""The momentum page's fair-fight finder, ``phases.balance``: the tracker's length, the
dice of either phase or the damage the side can take that give the outcome the chance the
GM wants; each point the whole fight's own exact answer
(:mod:`rules_core.phases.calc_momentum_fight`)."""

from __future__ import annotations

from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, field_variable
from rules_core.calculator import Result
from rules_core.phases.calc_momentum_fight import ENGAGEMENT
from rules_core.phases.fight import GOAL, WORN_DOWN

SPEC = Balance(
    name="phases.balance",
    fight=ENGAGEMENT,
    variables=tuple(field_variable(ENGAGEMENT.fields, name) for name in (
        "goal_spaces", "offense_dice", "defence_dice", "damage_limit", "max_rounds")),
    outcomes=(Outcome("goal", GOAL, lambda fight: (GOAL,)),
              Outcome("worn", WORN_DOWN, lambda fight: (WORN_DOWN,))),
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, ENGAGEMENT.page)
