"""The difficulty calculator (source: d10 ranged combat, "Determining Difficulty")."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.dice.distribution import percent
from rules_core.explain import rule, signed, table
from rules_core.fields import ChoiceField, IntField
from rules_core.gunplay.burst import chance_to_hit
from rules_core.gunplay.calc_hits import needed_face
from rules_core.gunplay.difficulty import difficulty_terms
from rules_core.gunplay.inputs import (
    PAGE,
    band_sentence,
    choices,
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
)
