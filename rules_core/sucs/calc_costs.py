"""Calculator of the costs page: the unit cost builder (source: SUCS, "Unit Costs")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.explain import escape, rule, table
from rules_core.sucs.cost import PAGE, points_text, price
from rules_core.sucs.legality import unit_warnings
from rules_core.sucs.unitfields import UNIT_FIELDS, stats_of, unit_from_clean


def speed_notation(stats: dict[str, Any]) -> str:
    """The lists' notation for speed and altitude: 12", (30")-1, 18"-1."""
    text = f'{stats["speed"]}"'
    if stats["must_move"]:
        text = f"({text})"
    if stats["altitude"] != "0":
        text += f"-{stats['altitude']}" if not stats["altitude"].startswith("-") \
            else f" at {stats['altitude']}"
    return text


def weapons_notation(stats: dict[str, Any]) -> str:
    main = ",".join([str(stats["attack"])] * stats["targets"])
    return main + (f" or {stats['alt_weapons']}" if stats["alt_weapons"] else "")


def _cost_compute(inputs: dict[str, Any]) -> Result:
    unit = unit_from_clean(inputs)
    priced = price(unit)
    stats = stats_of(unit)
    problems = unit_warnings(None, "", unit, label="This unit")
    return {
        "warnings": [w.message for w in problems if w.severity == "illegal"],
        "advice": [w.message for w in problems if w.severity != "illegal"],
        "cost": priced.cost,
        "extra_cost": priced.extra,
        "base": priced.base,
        "extra_exact": str(priced.extra_exact),
        "rounded": priced.extra != priced.extra_exact,
        "notation": {"attack": weapons_notation(stats), "speed": speed_notation(stats),
                     "range": (f'({stats["range"]}")' if stats["min_range"] else
                               f'{stats["range"]}"' if stats["range"] else "0")},
        "breakdown": [
            {"key": t.key, "label": t.label, "detail": t.detail, "points": float(t.points),
             "points_exact": str(t.points), "points_text": points_text(t.points),
             "rule": f"/{PAGE}/#{t.anchor}"}
            for t in priced.terms
        ],
        "stats": stats,
    }


def _cost_explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[f"[{escape(t['label'])}]({t['rule']})", escape(t["detail"]), t["points_text"]]
            for t in result["breakdown"] if t["points"] or t["key"] in ("base", "weapon0")]
    rows.append(["**Total**", "", f"**{result['cost']}**"])
    text = ""
    if result["warnings"]:
        text += ("**Not a legal unit (priced anyway)** "
                 f"({rule('altitude', 'sucs/units', 'altitude')}, "
                 f"{rule('special conditions', 'sucs/units', 'special-conditions-in-parentheses')}, "
                 f"{rule('commanders', 'sucs/units', 'commanders')}):\n\n"
                 + "\n".join(f"- {escape(w)}" for w in result["warnings"]) + "\n\n")
    if result["advice"]:
        text += "**Worth a look:** " + " ".join(escape(a) for a in result["advice"]) + "\n\n"
    text += table(["Term", "Working", "Points"], rows)
    zero = [t["label"] for t in result["breakdown"] if not t["points"]
            and t["key"] not in ("base", "weapon0")]
    if zero:
        text += "\n\nNothing paid for: " + ", ".join(z.lower() for z in zero) + "."
    if result["rounded"]:
        text += (f"\n\nThe extra cost comes to {points_text_of(result['extra_exact'])} and is "
                 f"rounded up to {result['extra_cost']} "
                 f"({rule('fractions of a point', PAGE, 'fractions-of-a-point')}).")
    text += (f"\n\nIn the lists' notation: attack {result['notation']['attack']}, speed "
             f"{result['notation']['speed']}, range {result['notation']['range']}; "
             f"extra cost +{result['extra_cost']} above the quality base of {result['base']} "
             f"({rule('how the lists are written', PAGE, 'reading-the-unit-lists')}).")
    return text


def points_text_of(exact: str) -> str:
    return points_text(Fraction(exact))


UNIT_COST = Calculator(
    name="sucs.unit_cost",
    title="Unit cost builder",
    summary="The points cost of any unit, term by term, from quality, weapons, armor, speed, "
            "range and every other feature.",
    fields=UNIT_FIELDS,
    compute=_cost_compute,
    explain=_cost_explain,
    headline=lambda r: [("Cost", str(r["cost"])), ("Extra cost", f"+{r['extra_cost']}"),
                        ("Quality base", str(r["base"]))]
    + ([("Legal", f"no: {len(r['warnings'])} problem{'s' * (len(r['warnings']) != 1)}")]
       if r["warnings"] else []),
    page=PAGE,
    adds_to_roster=True,
)
