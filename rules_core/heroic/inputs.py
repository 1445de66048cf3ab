"""Input fields the Heroic Combat calculators share (skills, tactics, head counts, rolls
already made at the table, the wounding multiplier), the check on how many attackers can
reach the defenders, the 3d6 their roll buttons throw and the sentence that reads a
resolved contest."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core.errors import InputError
from rules_core.fields import ChoiceField, IntField
from rules_core.heroic.tables import (
    DEFAULT_SF,
    MAX_REACH_PER_DEFENDER,
    REACH_PER_DEFENDER_LIMIT,
    TACTICS,
    UNWIELDY_SF,
)
from rules_core.messages import count

MAX_COMBATANTS = 100_000

#: the pages the calculators sit on and link to (each written once, here)
ACTIONS_PAGE = "heroic/actions"
GROUPS_PAGE = "heroic/groups"
INDEX_PAGE = "heroic/index"
MELEE_PAGE = "heroic/melee"
MORALE_PAGE = "heroic/morale"
RANGED_PAGE = "heroic/ranged"
TACTICS_PAGE = "heroic/tactics"

TACTIC_CHOICES = tuple((t.key, t.name) for t in TACTICS)
#: the Speed Factor field's help (source: Speed Factor)
SPEED_FACTOR_HELP = (f"{DEFAULT_SF} normally; {UNWIELDY_SF} for unwieldy weapons that must be "
                     "readied after each attack.")


def tactic_field(name: str, label: str, help_: str) -> ChoiceField:
    return ChoiceField(name, label, default="balanced", choices=TACTIC_CHOICES, help=help_)


def count_field(name: str, label: str, initial: int, help_: str = "") -> IntField:
    return IntField(name, label, default=1, initial=initial, minimum=1, maximum=MAX_COMBATANTS,
                    help=help_)


def skill_field(name: str, label: str, initial: int, help_: str = "", **kw: Any) -> IntField:
    return IntField(name, label, initial=initial, minimum=3, maximum=40, help=help_, **kw)


def roll_field(name: str, label: str) -> IntField:
    return IntField(name, label, optional=True, minimum=3, maximum=18,
                    help="A 3d6 total already rolled at the table (leave empty for the odds).")


def reach_field() -> IntField:
    """How many attackers can reach one defender (a ruling: six, more for a large foe)."""
    return IntField("reach_per_defender", "Most attackers around one defender",
                    default=MAX_REACH_PER_DEFENDER, minimum=1,
                    maximum=REACH_PER_DEFENDER_LIMIT,
                    help=f"{MAX_REACH_PER_DEFENDER} around a man-sized foe (the six hexes "
                         f"about a figure); more for a large foe, fewer in a tight spot.")


def roll_3d6(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6) for _ in range(3)]


def check_reach(attackers: int, defenders: int, reach: int = MAX_REACH_PER_DEFENDER) -> None:
    """Refuse more attackers than can reach the defenders (a ruling: at most ``reach``
    around each defender, six unless the form says otherwise)."""
    most = reach * defenders
    if attackers > most:
        raise InputError("attackers", f"Attackers is {attackers}, but at most {reach} "
                                      f"fighters can reach one defender in melee (Most "
                                      f"attackers around one defender), so at most {most} "
                                      f"against {defenders}; enter only those who can strike "
                                      f"(from 1 to {most}), or raise that number for a large "
                                      f"foe.")


def contest_sentence(c: dict[str, Any]) -> str:
    """One line describing a resolved contest."""
    if c["winner"] == "attacker":
        return (f"the attacker wins by {c['margin_of_victory']}: "
                f"**{count(c['hits'], 'hit')}**")
    if c["winner"] == "defender":
        return f"the defender wins by {-c['margin_of_victory']}: no hits"
    return "the margins are equal: nobody wins, no hits"


def multiplier_fraction(value: float) -> Fraction:
    """The wounding multiplier as typed (1.5 is 3/2 exactly, 0.1 is 1/10)."""
    return Fraction(repr(value)).limit_denominator(1000)
