"""Calculator of the weapon-handling page: finding a hidden weapon (source: "Hiding")."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule
from rules_core.fields import ChoiceField, IntField
from rules_core.gunplay.hiding import Search, found_chance, search_difficulty, weapon_found
from rules_core.gunplay.inputs import HANDLING_PAGE, plus
from rules_core.gunplay.tables import SEARCH_EASIER_BY

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
            f"({rule('hiding a weapon', HANDLING_PAGE, 'hiding-a-weapon')}, "
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
    page=HANDLING_PAGE,
)
