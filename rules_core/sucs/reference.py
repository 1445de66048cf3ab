"""SUCS reference tables for the docs, generated from the core's data (source: SUCS,
"Unit Quality", "Terrain Types and Effects", "Altitude", "Unit Costs", "Tech level" and
the tech-level unit tables)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rules_core.dice.distribution import percent
from rules_core.explain import Table
from rules_core.sucs.attack import two_d6_at_least
from rules_core.sucs.cost import altitude_cost, altitude_text, points_text
from rules_core.sucs.presets import list_titles, presets
from rules_core.sucs.tables import (
    ACTIONS,
    ALTITUDES,
    COSTS,
    ERAS,
    PRINTED_PERCENT,
    QUALITY,
    QUALITY_BASE,
    QUALITY_NAMES,
    SUPPORT_BONUS,
    TERRAIN,
)


def quality_table() -> Table:
    rows = []
    for q, (tn, troops) in QUALITY.items():
        p = two_d6_at_least(tn)
        rows.append([f"{q} {QUALITY_NAMES[q].lower()}", str(tn), f"{p.numerator}/{p.denominator}",
                     percent(p, 2), PRINTED_PERCENT[q], troops, str(QUALITY_BASE[q])])
    return {"caption": "Unit quality: target number on 2d6 and its exact odds",
            "header": ["Quality", "Target number", "Exact odds", "Percent", "Source prints",
                       "Troops", "Base cost"], "rows": rows}


def terrain_table() -> Table:
    rows = [[t.name, t.move, "none given" if t.cover is None else f"+{t.cover}",
             t.notes or "-"] for t in TERRAIN]
    return {"caption": "Terrain: movement and cover", "header": ["Terrain", "Movement cost",
                                                                 "Cover", "Notes"], "rows": rows}


def altitude_table() -> Table:
    rows = [[altitude_text(a), name, examples, points_text(altitude_cost(a))]
            for a, (name, examples) in ALTITUDES.items()]
    return {"caption": "Altitude levels", "header": ["Altitude", "Level", "Typical units",
                                                     "Cost"], "rows": rows}


def actions_table() -> Table:
    rows = [[name, "yes" if twice else "no"] for name, (twice, _) in ACTIONS.items()]
    rows[3][1] = "no: it takes both actions"
    return {"caption": "The seven actions (two per activation)",
            "header": ["Action", "May be taken twice"], "rows": rows}


def _half(price: int) -> str:
    """A price with a restriction on its use (source: Unit Costs, values in parentheses)."""
    return points_text(price * COSTS.restricted)


def _share(multiplier: Fraction) -> str:
    return "half price" if multiplier == Fraction(1, 2) else f"{multiplier} of the price"


def costs_table() -> Table:
    c = COSTS
    bases = ", ".join(f"{QUALITY_BASE[q]} {QUALITY_NAMES[q].lower()}" for q in sorted(QUALITY_BASE))
    rows = [
        ["Quality base", bases],
        ["Attack", f"+{c.per_attack} per point, for each unit the weapon can hit"],
        ["Automatic fire", f"+{c.per_extra_target} per unit after the first"],
        ["Armor", f"+{c.per_armor} per point (+{_half(c.per_armor)} if it works against some "
                  "attacks only)"],
        ["Speed", f'+{c.per_six_inches_speed} per 6" above the free {c.free_speed}" '
                  f'(+{_half(c.per_six_inches_speed)} per 6" for a unit that must move)'],
        ["Range", f'+{c.per_six_inches_range} per 6" (+{_half(c.per_six_inches_range)} per 6" '
                  f"with a minimum range)"],
        ["Amphibious", f"+{c.amphibious}"],
        ["Stealth", f"+{c.stealth}"],
        ["Transport", f"+{c.per_transported} per unit carried (+{_half(c.per_transported)} if "
                      f"restricted)"],
        ["Support action", f"+{c.per_support_action} each (reorganize, +{SUPPORT_BONUS} armor, "
                           f"+{SUPPORT_BONUS} attack)"],
        ["Other weapons", f"{_share(c.other_weapons)}; the dearest weapon is paid in full"],
        ["Special weapon (smoke)", f"+{c.special_weapon} each"],
        ["Altitude", f"+{c.per_altitude} per level, +{c.ground_effect} for ground effect"],
        ["Disembark from altitude", f"+{c.disembark_from_altitude}"],
    ]
    return {"caption": "Unit cost formula", "header": ["Feature", "Points"], "rows": rows}


def eras_table() -> Table:
    counts: dict[str, int] = {}
    for p in presets():
        counts[p.list_id] = counts.get(p.list_id, 0) + 1
    rows = [[list_titles()[lid], era, examples, str(counts.get(lid, 0))]
            for lid, (era, examples) in ERAS.items()]
    return {"caption": "Tech levels", "header": ["List", "Era", "Typical equipment", "Units"],
            "rows": rows}


def units_table(list_id: str) -> Callable[[], Table]:
    def build() -> Table:
        rows, ids = [], []
        for p in presets():
            if p.list_id != list_id:
                continue
            c = p.cells
            computed = f"+{p.computed_extra}" if p.reproduced else \
                f"+{p.computed_extra} (differs)"
            rows.append([p.name, f"+{p.published_extra}", computed, c["attack"], c["armor"],
                         c["speed"], c["range"], c["transport"],
                         "yes" if c["stealth"] == "yes" else "-",
                         "reorganize" if c["support"].startswith("reorganiz") else "-"])
            ids.append(p.id)
        return {"caption": f"{list_titles()[list_id]}: extra cost above the quality base",
                "header": ["Unit", "Published", "Computed", "Attack", "Armor", "Speed",
                           "Range", "Transport", "Stealth", "Support"], "rows": rows,
                "unit_ids": ids}
    return build


TABLES: dict[str, Callable[[], Table]] = {
    "sucs.quality": quality_table,
    "sucs.terrain": terrain_table,
    "sucs.altitude": altitude_table,
    "sucs.actions": actions_table,
    "sucs.costs": costs_table,
    "sucs.tech_levels": eras_table,
    **{f"sucs.units_{lid.replace('-', '_')}": units_table(lid) for lid in ERAS},
}
