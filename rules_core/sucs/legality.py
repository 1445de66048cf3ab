"""Roster totals and legality checks (source: SUCS, "Special rules for commanders",
"Altitude", "Unit Features", "Unit Costs", "Tech level").

Each warning says what to change. ``illegal`` breaks a rule, ``over_limit`` breaks the
points limit, ``advice`` flags points paid for nothing or a fragile army.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules_core.sucs.cost import Unit, price
from rules_core.sucs.roster import Warning
from rules_core.sucs.unitfields import collect_problems, unit_from_clean

MIN_COMMANDER_RANGE = 6
ALLOWED_ALTITUDES: dict[str, tuple[Fraction, ...]] = {
    "ground": (Fraction(0),),
    "water": (Fraction(0), Fraction(-1)),
    "hover": (Fraction(1, 2),),
    "air": tuple(Fraction(a) for a in range(1, 6)),
    "subterranean": (Fraction(-1),),
}
MOBILITY_NAMES = {"ground": "ground unit", "water": "water craft", "hover": "ground-effect unit",
                  "air": "flying unit", "subterranean": "underground unit"}


def _alt(a: Fraction) -> str:
    return "0.5" if a == Fraction(1, 2) else str(int(a))


def unit_warnings(index: int | None, name: str, unit: Unit,
                  label: str | None = None) -> list[Warning]:
    """Rules one unit breaks on its own, and points it pays for nothing. ``label`` is how
    the sentences name the unit (the quoted name by default)."""
    out: list[Warning] = []
    label = label or f"“{name}”"
    allowed = ALLOWED_ALTITUDES[unit.mobility]
    if unit.altitude not in allowed:
        kinds = " or ".join(_alt(a) for a in allowed)
        out.append(Warning("illegal", index,
                           f"{label} is a {MOBILITY_NAMES[unit.mobility]} at altitude "
                           f"{_alt(unit.altitude)}: set its altitude to {kinds}, or change "
                           "the kind of unit."))
    if unit.commander:
        if "reorganize" not in unit.support:
            out.append(Warning("illegal", index,
                               f"{label} is a commander without the reorganize support "
                               "action: tick Support: reorganize (+2 points)."))
        if unit.range < MIN_COMMANDER_RANGE:
            out.append(Warning("illegal", index,
                               f"{label} is a commander with a range of {unit.range}\": raise "
                               f"its range to at least {MIN_COMMANDER_RANGE}\"."))
    if unit.must_move and unit.speed == 0:
        out.append(Warning("illegal", index, f"{label} must move every turn but has speed 0: "
                                             "give it a speed or untick the restriction."))
    for flag, value, what in (
            (unit.min_range, unit.range, "minimum range but a range of 0"),
            (unit.transport_restricted, unit.transport, "restricted transport but carries nothing"),
            (unit.armor_limited, unit.armor, "limited armor but an armor of 0")):
        if flag and value == 0:
            out.append(Warning("advice", index, f"{label} has {what}: untick it."))
    if unit.amphibious and unit.mobility in ("hover", "air", "water"):
        out.append(Warning("advice", index,
                           f"{label} pays 1 point for amphibious, which a "
                           f"{MOBILITY_NAMES[unit.mobility]} does not need: untick it."))
    return out


def roster_warnings(roster: dict[str, Any], units: list[Unit], total: int) -> list[Warning]:
    """Whole-army checks: commanders, points limit, paratroops, tech levels."""
    out: list[Warning] = []
    entries = roster["units"]
    if not entries:
        out.append(Warning("advice", None, "The roster is empty: add units from a tech-level "
                                           "list or build your own."))
        return out
    commanders = [(e, u) for e, u in zip(entries, units) if u.commander]
    good = [e for e, u in commanders
            if "reorganize" in u.support and u.range >= MIN_COMMANDER_RANGE]
    if not commanders:
        out.append(Warning("illegal", None,
                           "The army has no commander: add one (tick Commander on a unit with "
                           "the reorganize support action and a range of at least 6\")."))
    elif good and sum(e["count"] for e in good) == 1:
        out.append(Warning("advice", None,
                           "Only one commander: if it is destroyed every unit acts once per "
                           "turn instead of twice; consider a second."))
    limit = roster["points_limit"]
    if limit and total > limit:
        out.append(Warning("over_limit", None,
                           f"{total} points is {total - limit} over the limit of {limit}: "
                           "remove units, lower counts or qualities, or raise the limit."))
    jumpers = [e["name"] for e, u in zip(entries, units) if u.disembark]
    carriers = [u for u in units if u.mobility == "air" and u.transport > 0]
    if jumpers and not carriers:
        out.append(Warning("advice", None,
                           f"{', '.join(jumpers)} can disembark from altitude but no flying "
                           "transport is in the army: add one or untick the option."))
    eras = sorted({e["preset"].split("/")[0] for e in entries if e.get("preset")})
    if len(eras) > 1:
        out.append(Warning("advice", None,
                           f"Units come from several tech-level lists ({', '.join(eras)}): "
                           "agree an attack and armor adjustment of +1 to +3 with your "
                           "opponent, or pick from one list."))
    return out


def check(roster: dict[str, Any]) -> dict[str, Any]:
    """Totals and warnings for a normalized roster."""
    lines, units, warnings = [], [], []
    total = 0
    for i, entry in enumerate(roster["units"]):
        clean, _ = collect_problems(entry["stats"], f"units.{i}.stats")
        assert clean is not None  # the roster was normalized
        unit = unit_from_clean(clean)
        priced = price(unit)
        units.append(unit)
        subtotal = priced.cost * entry["count"]
        total += subtotal
        lines.append({"index": i, "name": entry["name"], "count": entry["count"],
                      "cost": priced.cost, "extra_cost": priced.extra, "subtotal": subtotal})
        warnings += unit_warnings(i, entry["name"], unit)
    warnings += roster_warnings(roster, units, total)
    limit = roster["points_limit"]
    return {
        "name": roster["name"],
        "points_limit": limit,
        "total": total,
        "remaining": limit - total if limit else None,
        "over_limit": bool(limit) and total > limit,
        "legal": not any(w.severity in ("illegal", "over_limit") for w in warnings),
        "units": lines,
        "warnings": [w.to_json() for w in warnings],
        "roster": roster,
    }
