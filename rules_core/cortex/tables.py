"""Cortex small unit combat data: quality dice, range by zones, specialists, drone costs.

Sources: Part I, "Traits for Fireteams" (quality dice by experience) and Part II,
"Zones", "Basic Enemy Combatants" and "Specialists". The site's tables are rendered
from these values.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Range(str, Enum):
    """How far the target is, in zones (source: Part II, Zones and Distance)."""

    SAME = "same"  # in the shooter's zone: close quarters
    ADJACENT = "adjacent"  # the next zone: mid-range
    FARTHER = "farther"  # two or more zones away: long range


#: Die added to the target's pool for range (source: Part II, Distance Penalties).
RANGE_DIE: dict[Range, int | None] = {Range.SAME: None, Range.ADJACENT: 8, Range.FARTHER: 10}

RANGE_LABELS: dict[Range, str] = {
    Range.SAME: "Same zone (close quarters)",
    Range.ADJACENT: "Adjacent zone (mid-range)",
    Range.FARTHER: "Two or more zones away (long range)",
}

#: Suggested quality die by training and experience (source: Part I, NPC Fireteams).
QUALITY: tuple[tuple[int, str], ...] = (
    (4, "No training, no experience"),
    (6, "Trained, but never in real combat"),
    (8, "Combat veteran"),
    (10, "Elite operator"),
    (12, "One of the best in the world"),
)

#: Members per NPC fireteam (Part I: at most six) and per grouped unit (Part II: 1-5).
MAX_FIRETEAM = 6
MAX_GROUP = 5
#: Player fireteams the hit allocation is written for (Part I: Fireteams as Characters).
PC_TEAM_MIN, PC_TEAM_MAX = 3, 6


@dataclass(frozen=True)
class Specialist:
    """One specialist: what spending Edge buys (source: Part II, Specialists)."""

    key: str
    name: str
    cost: str
    effect: str
    limits: str


SPECIALISTS: tuple[Specialist, ...] = (
    Specialist("flamethrower", "Flamethrower", "1 Edge when the unit attacks",
               "A damaging attack also leaves an On Fire condition the size of the effect "
               "die; it deals that die as damage at the end of every turn until put out.",
               "Target in the unit's own zone."),
    Specialist("grenadier", "Grenadier", "1 Edge per option, as many as the GM spends",
               "Each Edge adds a die the size of the grenadier's quality die to the attack, "
               "or adds a second target in the same zone (each target gets its own effect "
               "dice).",
               "Extra targets must share a zone with another target."),
    Specialist("medic", "Medic", "1 Edge per attempt",
               "Tries to bring a fallen member back against 3d8; an effect die at least the "
               "fallen member's quality die returns them to the unit.",
               "Does not use the unit's turn."),
    Specialist("drone_turret", "Drone operator: turret", "1, 2, 4, ... Edge (doubles per drone)",
               "A new combatant with a 3d6 pool that only attacks or lays suppressing fire, "
               "acts on its own and defends with its 3d6.",
               "Shares the doubling cost with every other drone."),
    Specialist("drone_surveillance", "Drone operator: surveillance drone",
               "1, 2, 4, ... Edge (doubles per drone)",
               "Moves a zone per turn; nobody in its zone benefits from cover or "
               "concealment. Defends with 3d6.",
               "The operator's die leaves the unit's pool while the drone flies."),
    Specialist("marksman", "Marksman", "1 Edge per attack",
               "The target does not add its armor asset to its defence pool.", "None."),
    Specialist("machine_gunner", "Machine gunner", "1 Edge per target",
               "Places a Suppressed condition (a disadvantage) the size of the gunner's "
               "quality die on one target per Edge.",
               "The gunner's die leaves the unit's pool while the condition lasts."),
)

#: The medic's test is against 3d8 (source: Part II, Specialists, Medic).
MEDIC_DIFFICULTY: tuple[int, ...] = (8, 8, 8)

#: A unit may have as many specialists as it has members (source: Part II, Specialists).
MAX_DRONES = 20


def drone_cost(number: int) -> int:
    """Edge for the ``number``-th drone one operator deploys: 1, 2, 4, ... (doubling)."""
    if number < 1:
        raise ValueError("drones are counted from 1")
    return 2 ** (number - 1)


def drones_total(count: int) -> int:
    """Edge for ``count`` drones in all: 1 + 2 + ... + 2**(count-1) = 2**count - 1."""
    return sum(drone_cost(i) for i in range(1, count + 1))


def allocation(count: int) -> list[list[int]]:
    """Numbers 1-12 dealt round the team, most exposed member first (source: Part I,
    Inflicting Harm - the Characters)."""
    return [list(range(i, 13, count)) for i in range(1, count + 1)]
