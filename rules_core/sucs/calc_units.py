"""Calculator of the units page: range, altitude and minimum range, whether one unit can
attack another (source: SUCS, "Unit Features", "Altitude", "Close Combat")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.explain import rule, table
from rules_core.fields import BoolField, ChoiceField, IntField, NumberField
from rules_core.sucs.cost import altitude_text
from rules_core.sucs.helpers import reach
from rules_core.sucs.inputs import inches
from rules_core.sucs.tables import ALTITUDE_RANGE_INCHES, ALTITUDES

ALT_CHOICES = tuple((altitude_text(a), f"{altitude_text(a)}: {n.lower()}")
                    for a, (n, _) in ALTITUDES.items())


def _reach_compute(inputs: dict[str, Any]) -> Result:
    r = reach(inputs["range"], inputs["min_range"], Fraction(inputs["attacker_altitude"]),
              Fraction(inputs["target_altitude"]), Fraction(inputs["distance"]).limit_denominator(100))
    return {"in_range": r.in_range, "close_combat": r.melee, "levels": r.levels,
            "counted_distance": float(r.counted), "counted_distance_exact": str(r.counted),
            "minimum": r.minimum, "cover_from_altitude": r.cover, "reasons": list(r.reasons)}


def _reach_explain(inputs: dict[str, Any], result: Result) -> str:
    units = "sucs/units"
    added = ALTITUDE_RANGE_INCHES * result["levels"]
    rows = [["Distance on the table", inches(Fraction(result["counted_distance_exact"]) - added)],
            [f"Altitude levels between them ({result['levels']} x {ALTITUDE_RANGE_INCHES}\")",
             f'+{added}"'],
            ["**Counted distance**", f"**{inches(Fraction(result['counted_distance_exact']))}**"],
            ["Range", f'{inputs["range"]}"'],
            ["Minimum range (a third, rounded up)",
             f'{result["minimum"]}"' if inputs["min_range"] else "none"]]
    text = table(["Step", "Value"], rows)
    verdict = "**In range.**" if result["in_range"] else \
        "**Cannot attack at range:** " + "; ".join(result["reasons"]) + "."
    text += (f"\n\n{verdict} A ground-effect unit counts as altitude 1 when it attacks and 0 "
             f"when it is attacked; each level between the two adds {ALTITUDE_RANGE_INCHES}\" "
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
