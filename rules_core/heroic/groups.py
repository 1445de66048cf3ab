"""Groups of identical combatants (source: Heroic Combat, Multiple Attackers).

The attacking side's skill bonus comes from the attackers : defenders ratio; its hit
multiplier from the number of attackers alone (the Size and Speed/Range progression,
open-ended). Injury to a group is pooled: total damage minus DR once per hit, times the
wounding multiplier, taken off the group's combined HP.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rules_core.heroic.tables import RATIO_BONUS, RATIO_BONUS_MAX, multiplier_band_tops


def skill_bonus(attackers: int, defenders: int) -> int:
    """Skill bonus for the attackers : defenders ratio (a ratio on a row's limit uses that row)."""
    ratio = Fraction(attackers, defenders)
    for limit, bonus in RATIO_BONUS:
        if ratio <= limit:
            return bonus
    return RATIO_BONUS_MAX


def hit_multiplier(attackers: int) -> int:
    """Hit multiplier for a number of attackers: x1 up to 3, x2 for 4-5, ... x7 for 21-30,
    then x8 for 31-50, x9 for 51-70, x10 for 71-100 and on."""
    for multiplier, top in enumerate(multiplier_band_tops(), start=1):
        if attackers <= top:
            return multiplier
    raise AssertionError("unreachable: the progression is endless")


def multiplier_band(attackers: int) -> tuple[int, int]:
    """(first, last) attacker count of the band ``attackers`` falls in."""
    low = 1
    for top in multiplier_band_tops():
        if attackers <= top:
            return low, top
        low = top + 1
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Injury:
    """Pooled injury to a group of identical combatants."""

    total_damage: int
    dr_total: int
    penetrating: int
    injury: int
    hp_before: int
    hp_after: int
    standing_before: int
    standing_after: int
    newly_down: int  # members who went down to this attack
    wounded_hp: int | None  # the one member left below full HP, if any


def injury_from(penetrating: int, multiplier: Fraction) -> int:
    """Penetrating damage times the wounding multiplier, rounded down, at least 1 if any
    damage got through (the Basic Set's rounding)."""
    if penetrating <= 0:
        return 0
    return max(1, math.floor(penetrating * multiplier))


def penetrating_damage(rolls: list[int] | None, total: int, hits: int, dr: int,
                       per_roll: bool) -> int:
    """Damage past DR: pooled (total - DR x hits, the source's method) or roll by roll."""
    if per_roll:
        assert rolls is not None
        return sum(max(0, r - dr) for r in rolls)
    return max(0, total - dr * hits)


def standing(hp: int, hp_per_member: int) -> int:
    """Members still up when the pool holds ``hp``: each full or partial share is one."""
    return math.ceil(hp / hp_per_member) if hp > 0 else 0


def group_injury(total_damage: int, hits: int, dr: int, multiplier: Fraction,
                 hp_per_member: int, hp_before: int, rolls: list[int] | None = None,
                 per_roll: bool = False) -> Injury:
    """Apply one attack's hits to a group's pooled HP."""
    penetrating = penetrating_damage(rolls, total_damage, hits, dr, per_roll)
    injury = injury_from(penetrating, multiplier)
    hp_after = max(0, hp_before - injury)
    before, after = standing(hp_before, hp_per_member), standing(hp_after, hp_per_member)
    partial = hp_after % hp_per_member
    return Injury(
        total_damage=total_damage,
        dr_total=dr * hits,
        penetrating=penetrating,
        injury=injury,
        hp_before=hp_before,
        hp_after=hp_after,
        standing_before=before,
        standing_after=after,
        newly_down=before - after,
        wounded_hp=partial if partial else None,
    )
