"""Calculator of the actions page: the odds of one action roll, offense or defence, with
advantage or disadvantage (source: 2d6 combat phases, "Outcomes", "Advantage and
disadvantage")."""

from __future__ import annotations

import random
import re
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, TextField
from rules_core.messages import count, describe
from rules_core.phases.action import outcome_distribution, resolve
from rules_core.phases.inputs import ACTIONS_PAGE, PHASE_CHOICES
from rules_core.phases.tables import (
    MEANING,
    OUTCOME_LABELS,
    OUTCOME_RANGES,
    PHASE_LABELS,
    SHORT_MEANING,
    SIDES,
    Outcome,
    Phase,
)

#: short outcome names that fit under a chart's bars
CHART_LABELS = {Outcome.FAILURE: "Failure", Outcome.PARTIAL: "Partial", Outcome.SUCCESS: "Success",
                Outcome.ULTRA: "Ultra"}


def _parse_faces(field: str, raw: Any) -> tuple[int, ...]:
    """"6 4 2", "6,4,2" or [6, 4, 2]: the faces the table rolled."""
    if isinstance(raw, str):
        parts = [p for p in re.split(r"[\s,;+]+", raw.strip()) if p]
        if not all(p.isdigit() and len(p) == 1 for p in parts):
            raise InputError(field, f"expected 2 or 3 die faces from 1 to {SIDES} such as "
                                    f"\"6 4 2\", received {describe(raw)}.")
        raw = [int(p) for p in parts]
    if not isinstance(raw, list) or not all(isinstance(f, int) and not isinstance(f, bool)
                                            and 1 <= f <= SIDES for f in raw):
        raise InputError(field, f"expected 2 or 3 die faces from 1 to {SIDES}, "
                                f"received {describe(raw)}.")
    return tuple(raw)


ODDS_FIELDS = (
    ChoiceField("phase", "Phase", default="offense", choices=PHASE_CHOICES,
                help="Offense: the players' characters attack. Defence: they try to avoid harm."),
    ChoiceField("dice", "Dice rolled", default=2,
                choices=((2, "2 dice"), (3, "3 dice: advantage on offense, disadvantage on defence")),
                help="With 3 dice the best two count on offense and the worst two on defence."),
    TextField("faces", "Faces the table rolled (optional)", optional=True, parse=_parse_faces,
              placeholder="e.g. 6 4 2",
              help="Type the dice to read off the outcome of that roll."),
)


def _odds_check(inputs: dict[str, Any]) -> None:
    faces = inputs["faces"]
    if faces is not None and len(faces) != inputs["dice"]:
        raise InputError("faces", f"{inputs['dice']} dice are rolled, received "
                                  f"{count(len(faces), 'face')}.")


def _odds_compute(inputs: dict[str, Any]) -> Result:
    phase = Phase(inputs["phase"])
    dist = outcome_distribution(phase, inputs["dice"])
    result: Result = {}
    for outcome, p in dist.items():
        result[outcome.value] = float(p)
        result[outcome.value + "_exact"] = str(p)
    result.update(to_json("distribution", {CHART_LABELS[o]: p for o, p in dist.items()}))
    result["meaning"] = {o.value: MEANING[phase][o] for o in Outcome}
    if inputs["faces"] is not None:
        res = resolve(phase, inputs["faces"])
        result["roll"] = {"faces": list(res.faces), "kept": list(res.kept), "total": res.total,
                          "outcome": res.outcome.value}
    return result


def _odds_explain(inputs: dict[str, Any], result: Result) -> str:
    phase = Phase(inputs["phase"])
    if inputs["dice"] == 2:
        how = "Roll 2d6 and add them"
    elif phase is Phase.OFFENSE:
        how = ("Roll 3d6 and keep the **best two** "
               f"({rule('advantage', ACTIONS_PAGE, 'advantage-and-disadvantage')})")
    else:
        how = ("Roll 3d6 and keep the **worst two** "
               f"({rule('disadvantage', ACTIONS_PAGE, 'advantage-and-disadvantage')})")
    anchor = "offense-outcomes" if phase is Phase.OFFENSE else "defence-outcomes"
    rows = [[OUTCOME_LABELS[o], OUTCOME_RANGES[o], SHORT_MEANING[phase][o],
             f"{percent(result[o.value])} ({result[o.value + '_exact']})"] for o in Outcome]
    text = (f"{how}. Two sixes among the kept dice are an ultra success, counted apart from "
            f"an ordinary success ({rule('reading the roll', ACTIONS_PAGE, 'reading-the-roll')}"
            f").\n\n" + table(["Outcome", "Kept total", "In this phase", "Chance"], rows)
            + f"\n\nWhat each outcome does: {rule(PHASE_LABELS[phase].lower() + ' outcomes', ACTIONS_PAGE, anchor)}.")
    if "roll" in result:
        roll = result["roll"]
        outcome = Outcome(roll["outcome"])
        text += (f"\n\nThe roll {' '.join(map(str, roll['faces']))} keeps "
                 f"{' and '.join(map(str, roll['kept']))} for a total of {roll['total']}: "
                 f"**{OUTCOME_LABELS[outcome].lower()}**. {MEANING[phase][outcome]}")
    return text


def _odds_headline(result: Result) -> list[tuple[str, str]]:
    out = [(OUTCOME_LABELS[o], percent(result[o.value])) for o in Outcome]
    if "roll" in result:
        out.insert(0, ("That roll", OUTCOME_LABELS[Outcome(result["roll"]["outcome"])]))
    return out


def _odds_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    phase = Phase(inputs["phase"])
    faces = [rng.randint(1, SIDES) for _ in range(inputs["dice"])]
    res = resolve(phase, faces)
    return {
        "dice": [{"die": "d6", "face": f} for f in faces],
        "kept": list(res.kept), "total": res.total, "outcome": res.outcome.value,
        "summary": f"{PHASE_LABELS[phase]}: {' '.join(map(str, faces))}, kept "
                   f"{'+'.join(map(str, res.kept))} = {res.total}: "
                   f"{OUTCOME_LABELS[res.outcome]} ({SHORT_MEANING[phase][res.outcome].lower()})",
    }


ACTION_ODDS = Calculator(
    name="phases.action_odds",
    title="Action roll odds",
    summary="Exact chance of failure, partial success, success and ultra success for an "
            "offense or defence action, with advantage or disadvantage.",
    fields=ODDS_FIELDS,
    check=_odds_check,
    compute=_odds_compute,
    explain=_odds_explain,
    headline=_odds_headline,
    charts=(Chart("distribution", "Outcome of one action", "Outcome"),),
    roll=_odds_roll,
    roll_label="Roll the action",
    page=ACTIONS_PAGE,
)
