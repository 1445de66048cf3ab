"""Calculators of the tech-levels page: the published unit lists with their published and
computed costs, and the tech-level adjustment (source: SUCS, "Tech level" and the
tech-level unit tables)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.dice.distribution import percent
from rules_core.explain import escape, rule, table
from rules_core.fields import ChoiceField, IntField
from rules_core.sucs.attack import AttackSpec, outcome_distribution
from rules_core.sucs.cost import PAGE, price
from rules_core.sucs.helpers import tech_adjusted
from rules_core.sucs.inputs import list_choices
from rules_core.sucs.presets import presets
from rules_core.sucs.unitfields import UNIT_FIELDS, stats_of, unit_from_clean

LISTS_PAGE = "sucs/tech-levels"


# --- the published lists ------------------------------------------------------------

def preset_json(p: Any) -> dict[str, Any]:
    stats = stats_of(p.unit)
    return {"id": p.id, "list": p.list_id, "list_title": p.list_title, "name": p.name,
            "cells": p.cells, "stats": stats, "published_cost": p.published_extra,
            "computed_cost": p.computed_extra, "reproduced": p.reproduced}


def _presets_compute(inputs: dict[str, Any]) -> Result:
    chosen = inputs["tech_level"]
    units = [preset_json(p) for p in presets() if chosen is None or p.list_id == chosen]
    return {"units": units, "count": len(units),
            "reproduced": sum(1 for u in units if u["reproduced"]),
            "not_reproduced": [u["id"] for u in units if not u["reproduced"]]}


def _presets_explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[escape(u["list_title"]), escape(u["name"]), f"+{u['published_cost']}",
             f"+{u['computed_cost']}"] for u in result["units"] if not u["reproduced"]]
    text = (f"{result['reproduced']} of {result['count']} published extra costs are "
            f"reproduced by the formula ({rule('how the lists are read', PAGE, 'reading-the-unit-lists')}).")
    if rows:
        text += ("\n\n" + table(["List", "Unit", "Published", "Computed"], rows)
                 + "\n\nThe [rulings](/rulings/#sucs-published-costs-that-do-not-add-up) "
                   "explain each difference.")
    return text


PRESETS = Calculator(
    name="sucs.presets",
    title="Published unit lists",
    summary="Every unit of the tech-level lists with its published and computed extra cost.",
    fields=(ChoiceField("tech_level", "Tech-level list", optional=True, choices=list_choices(),
                        none_label="All lists"),),
    compute=_presets_compute,
    explain=_presets_explain,
    headline=lambda r: [("Units", str(r["count"])), ("Costs reproduced", str(r["reproduced"]))],
    page=LISTS_PAGE,
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
    page=LISTS_PAGE,
)
