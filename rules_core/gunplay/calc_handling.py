"""Calculators for handling weapons: finding a hidden weapon (source: "Hiding") and a
suppressing-fire ammunition planner (source: "Suppressing Fire")."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import ChoiceField, IntField
from rules_core.gunplay.hiding import Search, found_chance, search_difficulty, weapon_found
from rules_core.gunplay.inputs import plus
from rules_core.gunplay.tables import SEARCH_EASIER_BY, SUPPRESS_PER_LANE, SUPPRESS_PER_OPEN_GROUP

PAGE = "gunplay/weapon-handling"
SUPPRESS_PAGE = "gunplay/suppressing-fire"

# --- finding a hidden weapon ------------------------------------------------------

SEARCH_FIELDS = (
    IntField("stealth", "Hider's stealth modifier", initial=4, minimum=-30, maximum=50,
             help="Everything the person hiding the weapon adds to their d10."),
    IntField("notice", "Searcher's notice modifier", initial=2, minimum=-30, maximum=50),
    ChoiceField("method", "How they look", initial=Search.HANDS_ON.value,
                choices=((Search.HANDS_ON.value, f"Searching by hand ({SEARCH_EASIER_BY} easier)"),
                         (Search.DISTANCE.value, "Judging from a distance (no help)"))),
)


def _search_compute(inputs: dict[str, Any]) -> Result:
    p = found_chance(inputs["stealth"], inputs["notice"], Search(inputs["method"]))
    return {
        "p_found": float(p),
        "p_found_exact": str(p),
        **to_json("outcome", {"found": p, "hidden": 1 - p}),
    }


def _search_explain(inputs: dict[str, Any], result: Result) -> str:
    method = Search(inputs["method"])
    easier = (f", less {SEARCH_EASIER_BY} because the searcher is patting them down"
              if method is Search.HANDS_ON else
              "; looking from a distance earns no reduction")
    return (f"The hider rolls 1d10 {plus(inputs['stealth'])} for stealth. That total"
            f"{easier}, is the difficulty of the searcher's notice check, "
            f"1d10 {plus(inputs['notice'])}; reaching it finds the weapon "
            f"({rule('hiding a weapon', PAGE, 'hiding-a-weapon')}, "
            f"[ruling](/rulings/#searching-for-a-hidden-weapon)).\n\n"
            f"Counting all 100 pairs of d10 faces, the weapon is found in "
            f"**{percent(result['p_found'])}** of them ({result['p_found_exact']}).")


def _search_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    method = Search(inputs["method"])
    hide, look = rng.randint(1, 10), rng.randint(1, 10)
    hide_total, notice_total = hide + inputs["stealth"], look + inputs["notice"]
    found = weapon_found(hide_total, notice_total, method)
    need = search_difficulty(hide_total, method)
    return {
        "dice": [{"die": "d10 (stealth)", "face": hide}, {"die": "d10 (notice)", "face": look}],
        "found": found,
        "summary": f"stealth {hide_total}, so notice needs {need}; notice {notice_total}: "
                   + ("found" if found else "stays hidden"),
    }


WEAPON_SEARCH = Calculator(
    name="gunplay.weapon_search",
    title="Finding a hidden weapon",
    summary="The chance that a search (or a look from a distance) finds a hidden weapon.",
    fields=SEARCH_FIELDS,
    compute=_search_compute,
    explain=_search_explain,
    headline=lambda r: [("Weapon found", percent(r["p_found"])),
                        ("Stays hidden", percent(1 - r["p_found"]))],
    charts=(Chart("outcome", "Result of the search", "Outcome", ordered=False),),
    roll=_search_roll,
    roll_label="Roll both d10s",
    page=PAGE,
)


# --- suppressing fire planner -----------------------------------------------------

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
