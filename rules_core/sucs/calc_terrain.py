"""Calculator of the terrain page: movement over a route of mixed terrain (source: SUCS,
"Terrain Types and Effects", "Altitude", "Close Combat")."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import BoolField, ChoiceField, IntField, TextField
from rules_core.messages import describe
from rules_core.sucs.cost import points_text
from rules_core.sucs.helpers import COST_THIRD_RATE, TERRAIN_BY_NAME, leg, move
from rules_core.sucs.inputs import inches


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
    legs = [leg(t, h, inputs["kind"], inputs["amphibious"], inputs["light_forest"] == "cost")
            for t, h in inputs["route"]]
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
        cost = "-" if lg["inches_exact"] is None else inches(Fraction(lg["inches_exact"]))
        rows.append([escape(lg["terrain"]), str(lg["hexes"]), rate, cost, escape(lg["note"]) or "-"])
    text = table(["Terrain", "Hexes", "Hexes per inch of speed", "Inches of speed", "Note"], rows)
    speed = inches(Fraction(inputs["speed"]) / (3 if inputs["withdraw"] else 1))
    if result["blocked"]:
        text += "\n\nThe route crosses terrain closed to this unit: it cannot finish it."
    else:
        text += (f"\n\nThe route needs {inches(Fraction(result['total_inches_exact']))} of "
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
