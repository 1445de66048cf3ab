"""The unit cost formula (source: SUCS, "Unit Costs").

cost = quality base + weapons + armor + speed above 6" + range + amphibious + stealth
       + transport + support actions + altitude + disembark from altitude
       + special (no-damage) weapons, with each restricted term at half value,
and the extra cost (everything above the quality base) rounded up to a whole point.

Weapons: a weapon with attack ``a`` that can hit ``n`` units (automatic fire, written
"a,a" in the unit lists) costs 4 x a for each unit it can hit plus 4 per unit after the
first. The dearest weapon is paid in full, every other weapon at half price.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from rules_core.sucs.tables import COSTS, QUALITY_BASE

PAGE = "sucs/costs"
MOBILITIES = ("ground", "water", "hover", "air", "subterranean")


@dataclass(frozen=True)
class Weapon:
    """One weapon: attack value and how many units one attack can hit (1: single)."""

    attack: int = 0
    targets: int = 1

    def notation(self) -> str:
        """The unit lists' notation: "2" or "1,1"."""
        return ",".join([str(self.attack)] * self.targets)

    def full_cost(self) -> int:
        """Price at full value (source: Unit Costs, attack and automatic weapon)."""
        return (COSTS.per_attack * self.attack * self.targets
                + COSTS.per_extra_target * (self.targets - 1))


@dataclass(frozen=True)
class Unit:
    """A unit's cost-relevant features. Inches for speed and range."""

    quality: int = 3
    attack: int = 0
    targets: int = 1
    alt_weapons: tuple[Weapon, ...] = ()
    special_weapons: int = 0
    armor: int = 0
    armor_limited: bool = False
    speed: int = 6
    must_move: bool = False
    range: int = 0
    min_range: bool = False
    altitude: Fraction = Fraction(0)
    mobility: str = "ground"
    amphibious: bool = False
    stealth: bool = False
    transport: int = 0
    transport_restricted: bool = False
    support: tuple[str, ...] = field(default=())
    disembark: bool = False
    commander: bool = False

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        return (Weapon(self.attack, self.targets),) + self.alt_weapons


@dataclass(frozen=True)
class Term:
    """One line of the cost breakdown."""

    key: str
    label: str
    detail: str
    points: Fraction
    anchor: str


def _half(restricted: bool) -> Fraction:
    return COSTS.restricted if restricted else Fraction(1)


def _inches(value: int, per_six: int, restricted: bool) -> Fraction:
    return Fraction(per_six * value, 6) * _half(restricted)


def weapon_terms(unit: Unit) -> list[Term]:
    """Weapons: the dearest at full price, the others at half (source: Unit Costs)."""
    weapons = unit.weapons
    dearest = max(range(len(weapons)), key=lambda i: (weapons[i].full_cost(), -i))
    terms = []
    for i, weapon in enumerate(weapons):
        label = "Main weapon" if i == 0 else f"Alternative weapon {i}"
        full = weapon.full_cost()
        if weapon.targets > 1:
            how = (f"attack {weapon.attack} on each of {weapon.targets} units: "
                   f"{COSTS.per_attack} x {weapon.attack} x {weapon.targets} + "
                   f"{COSTS.per_extra_target} x {weapon.targets - 1} extra target(s) = {full}")
        else:
            how = f"attack {weapon.attack} x {COSTS.per_attack} = {full}"
        if len(weapons) > 1:
            how += ", dearest weapon: full price" if i == dearest else ", half price"
        points = Fraction(full) if i == dearest else full * COSTS.other_weapons
        terms.append(Term(f"weapon{i}", f"{label} ({weapon.notation()})", how, points,
                          "weapons"))
    return terms


def cost_terms(unit: Unit) -> list[Term]:
    """Every term of the formula, in the source's order, including zero ones."""
    base = QUALITY_BASE[unit.quality]
    terms = [Term("base", f"Quality {unit.quality} base", "minimal unit of this quality",
                  Fraction(base), "quality-base")]
    terms += weapon_terms(unit)
    if unit.special_weapons:
        terms.append(Term("special", "Special weapons (smoke and the like)",
                          f"{unit.special_weapons} x {COSTS.special_weapon}, used instead of "
                          "the main weapon", Fraction(COSTS.special_weapon * unit.special_weapons),
                          "half-value-restrictions"))
    armor_each = COSTS.per_armor * _half(unit.armor_limited)
    terms.append(Term("armor", "Armor", f"{unit.armor} x {armor_each}"
                      + (" (works against some attacks only: half)" if unit.armor_limited else ""),
                      armor_each * unit.armor, "armor-speed-and-range"))
    extra_speed = max(0, unit.speed - COSTS.free_speed)
    speed_note = f'{unit.speed}" is {extra_speed}" above the free {COSTS.free_speed}"'
    if unit.must_move:
        speed_note += " (must move half of it each turn: half)"
    terms.append(Term("speed", "Speed", speed_note,
                      _inches(extra_speed, COSTS.per_six_inches_speed, unit.must_move),
                      "armor-speed-and-range"))
    range_note = f'{unit.range}" at {COSTS.per_six_inches_range} per 6"'
    if unit.min_range:
        range_note += " (minimum range: half)"
    terms.append(Term("range", "Range", range_note,
                      _inches(unit.range, COSTS.per_six_inches_range, unit.min_range),
                      "armor-speed-and-range"))
    terms.append(Term("amphibious", "Amphibious", "yes" if unit.amphibious else "no",
                      Fraction(COSTS.amphibious if unit.amphibious else 0), "other-features"))
    terms.append(Term("stealth", "Stealth", "yes" if unit.stealth else "no",
                      Fraction(COSTS.stealth if unit.stealth else 0), "other-features"))
    each = COSTS.per_transported * _half(unit.transport_restricted)
    terms.append(Term("transport", "Transport", f"{unit.transport} unit(s) x {each}"
                      + (" (restricted: half)" if unit.transport_restricted else ""),
                      each * unit.transport, "other-features"))
    terms.append(Term("support", "Support actions",
                      (", ".join(unit.support) or "none")
                      + f" x {COSTS.per_support_action}",
                      Fraction(COSTS.per_support_action * len(unit.support)), "other-features"))
    terms.append(Term("altitude", "Altitude", altitude_note(unit.altitude),
                      altitude_cost(unit.altitude), "altitude-costs"))
    terms.append(Term("disembark", "Disembark from altitude", "yes" if unit.disembark else "no",
                      Fraction(COSTS.disembark_from_altitude if unit.disembark else 0),
                      "altitude-costs"))
    return terms


def altitude_cost(altitude: Fraction) -> Fraction:
    """+4 per altitude level, +2 for ground effect; underground counts as one level."""
    if altitude == Fraction(1, 2):
        return Fraction(COSTS.ground_effect)
    return Fraction(COSTS.per_altitude) * abs(altitude)


def altitude_note(altitude: Fraction) -> str:
    if altitude == Fraction(1, 2):
        return f"ground effect (0.5): {COSTS.ground_effect}"
    return f"{altitude_text(altitude)} x {COSTS.per_altitude}"


def altitude_text(altitude: Fraction) -> str:
    return "0.5" if altitude == Fraction(1, 2) else str(int(altitude))


@dataclass(frozen=True)
class Priced:
    """A priced unit: every term, the exact sum and the whole-point figures."""

    terms: tuple[Term, ...]
    base: int
    extra_exact: Fraction
    extra: int
    cost: int


def price(unit: Unit) -> Priced:
    """Price a unit; the extra cost is rounded up to a whole point (see Rulings)."""
    terms = tuple(cost_terms(unit))
    base = QUALITY_BASE[unit.quality]
    extra_exact = sum((t.points for t in terms if t.key != "base"), Fraction(0))
    extra = math.ceil(extra_exact)
    return Priced(terms, base, extra_exact, extra, base + extra)


def points_text(value: Fraction) -> str:
    """2, 2½, 2⅓ style: exact points for display."""
    whole, rest = divmod(value, 1)
    names = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
             Fraction(1, 6): "⅙", Fraction(5, 6): "⅚"}
    if rest == 0:
        return str(int(whole))
    if rest in names:
        return (str(int(whole)) if whole else "") + names[rest]
    return str(value)
