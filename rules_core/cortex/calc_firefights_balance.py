"""The firefights page's fair-fight finder, ``cortex.balance``: the members of a side, its
cover rating, armor or plot points that give the outcome the chance the GM wants; each
point the whole firefight's own exact answer (:mod:`rules_core.cortex.calc_firefights_fight`)."""

from __future__ import annotations

from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, Variable, field_variable
from rules_core.calculator import Result
from rules_core.cortex.calc_firefights_fight import ENGAGEMENT
from rules_core.cortex.fight import A_WINS, B_WINS
from rules_core.cortex.tables import MAX_FIRETEAM


def _members(side: str) -> Variable:
    """A side's members: its quality dice in order, from the first again once all are
    used, up to the number given (fewer: the first ones)."""
    key = f"{side}_quality"
    start = str(next(f for f in ENGAGEMENT.fields if f.name == key).start)

    def put(raw: dict[str, Any], value: int) -> dict[str, Any]:
        dice = str(raw.get(key, start)).split()
        return {**raw, key: " ".join(dice[i % len(dice)] for i in range(value))}
    return Variable(f"{side}_members", f"Side {side.upper()}: members (quality dice)", 1,
                    MAX_FIRETEAM, lambda raw: len(str(raw.get(key, start)).split()), put)


SPEC = Balance(
    name="cortex.balance",
    fight=ENGAGEMENT,
    variables=(_members("a"), _members("b"),
               *(field_variable(ENGAGEMENT.fields, f"{side}_cover", step=2) for side in "ab"),
               *(field_variable(ENGAGEMENT.fields, f"{side}_plot_points") for side in "ab")),
    outcomes=(Outcome("a", A_WINS, lambda fight: (A_WINS,)),
              Outcome("b", B_WINS, lambda fight: (B_WINS,))),
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, ENGAGEMENT.page)
