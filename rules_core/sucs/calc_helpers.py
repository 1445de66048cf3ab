"""SUCS table-side helpers: reach, movement over terrain, tech-level adjustments
(source: SUCS, "Unit Features", "Altitude", "Close Combat", "Terrain Types and
Effects", "Tech level", "Unit Costs")."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.dice.distribution import percent
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import BoolField, ChoiceField, IntField, NumberField, TextField, describe
from rules_core.sucs.attack import AttackSpec, outcome_distribution
from rules_core.sucs.cost import altitude_text, points_text, price
from rules_core.sucs.helpers import (
    COST_THIRD_RATE,
    TERRAIN_BY_NAME,
    leg,
    move,
    reach,
    tech_adjusted,
)
from rules_core.sucs.tables import ALTITUDES
from rules_core.sucs.unitfields import UNIT_FIELDS, unit_from_clean

ALT_CHOICES = tuple((altitude_text(a), f"{altitude_text(a)}: {n.lower()}")
                    for a, (n, _) in ALTITUDES.items())


def _inches(value: Fraction) -> str:
    return f'{points_text(value)}"'


# --- reach ----------------------------------------------------------------------------

def _reach_compute(inputs: dict[str, Any]) -> Result:
    r = reach(inputs["range"], inputs["min_range"], Fraction(inputs["attacker_altitude"]),
              Fraction(inputs["target_altitude"]), Fraction(inputs["distance"]).limit_denominator(100))
    return {"in_range": r.in_range, "close_combat": r.melee, "levels": r.levels,
            "counted_distance": float(r.counted), "counted_distance_exact": str(r.counted),
            "minimum": r.minimum, "cover_from_altitude": r.cover, "reasons": list(r.reasons)}


def _reach_explain(inputs: dict[str, Any], result: Result) -> str:
    units = "sucs/units"
    rows = [["Distance on the table", _inches(Fraction(result["counted_distance_exact"])
                                              - 12 * result["levels"])],
            [f"Altitude levels between them ({result['levels']} x 12\")",
             f'+{12 * result["levels"]}"'],
            ["**Counted distance**", f"**{_inches(Fraction(result['counted_distance_exact']))}**"],
            ["Range", f'{inputs["range"]}"'],
            ["Minimum range (a third, rounded up)",
             f'{result["minimum"]}"' if inputs["min_range"] else "none"]]
    text = table(["Step", "Value"], rows)
    verdict = "**In range.**" if result["in_range"] else \
        "**Cannot attack at range:** " + "; ".join(result["reasons"]) + "."
    text += (f"\n\n{verdict} A ground-effect unit counts as altitude 1 when it attacks and 0 "
             f"when it is attacked; each level between the two adds 12\" "
             f"({rule('altitude', units, 'altitude')}, "
             f"{rule('minimum range', units, 'special-conditions-in-parentheses')}).")
    if result["cover_from_altitude"]:
        text += f" The target is higher: +{result['cover_from_altitude']} cover."
    text += ("\n\nClose combat: " + ("possible (in contact, within half a level)."
                                     if result["close_combat"] else
                                     "not possible (it needs base contact, distance 0, and "
                                     "no more than half an altitude level between them).")
             + f" ({rule('close combat', 'sucs/actions', 'close-combat')})")
    return text


REACH = Calculator(
    name="sucs.reach",
    title="Range, altitude and minimum range",
    summary="Whether one unit can attack another: the distance with altitude counted, the "
            "minimum range, cover from height and close combat.",
    fields=(
        IntField("range", "Attacker's range (inches)", default=12, minimum=0, maximum=240),
        BoolField("min_range", "Minimum range (written in parentheses)", default=False),
        ChoiceField("attacker_altitude", "Attacker's altitude", default="0", choices=ALT_CHOICES),
        ChoiceField("target_altitude", "Target's altitude", default="1", choices=ALT_CHOICES),
        NumberField("distance", "Distance on the table (inches)", default=3, minimum=0,
                    maximum=480, unit="inches"),
    ),
    compute=_reach_compute,
    explain=_reach_explain,
    headline=lambda r: [("Attack at range", "yes" if r["in_range"] else "no"),
                        ("Counted distance", f'{r["counted_distance"]:g}"'),
                        ("Close combat", "yes" if r["close_combat"] else "no")],
    page="sucs/units",
)


# --- movement -------------------------------------------------------------------------

def _parse_route(name: str, raw: Any) -> list[tuple[str, int]]:
    if not isinstance(raw, str):
        raise InputError(name, f"Route: expected text such as road 4, light forest 2; "
                               f"received {describe(raw)}.")
    out = []
    for part in [p.strip() for p in re.split(r"[,;\n]", raw) if p.strip()]:
        m = re.fullmatch(r"([a-z ]+?)\s+(\d+)", " ".join(part.lower().split()))
        if not m or m.group(1) not in TERRAIN_BY_NAME:
            raise InputError(name, f"Route: could not read {describe(part)}; write a terrain "
                                   f"and a number of hexes, e.g. road 4. Terrains: "
                                   f"{', '.join(TERRAIN_BY_NAME)}.")
        hexes = int(m.group(2))
        if not 1 <= hexes <= 200:
            raise InputError(name, f"Route: {part} must cross 1 to 200 hexes; received {hexes}.")
        out.append((m.group(1), hexes))
    if not out or len(out) > 20:
        raise InputError(name, f"Route: give 1 to 20 stretches; received {len(out)}.")
    return out


ROUTE_DEFAULT = "road 4, clear 3, light forest 2"


def _move_compute(inputs: dict[str, Any]) -> Result:
    route = inputs["route"]
    if isinstance(route, str):  # the default is not parsed by validate()
        route = _parse_route("route", route)
    legs = [leg(t, h, inputs["kind"], inputs["amphibious"], inputs["light_forest"] == "cost")
            for t, h in route]
    m = move(inputs["speed"], legs, inputs["withdraw"])
    return {
        "legs": [{"terrain": lg.terrain, "hexes": lg.hexes, "note": lg.note,
                  "rate": None if lg.rate is None else str(lg.rate),
                  "inches": None if lg.inches is None else float(lg.inches),
                  "inches_exact": None if lg.inches is None else str(lg.inches)} for lg in legs],
        "speed": float(m.speed), "total_inches": None if m.total is None else float(m.total),
        "total_inches_exact": None if m.total is None else str(m.total),
        "hexes_in_one_move": float(m.hexes_reached),
        "hexes_in_one_move_exact": str(m.hexes_reached),
        "route_hexes": sum(lg.hexes for lg in legs), "moves": m.moves,
        "blocked": m.total is None,
    }


def _move_explain(inputs: dict[str, Any], result: Result) -> str:
    rows = []
    for lg in result["legs"]:
        rate = "closed" if lg["rate"] is None else f"{points_text(Fraction(lg['rate']))} per inch"
        cost = "-" if lg["inches_exact"] is None else _inches(Fraction(lg["inches_exact"]))
        rows.append([escape(lg["terrain"]), str(lg["hexes"]), rate, cost, escape(lg["note"]) or "-"])
    text = table(["Terrain", "Hexes", "Hexes per inch of speed", "Inches of speed", "Note"], rows)
    speed = _inches(Fraction(inputs["speed"]) / (3 if inputs["withdraw"] else 1))
    if result["blocked"]:
        text += "\n\nThe route crosses terrain closed to this unit: it cannot finish it."
    else:
        text += (f"\n\nThe route needs {_inches(Fraction(result['total_inches_exact']))} of "
                 f"speed; with {speed} a move that is {result['moves']} move(s).")
    text += (f" One move of {speed} covers "
             f"{points_text(Fraction(result['hexes_in_one_move_exact']))} of the "
             f"{result['route_hexes']} hexes, which on a 1-inch hex grid is the same in inches "
             f"of table ({rule('terrain', 'sucs/terrain', 'movement-and-cover')}).")
    if inputs["light_forest"] == "cost":
        text += (f" Light forest and buildings are read as cost +1/3: "
                 f"{points_text(COST_THIRD_RATE)} hex per inch "
                 f"({rule('ruling', 'rulings', 'sucs-light-forest-a-third-dearer-or-2-hexes-per-3')}).")
    return text


MOVEMENT = Calculator(
    name="sucs.movement",
    title="Movement over terrain",
    summary="How far a unit gets along a route of mixed terrain, in hexes and inches of "
            "speed, and how many moves it needs.",
    fields=(
        IntField("speed", "Speed (inches)", default=6, minimum=0, maximum=240),
        TextField("route", "Route", default=ROUTE_DEFAULT, parse=_parse_route,
                  placeholder="road 4, light forest 2",
                  help="Terrain and hexes for each stretch, in order, separated by commas."),
        ChoiceField("kind", "Kind of unit", default="foot",
                    choices=(("foot", "On foot (infantry)"), ("vehicle", "Ground vehicle"),
                             ("hover", "Ground effect (hover)"))),
        BoolField("amphibious", "Amphibious", default=False),
        BoolField("withdraw", "Withdrawing from close combat (a third of the speed)",
                  default=False),
        ChoiceField("light_forest", "Light forest and buildings", default="hexes",
                    choices=(("hexes", "2 hexes per 3 inches, as the figure says"),
                             ("cost", "cost +1/3: 3 hexes per 4 inches"))),
    ),
    compute=_move_compute,
    explain=_move_explain,
    headline=lambda r: [("Hexes in one move", f"{r['hexes_in_one_move']:g}"),
                        ("Moves for the route", "blocked" if r["blocked"] else str(r["moves"]))],
    page="sucs/terrain",
)


# --- tech level -----------------------------------------------------------------------

def _destroy(quality: int, attack: int, armor: int) -> Fraction:
    return outcome_distribution(AttackSpec(quality=quality, attack=attack, armor=armor))["destroyed"]


def _tech_compute(inputs: dict[str, Any]) -> Result:
    unit = unit_from_clean(inputs)
    better = tech_adjusted(unit, inputs["attack_bonus"], inputs["armor_bonus"])
    before, after = price(unit), price(better)
    attacking = [{"armor": arm, "before": float(_destroy(unit.quality, unit.attack, arm)),
                  "after": float(_destroy(unit.quality, better.attack, arm)),
                  "after_exact": str(_destroy(unit.quality, better.attack, arm))}
                 for arm in range(0, 5)]
    defending = [{"attack": att, "before": float(_destroy(3, att, unit.armor)),
                  "after": float(_destroy(3, att, better.armor)),
                  "after_exact": str(_destroy(3, att, better.armor))} for att in range(0, 5)]
    return {"attack": better.attack, "armor": better.armor, "cost_before": before.cost,
            "cost_after": after.cost, "extra_points": after.cost - before.cost,
            "attacking": attacking, "defending": defending}


def _tech_explain(inputs: dict[str, Any], result: Result) -> str:
    text = (f"Attack {inputs['attack']} becomes **{result['attack']}**, armor "
            f"{inputs['armor']} becomes **{result['armor']}** "
            f"({rule('tech levels', 'sucs/tech-levels', 'tech-levels')}). At the cost formula's "
            f"prices that is {result['cost_before']} → {result['cost_after']} points "
            f"(+{result['extra_points']}); the source does not say whether the bonus is paid "
            f"for, so agree it with your opponent ({rule('costs', 'sucs/costs')}).\n\n")
    text += table(["Its attack against armor", "Destroys before", "after"],
                  [[str(r["armor"]), percent(r["before"]), percent(r["after"])]
                   for r in result["attacking"]])
    text += "\n\n" + table(["A regular attack of", "destroys it before", "after"],
                           [[str(r["attack"]), percent(r["before"]), percent(r["after"])]
                            for r in result["defending"]])
    text += (f"\n\nOdds at quality {inputs['quality']} for its own attacks, reading armor in "
             f"the roll as the text does ({rule('attack roll', 'sucs/attacks', 'the-attack-roll')}).")
    return text


TECH = Calculator(
    name="sucs.tech_adjust",
    title="Tech-level adjustment",
    summary="A unit with the agreed tech-level bonus to attack and armor: new stats, what the "
            "bonus would cost, and how its odds change.",
    fields=UNIT_FIELDS + (
        IntField("attack_bonus", "Tech bonus to attack", default=1, minimum=0, maximum=3,
                 help="+1 to +3 by how far apart the tech levels are, agreed before play."),
        IntField("armor_bonus", "Tech bonus to armor", default=1, minimum=0, maximum=3),
    ),
    compute=_tech_compute,
    explain=_tech_explain,
    headline=lambda r: [("Attack", str(r["attack"])), ("Armor", str(r["armor"])),
                        ("Points at formula prices", f"{r['cost_before']} → {r['cost_after']}")],
    page="sucs/tech-levels",
)
