"""2d6 combat phases calculators: action odds, phase odds by threat level, the action
dice tracker (see ``calc_tracker``) and a random pick from the example tables."""

from __future__ import annotations

import random
import re
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, TextField, describe
from rules_core.messages import count
from rules_core.phases import expectations as ex
from rules_core.phases.action import outcome_distribution, resolve
from rules_core.phases.calc_engagement import ENGAGEMENT, side_fields
from rules_core.phases.calc_tracker import TRACKER, tracker_app_data
from rules_core.phases.tables import (
    EXAMPLE_TABLE_LABELS,
    EXAMPLE_TABLES,
    MAX_POOL,
    MEANING,
    MIN_POOL,
    OUTCOME_LABELS,
    OUTCOME_RANGES,
    PHASE_LABELS,
    SHORT_MEANING,
    SIDES,
    THREAT_LEVELS,
    ExampleTable,
    Outcome,
    Phase,
)

ACTIONS_PAGE = "phases/actions"
TRACKER_PAGE = "phases/tracker"
MOMENTUM_PAGE = "phases/momentum"

PHASE_CHOICES = tuple((p.value, PHASE_LABELS[p]) for p in Phase)
#: short outcome names that fit under a chart's bars
CHART_LABELS = {Outcome.FAILURE: "Failure", Outcome.PARTIAL: "Partial", Outcome.SUCCESS: "Success",
                Outcome.ULTRA: "Ultra"}


# --- action odds ------------------------------------------------------------------

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


# --- what a threat level means ------------------------------------------------------

PHASE_ODDS_FIELDS = side_fields(
    "The players' side: more dice, more actions in the offense phase.",
    "The enemy's side: more dice, more attacks in the defence phase.")


def _phase_figures(odds: ex.PhaseOdds, groups: dict[str, tuple[Outcome, ...] | None]) -> Result:
    out: Result = {}
    for key, outcomes in groups.items():
        value = odds.expected(outcomes)
        out[key] = float(value)
        out[key + "_exact"] = str(value)
    return out


def _phase_compute(inputs: dict[str, Any]) -> Result:
    off = ex.phase_odds(Phase.OFFENSE, inputs["offense_dice"], inputs["offense_extra"])
    dfn = ex.phase_odds(Phase.DEFENCE, inputs["defence_dice"], inputs["defence_extra"])
    cut_short = 1 - dfn.distribution(ex.ULTRAS)[0]
    return {
        "offense": _phase_figures(off, {"actions": None, "damage_dealt": ex.DAMAGE_DEALT,
                                        "complications": ex.COMPLICATIONS,
                                        "ultras": ex.ULTRAS, "momentum": ex.MOMENTUM}),
        "defence": {**_phase_figures(dfn, {"actions": None, "damage_taken": ex.DAMAGE_TAKEN,
                                           "complications": ex.COMPLICATIONS,
                                           "momentum": ex.MOMENTUM}),
                    "ultra_ends_phase": float(cut_short), "ultra_ends_phase_exact": str(cut_short)},
        **to_json("damage_dealt", off.distribution(ex.DAMAGE_DEALT)),
        **to_json("damage_taken", dfn.distribution(ex.DAMAGE_TAKEN)),
    }


def _phase_explain(inputs: dict[str, Any], result: Result) -> str:
    o, d = result["offense"], result["defence"]
    rows = [
        ["Actions", f"{o['actions']:.2f}", f"{d['actions']:.2f}"],
        ["Damage dealt by the players' side", f"{o['damage_dealt']:.2f}", "-"],
        ["Damage taken by the players' side", "-", f"{d['damage_taken']:.2f}"],
        ["Complications", f"{o['complications']:.2f}", f"{d['complications']:.2f}"],
        ["Momentum marks", f"{o['momentum']:.2f}", f"{d['momentum']:.2f}"],
    ]
    return (
        f"Expected values for one offense phase with {inputs['offense_dice']} dice and one "
        f"defence phase with {inputs['defence_dice']} dice, worked out exactly over every "
        f"way the phase can go ({rule('how dice are spent', TRACKER_PAGE, 'spending-dice')}, "
        f"{rule('removing dice', TRACKER_PAGE, 'removing-dice')}).\n\n"
        + table(["Per phase", "Offense", "Defence"], rows)
        + f"\n\nA damaging action counts once, whatever the damage rolled. An ultra success "
          f"on defence ends the phase early in {percent(d['ultra_ends_phase'])} of defence "
          f"phases. A lone die left over cannot be rolled and is lost "
          f"([ruling](/rulings/#a-single-die-left-over))."
    )


PHASE_ODDS = Calculator(
    name="phases.phase_odds",
    title="What a threat level means",
    summary="Exact expected actions, damage dealt and damage taken in one offense and one "
            "defence phase for given action dice.",
    fields=PHASE_ODDS_FIELDS,
    compute=_phase_compute,
    explain=_phase_explain,
    headline=lambda r: [("Actions on offense", f"{r['offense']['actions']:.2f}"),
                        ("Damage dealt", f"{r['offense']['damage_dealt']:.2f}"),
                        ("Actions on defence", f"{r['defence']['actions']:.2f}"),
                        ("Damage taken", f"{r['defence']['damage_taken']:.2f}")],
    charts=(Chart("damage_dealt", "Damaging actions in the offense phase", "Actions"),
            Chart("damage_taken", "Hits taken in the defence phase", "Hits")),
    page=TRACKER_PAGE,
)


# --- random pick from the example tables ---------------------------------------------

PICK_FIELDS = (
    ChoiceField("table", "Table", default="complications",
                choices=tuple((t.value, EXAMPLE_TABLE_LABELS[t]) for t in ExampleTable)),
    ChoiceField("phase", "Phase", default="offense", choices=PHASE_CHOICES,
                help="Some results only make sense in one phase (a free attack is a defence "
                     "ultra success)."),
)


def eligible(table_name: ExampleTable, phase: Phase) -> list[str]:
    """The entries of an example table that can apply in ``phase``."""
    return [e.text for e in EXAMPLE_TABLES[table_name] if phase in e.phases]


def pick(table_name: ExampleTable, phase: Phase, face: int) -> str:
    """The entry a die face picks: face n gives the n-th eligible entry."""
    entries = eligible(table_name, phase)
    if not 1 <= face <= len(entries):
        raise InputError("face", f"must be from 1 to {len(entries)}, received {face}.")
    return entries[face - 1]


def _pick_compute(inputs: dict[str, Any]) -> Result:
    from fractions import Fraction

    entries = eligible(ExampleTable(inputs["table"]), Phase(inputs["phase"]))
    dist = {f"{i}. {text}": Fraction(1, len(entries)) for i, text in enumerate(entries, 1)}
    return {"entries": entries, "die": f"d{len(entries)}", **to_json("chances", dist)}


def _pick_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    table_name, phase = ExampleTable(inputs["table"]), Phase(inputs["phase"])
    size = len(eligible(table_name, phase))
    face = rng.randint(1, size)
    entry = pick(table_name, phase, face)
    return {"dice": [{"die": f"d{size}", "face": face}], "entry": entry,
            "summary": f"{EXAMPLE_TABLE_LABELS[table_name]} ({phase.value}): {face}. {entry}"}


TABLE_PICK = Calculator(
    name="phases.table_pick",
    title="Pick a complication or an ultra success",
    summary="A random entry from the example complications or ultra successes.",
    fields=PICK_FIELDS,
    compute=_pick_compute,
    explain=lambda i, r: (
        f"Roll a {r['die']} and read the entry with that number "
        f"({rule('complications', MOMENTUM_PAGE, 'complications')}, "
        f"{rule('ultra successes', MOMENTUM_PAGE, 'ultra-successes')}). The referee may "
        "always invent a result instead; describe how it comes about in the fiction."),
    headline=lambda r: [("Entries", str(len(r["entries"]))), ("Die", r["die"])],
    charts=(Chart("chances", "Chance of each entry", "Entry", ordered=False),),
    roll=_pick_roll,
    roll_label="Pick one",
    page=MOMENTUM_PAGE,
)

CALCULATORS = (ACTION_ODDS, PHASE_ODDS, TRACKER, ENGAGEMENT, TABLE_PICK)


# --- rules tables rendered in the docs ------------------------------------------------

def _outcomes_table() -> dict[str, Any]:
    return {"caption": "What each outcome does",
            "header": ["Outcome", "Kept total", "Offense", "Defence"],
            "rows": [[OUTCOME_LABELS[o], OUTCOME_RANGES[o], SHORT_MEANING[Phase.OFFENSE][o],
                      SHORT_MEANING[Phase.DEFENCE][o]] for o in Outcome]}


def _odds_table() -> dict[str, Any]:
    columns = [(Phase.OFFENSE, 2), (Phase.OFFENSE, 3), (Phase.DEFENCE, 3)]
    dists = [outcome_distribution(p, n) for p, n in columns]
    return {"caption": "Chance of each outcome (exact fractions)",
            "header": ["Outcome", "2 dice", "Offense, 3 dice (best two)",
                       "Defence, 3 dice (worst two)"],
            "rows": [[OUTCOME_LABELS[o]] + [f"{percent(d[o])} ({d[o]})" for d in dists]
                     for o in Outcome]}


def _threat_table() -> dict[str, Any]:
    return {"caption": "Threat levels: action dice for one side",
            "header": ["Dice", "Threat", "For example"],
            "rows": [[str(t.dice), t.name, "; ".join(t.examples)] for t in THREAT_LEVELS]}


def _threat_odds_table() -> dict[str, Any]:
    rows = []
    for dice in range(MIN_POOL, MAX_POOL + 1):
        off = ex.phase_odds(Phase.OFFENSE, dice)
        dfn = ex.phase_odds(Phase.DEFENCE, dice)
        rows.append([str(dice), f"{float(off.expected()):.2f}",
                     f"{float(off.expected(ex.DAMAGE_DEALT)):.2f}",
                     f"{float(dfn.expected()):.2f}",
                     f"{float(dfn.expected(ex.DAMAGE_TAKEN)):.2f}"])
    return {"caption": "Expected per phase, third die only when exactly three are left",
            "header": ["Dice", "Offense actions", "Damage dealt", "Defence actions",
                       "Damage taken"],
            "rows": rows}


def _examples_table(which: ExampleTable) -> dict[str, Any]:
    entries = EXAMPLE_TABLES[which]
    return {"caption": f"Example {EXAMPLE_TABLE_LABELS[which].lower()}",
            "header": ["No.", "Result", "Phases"],
            "rows": [[str(i), e.text, " and ".join(p.value for p in e.phases)]
                     for i, e in enumerate(entries, 1)]}


TABLES = {
    "phases.outcomes": _outcomes_table,
    "phases.outcome_odds": _odds_table,
    "phases.threat_levels": _threat_table,
    "phases.threat_odds": _threat_odds_table,
    "phases.complications": lambda: _examples_table(ExampleTable.COMPLICATIONS),
    "phases.ultra_successes": lambda: _examples_table(ExampleTable.ULTRA),
}

APPS = {"phases.tracker": tracker_app_data}
