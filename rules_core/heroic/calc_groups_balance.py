"""The groups page's fair-fight finder, ``heroic.balance``: how many members, what skill
or what DR on one side give the outcome the chance the GM wants, each point the whole
fight's own answer (:mod:`rules_core.heroic.calc_groups_fight`)."""

from __future__ import annotations

from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, field_variable
from rules_core.calculator import Result
from rules_core.heroic import fight as model
from rules_core.heroic.calc_groups_fight import ENGAGEMENT, FIELDS
from rules_core.heroic.inputs import GROUPS_PAGE


def _lost(loser: str) -> Any:
    """A side's loss: the whole fight's outcome that adds up ``loser`` wiped out and
    ``loser`` broken (its result's ``summed``)."""
    def names(fight: dict[str, Any]) -> tuple[str, ...]:
        return (model.BEATEN.format(fight[f"{loser}_name"]),)
    return names


SPEC = Balance(
    name="heroic.balance",
    fight=ENGAGEMENT,
    variables=tuple(field_variable(FIELDS, f"{side}_{what}")
                    for what in ("members", "skill", "dr") for side in ("a", "b")),
    outcomes=(Outcome("b", "Side B wins (side A wiped out or broken)", _lost("a")),
              Outcome("a", "Side A wins (side B wiped out or broken)", _lost("b"))),
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, GROUPS_PAGE)
