"""The bursts page's fair-fight finder, ``gunplay.balance``: the rounds carried, the
shooter's modifier, the difficulty or the hits needed that give the outcome the chance
the GM wants; each point the sustained fire's own exact answer
(:mod:`rules_core.gunplay.calc_bursts_fight`)."""

from __future__ import annotations

from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, field_variable
from rules_core.calculator import Result
from rules_core.gunplay.calc_bursts_fight import ENGAGEMENT
from rules_core.gunplay.fight import A_DOWN, B_DOWN, OUT_OF_AMMO, TARGET_DOWN
from rules_core.gunplay.inputs import BURST_PAGE


def _duel(fight: dict[str, Any]) -> bool:
    return fight.get("duel", "none") != "none"


SPEC = Balance(
    name="gunplay.balance",
    fight=ENGAGEMENT,
    variables=tuple(field_variable(ENGAGEMENT.fields, name) for name in (
        "ammo", "bonus", "dc", "hits_needed", "b_ammo", "b_bonus", "b_dc", "b_hits_needed")),
    outcomes=(Outcome("stopped", "The target is stopped (in a duel: the second shooter down)",
                      lambda fight: (B_DOWN,) if _duel(fight) else (TARGET_DOWN,)),
              Outcome("not", "The shooter does not stop it (runs dry; in a duel: is shot down)",
                      lambda fight: (A_DOWN,) if _duel(fight) else (OUT_OF_AMMO,))),
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, BURST_PAGE)
