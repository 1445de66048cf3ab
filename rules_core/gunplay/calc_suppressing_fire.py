"""Calculator of the suppressing-fire page: the ammunition planner (source: "Suppressing
Fire")."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import IntField
from rules_core.gunplay.tables import SUPPRESS_PER_LANE, SUPPRESS_PER_OPEN_GROUP

SUPPRESS_PAGE = "gunplay/suppressing-fire"


SUPPRESS_FIELDS = (
    IntField("lanes", "Narrow lanes to cover", initial=1, minimum=0, maximum=50,
             help="Corridors, streets, alleys: one bullet per action each."),
    IntField("open_groups", "Groups advancing over open ground", default=0, minimum=0,
             maximum=50, help="Each needs a short burst of 3 to 5 bullets per action."),
    IntField("actions", "Actions to keep them down", initial=4, minimum=1, maximum=200,
             help="Count every action that passes: yours, your allies' and the enemy's."),
    IntField("magazine", "Rounds loaded (optional)", optional=True, initial=30,
             minimum=1, maximum=1000),
)


def _suppress_check(inputs: dict[str, Any]) -> None:
    if inputs["lanes"] == 0 and inputs["open_groups"] == 0:
        raise InputError("lanes", "there is nothing to suppress: give at least one narrow "
                                  "lane or one group in the open (received 0 of each).")


def _suppress_compute(inputs: dict[str, Any]) -> Result:
    low_burst, high_burst = SUPPRESS_PER_OPEN_GROUP
    per_action = [inputs["lanes"] * SUPPRESS_PER_LANE + inputs["open_groups"] * low_burst,
                  inputs["lanes"] * SUPPRESS_PER_LANE + inputs["open_groups"] * high_burst]
    result: Result = {"per_action": per_action,
                      "total": [n * inputs["actions"] for n in per_action]}
    if inputs["magazine"] is not None:
        lasts = [min(inputs["actions"], inputs["magazine"] // n) for n in per_action]
        result["actions_covered"] = lasts  # at the low rate, at the high rate
        result["runs_dry"] = lasts[1] < inputs["actions"]
    return result


def _span(pair: list[int]) -> str:
    return str(pair[0]) if pair[0] == pair[1] else f"{pair[0]} to {pair[1]}"


def _suppress_explain(inputs: dict[str, Any], result: Result) -> str:
    low, high = SUPPRESS_PER_OPEN_GROUP
    text = (f"Rule of thumb ({rule('suppressing fire', SUPPRESS_PAGE, 'how-many-bullets')}): "
            f"{inputs['lanes']} lane(s) x {SUPPRESS_PER_LANE} + {inputs['open_groups']} open "
            f"group(s) x {low} to {high} = **{_span(result['per_action'])}** bullets per "
            f"action, so **{_span(result['total'])}** over {inputs['actions']} action(s). "
            "The GM has the final word on the count.")
    if "actions_covered" in result:
        covered = result["actions_covered"]
        text += (f"\n\n{inputs['magazine']} rounds last "
                 f"{_span([covered[1], covered[0]])} of the {inputs['actions']} action(s). ")
        text += ("When they run out, the suppression ends: reloading waits for your own turn."
                 if result["runs_dry"] else "That is enough for the whole stretch.")
    return text


def _suppress_headline(result: Result) -> list[tuple[str, str]]:
    out = [("Bullets per action", _span(result["per_action"])),
           ("Bullets in all", _span(result["total"]))]
    if "actions_covered" in result:
        out.append(("Actions the rounds cover", _span(result["actions_covered"][::-1])))
    return out


SUPPRESSION = Calculator(
    name="gunplay.suppression",
    title="Suppressing fire: ammunition",
    summary="Bullets needed to keep lanes and open groups suppressed, by the rule of thumb.",
    fields=SUPPRESS_FIELDS,
    check=_suppress_check,
    compute=_suppress_compute,
    explain=_suppress_explain,
    headline=_suppress_headline,
    page=SUPPRESS_PAGE,
)
