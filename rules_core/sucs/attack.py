"""Resolving one attack (source: SUCS, "Order of Play", the attack paragraph after
"Actions", "Suppressed Units", "Altitude", "Special rules for commanders").

Roll 2d6 (plus modifiers) against the attacker's target number raised by the target's
defence: cover, altitude above the attacker and (by default, as the text reads) its
armor. A success does the attack value in damage, more when the roll beats the number
needed by :data:`~rules_core.sucs.tables.SUCCESS_BY` or more. Damage above the armor
destroys; equal to it, a d6 decides (:func:`equal_armor_faces`); below it, no effect. A
stealthy target must first be found with a plain target-number roll. Every number is
in :mod:`rules_core.sucs.tables`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import icepool

from rules_core.dice.distribution import from_icepool
from rules_core.sucs.tables import (
    DUG_IN_ARMOR,
    EQUAL_ARMOR_DESTROYS,
    MELEE_PENALTY,
    OUT_OF_COMMAND,
    SUCCESS_BY,
    SUCCESS_DAMAGE,
    SUPPORT_BONUS,
    target_number,
)

OUTCOMES = ("destroyed", "suppressed", "no_effect")
OUTCOME_LABELS = {"destroyed": "Destroyed", "suppressed": "Suppressed",
                  "no_effect": "No effect"}


def equal_armor_faces() -> str:
    """The d6 when damage equals the armor, in words: the faces that suppress, then those
    that destroy."""
    return (f"1-{EQUAL_ARMOR_DESTROYS - 1} suppressed, "
            f"{EQUAL_ARMOR_DESTROYS}-6 destroyed")


@dataclass(frozen=True)
class AttackSpec:
    """Everything that decides the odds of one attack against one target."""

    quality: int = 3
    target_number: int | None = None   # overrides the quality's target number
    attack: int = 1
    armor: int = 0
    cover: int = 0
    dug_in: bool = False               # +DUG_IN_ARMOR armor
    armor_support: bool = False        # +SUPPORT_BONUS armor from a support action
    attack_support: bool = False       # +SUPPORT_BONUS attack from a support action
    altitude_above: int = 0            # target's altitude levels above the attacker
    out_of_command: bool = False       # +OUT_OF_COMMAND to the target number
    suppressed_melee: bool = False     # -MELEE_PENALTY on the roll
    roll_modifier: int = 0
    stealthy: bool = False
    armor_modifies_roll: bool = True   # the literal reading; False: cover only
    #: where the success by SUCCESS_BY is counted from: False (default) the number
    #: needed after the target's defence; True the attacker's own target number
    bonus_from_target_number: bool = False

    @property
    def own_tn(self) -> int:
        """The attacker's target number before command: the one given, or its quality's."""
        return self.target_number if self.target_number is not None else target_number(self.quality)

    @property
    def command(self) -> int:
        """What being out of command adds to the target number (0 when in command)."""
        return OUT_OF_COMMAND if self.out_of_command else 0

    @property
    def base_tn(self) -> int:
        return self.own_tn + self.command

    @property
    def effective_armor(self) -> int:
        return (self.armor + DUG_IN_ARMOR * self.dug_in
                + SUPPORT_BONUS * self.armor_support)

    @property
    def defence(self) -> int:
        armor = self.effective_armor if self.armor_modifies_roll else 0
        return armor + self.cover + self.altitude_above

    @property
    def needed(self) -> int:
        """The modified 2d6 total the attack roll must reach."""
        return self.base_tn + self.defence

    @property
    def roll_bonus(self) -> int:
        return self.roll_modifier - (MELEE_PENALTY if self.suppressed_melee else 0)

    @property
    def damage(self) -> int:
        return self.attack + SUPPORT_BONUS * self.attack_support


@dataclass(frozen=True)
class Resolution:
    """What one set of dice did."""

    outcome: str          # destroyed / suppressed / no_effect
    stage: str            # not_found / miss / under_armor / equal_armor / over_armor
    damage: int
    margin: int | None    # modified roll minus the number needed (None if not rolled)
    d6_used: bool


def resolve(spec: AttackSpec, roll_2d6: int, d6: int, spot_2d6: int | None = None) -> Resolution:
    """Resolve one attack for given dice: the attack roll's 2d6 total, the d6 rolled
    when damage equals armor, and (for a stealthy target) the spotting roll's total."""
    if spec.stealthy and (spot_2d6 is None or spot_2d6 < spec.base_tn):
        return Resolution("no_effect", "not_found", 0, None, False)
    margin = roll_2d6 + spec.roll_bonus - spec.needed
    if margin < 0:
        return Resolution("no_effect", "miss", 0, margin, False)
    over = margin if not spec.bonus_from_target_number else \
        roll_2d6 + spec.roll_bonus - spec.base_tn
    damage = spec.damage + (SUCCESS_DAMAGE if over >= SUCCESS_BY else 0)
    armor = spec.effective_armor
    if damage > armor:
        return Resolution("destroyed", "over_armor", damage, margin, False)
    if damage < armor:
        return Resolution("no_effect", "under_armor", damage, margin, False)
    return Resolution("destroyed" if d6 >= EQUAL_ARMOR_DESTROYS else "suppressed", "equal_armor",
                      damage, margin,
                      True)


def outcome_distribution(spec: AttackSpec) -> dict[str, Fraction]:
    """Exact odds of each outcome: every 2d6 total x d6 face (x the spotting 2d6 for a
    stealthy target) through :func:`resolve`."""
    two = 2 @ icepool.d6
    if spec.stealthy:
        die = icepool.map(lambda s, r, f: resolve(spec, r, f, s).outcome, two, two, icepool.d6)
    else:
        die = icepool.map(lambda r, f: resolve(spec, r, f).outcome, two, icepool.d6)
    dist = from_icepool(die)
    return {o: dist.get(o, Fraction(0)) for o in OUTCOMES}


def stage_distribution(spec: AttackSpec) -> dict[str, Fraction]:
    """Exact odds of each stage (found, hit, damage against armor)."""
    two = 2 @ icepool.d6
    if spec.stealthy:
        die = icepool.map(lambda s, r: resolve(spec, r, 1, s).stage, two, two)
    else:
        die = icepool.map(lambda r: resolve(spec, r, 1).stage, two)
    return from_icepool(die)


def can_damage(spec: AttackSpec) -> bool:
    """Whether some roll of this attack would do damage at least equal to the armor: the
    test of an attack roll that "might possibly cause damage" (source: Suppressed Units).
    The search for a stealthy target is not part of it."""
    plain = replace(spec, stealthy=False)
    return any(resolve(plain, total, EQUAL_ARMOR_DESTROYS).stage in ("equal_armor", "over_armor")
               for total in range(2, 13))


def two_d6_at_least(total: int) -> Fraction:
    """P(2d6 >= total), exact."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= total)
    return Fraction(ways, 36)
