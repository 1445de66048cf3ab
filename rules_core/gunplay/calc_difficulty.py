"""Calculators of the difficulty page: the difficulty of a shot (source: d10 ranged
combat, "Determining Difficulty") and the chance to hit for a given modifier on 1d10
(source: "Ranged Combat")."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, HandOn, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule, signed, table
from rules_core.fields import ChoiceField, IntField
from rules_core.gunplay.burst import burst_hits, chance_to_hit, hit_distribution, total_distribution
from rules_core.gunplay.difficulty import difficulty_terms
from rules_core.gunplay.inputs import (
    BONUS,
    PAGE,
    band_sentence,
    choices,
    d10_roll,
    needed_face,
    plus,
    range_fields,
    resolve_band,
    resolve_size,
    size_fields,
    size_words,
)
from rules_core.gunplay.tables import LABELS, Movement, RangeBand, Stance

DIFFICULTY_FIELDS = size_fields() + range_fields(with_band=True) + (
    ChoiceField("target_movement", "Target movement", initial="subtle",
                choices=choices(Movement),
                help="A person standing around moves subtly; walking is slow, sprinting fast."),
    ChoiceField("shooter_movement", "Shooter movement", initial="subtle",
                choices=choices(Movement)),
    ChoiceField("stance", "Shooter's stance", initial="standing", choices=choices(Stance)),
    IntField("aim_actions", "Actions spent aiming", default=0, minimum=0, maximum=10,
             help="Each action of careful aim this round lowers the difficulty by 2."),
    IntField("environment", "Environment modifier", default=0, initial=2,
             minimum=-10, maximum=20,
             help="Darkness, wind, smoke: the GM's call (low light at dusk: +2)."),
    IntField("misc", "Other modifiers", default=0, minimum=-20, maximum=20),
    IntField("bonus", "Shooter's total modifier (optional)", optional=True, initial=5,
             minimum=-30, maximum=50,
             help="Everything the shooter adds to the d10; give it to see their chance to hit "
                  "this DC."),
)


def _check(inputs: dict[str, Any]) -> None:
    resolve_band(inputs)  # refuses a distance past the effective range, naming distance_m


def _compute(inputs: dict[str, Any]) -> Result:
    size, band = resolve_size(inputs), resolve_band(inputs)
    terms = difficulty_terms(
        size, band, Movement(inputs["target_movement"]),
        Movement(inputs["shooter_movement"]), Stance(inputs["stance"]),
        inputs["aim_actions"], inputs["environment"], inputs["misc"],
        size_label=size_words(inputs, size),
    )
    dc = sum(t.value for t in terms)
    result: Result = {
        "dc": dc,
        "band": band.value,
        "size": size.value,
        "breakdown": [
            {"label": t.label, "value": t.value, "rule": f"/{PAGE}/#{t.anchor}"} for t in terms
        ],
    }
    if inputs["bonus"] is not None:
        p = chance_to_hit(dc, inputs["bonus"])
        result["p_hit"], result["p_hit_exact"] = float(p), str(p)
    return result


def _explain(inputs: dict[str, Any], result: Result) -> str:
    lines = [band_sentence(inputs, RangeBand(result["band"]))]
    rows = [[f"[{t['label']}]({t['rule']})", signed(t["value"])]
            for t in result["breakdown"] if t["value"] or "Base" in t["label"]]
    rows.append(["**Difficulty**", f"**{result['dc']}**"])
    lines.append(table(["Term", "Change"], rows))
    lines.append(
        f"\nRoll 1d10 and add the shooter's modifiers; a total of {result['dc']} or more hits "
        f"({rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')}).")
    bonus = inputs["bonus"]
    if bonus is not None:
        face = needed_face(result["dc"], bonus)
        need = {"none": "no face of the d10 is enough",
                "any": "any face of the d10 will do"}.get(face, f"the d10 must show {face}")
        lines.append(f"\nWith a modifier of {bonus:+d}, {need}: a **{percent(result['p_hit'])}** "
                     f"chance to hit ({result['p_hit_exact']}). For a burst, take the DC to "
                     f"{rule('hit odds', 'gunplay/bursts', 'hit-odds')}.")
    return "\n".join(line for line in lines if line)


DIFFICULTY = Calculator(
    name="gunplay.difficulty",
    title="Difficulty of a shot",
    summary="The DC of a ranged attack from size, range, movement, stance, aim and conditions.",
    fields=DIFFICULTY_FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=lambda r: [("Difficulty", str(r["dc"])), ("Range band", LABELS[RangeBand(r["band"])]),
                        *([("Chance to hit", percent(r["p_hit"]))] if "p_hit" in r else [])],
    page=PAGE,
    # the DC goes to the hit calculators
    hand_on=HandOn("dc", "Use this DC to hit", (("gunplay.hit_chance", "dc"), ("gunplay.hit_odds", "dc"))),
)


# --- chance to hit for a given modifier -------------------------------------------

CHANCE_FIELDS = (
    IntField("bonus", BONUS.label, initial=5, minimum=-30, maximum=50, help=BONUS.help),
    IntField("dc", "Difficulty to check (optional)", optional=True, initial=14,
             minimum=-60, maximum=80,
             help="Leave empty to see only the table of every difficulty."),
)


def _chance_compute(inputs: dict[str, Any]) -> Result:
    bonus, dc = inputs["bonus"], inputs["dc"]
    totals = total_distribution(bonus)
    by_dc = []
    for target in range(bonus + 1, bonus + 11):
        p = 1 - hit_distribution(target, bonus)[0]
        by_dc.append({"dc": target, "p": float(p), "p_exact": str(p)})
    result: Result = {
        **to_json("total", totals),
        "by_dc": by_dc,
        "sure_hit_up_to": bonus + 1,
        "impossible_from": bonus + 11,
    }
    if dc is not None:
        p = 1 - hit_distribution(dc, bonus)[0]
        result["p_hit"], result["p_hit_exact"] = float(p), str(p)
    return result


def _chance_explain(inputs: dict[str, Any], result: Result) -> str:
    bonus, dc = inputs["bonus"], inputs["dc"]
    text = (f"The total is 1d10 {plus(bonus)}, anything from {bonus + 1} to {bonus + 10}, "
            f"each equally likely. A shot hits when the total reaches the difficulty "
            f"({rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')}), so a DC of "
            f"{result['sure_hit_up_to']} or less always hits and a DC of "
            f"{result['impossible_from']} or more never does.")
    if dc is not None:
        face = needed_face(dc, bonus)
        need = {"none": "no face of the d10 is enough", "any": "any face of the d10 will do"}
        text += (f"\n\nAgainst DC {dc} {need.get(face, f'the d10 must show {face}')}: "
                 f"**{percent(result['p_hit'])}** ({result['p_hit_exact']}).")
    rows = [[f"**{r['dc']}**" if r["dc"] == dc else str(r["dc"]), percent(r["p"]), r["p_exact"]]
            for r in result["by_dc"]]
    text += "\n\n" + table(["DC", "Chance to hit", "Exact"], rows)
    text += ("\n\nIn the chart, the *At least* view reads the same way: the bar over a total "
             "is the chance to hit a DC of that number.")
    return text


def _chance_headline(result: Result) -> list[tuple[str, str]]:
    out = [("Always hits DC", f"{result['sure_hit_up_to']} or less"),
           ("Cannot hit DC", f"{result['impossible_from']} or more")]
    if "p_hit" in result:
        out.insert(0, ("Chance to hit", percent(result["p_hit"])))
    return out


def _chance_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    out, summary = d10_roll(inputs["bonus"], rng)
    if inputs["dc"] is not None:
        out["hit"] = burst_hits(out["total"], inputs["dc"]) == 1
        summary += f" vs DC {inputs['dc']}: {'hit' if out['hit'] else 'miss'}"
    out["summary"] = summary
    return out


HIT_CHANCE = Calculator(
    name="gunplay.hit_chance",
    title="Chance to hit for a modifier",
    summary="The chance that 1d10 plus a modifier reaches each difficulty.",
    fields=CHANCE_FIELDS,
    compute=_chance_compute,
    explain=_chance_explain,
    headline=_chance_headline,
    charts=(Chart("total", "Roll total (1d10 + modifier)", "Total"),),
    roll=_chance_roll,
    roll_label="Roll the d10",
    page=PAGE,
)
