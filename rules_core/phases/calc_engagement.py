"""The engagement calculator: rounds until a momentum tracker fills, and how each phase's
action dice run out (source: 2d6 combat phases, "Combat rounds", "Action dice tracker",
"Outcomes", "Combat momentum"; the chain is in :mod:`rules_core.phases.fight`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core import fight_result, solver
from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, Field, IntField
from rules_core.messages import count
from rules_core.phases.expectations import EXTRA_CHOICES
from rules_core.phases.fight import (
    ENDINGS,
    GOAL,
    MAX_WORK,
    WORN_DOWN,
    Fight,
    phase_endings,
)
from rules_core.phases.tables import MAX_POOL, MIN_POOL, PHASE_LABELS, Phase
from rules_core.phases.tracker import MAX_GOAL

MOMENTUM_PAGE = "phases/momentum"
TRACKER_PAGE = "phases/tracker"
ACTIONS_PAGE = "phases/actions"
ROUNDS_PAGE = "phases/rounds"
ANCHOR = "how-long-a-goal-takes"

GOAL_LABEL = "Momentum tracker spaces"
LIMIT_NAME = "Full-damage results your side can take"
LIMIT_LABEL = f"{LIMIT_NAME} (optional)"
CAP_LABEL = "Round cap"
#: with a damage limit, round cap x spaces x limit may not pass this (about a second of
#: exact arithmetic in CPython; without a limit the chain is tiny)
LIMITED_SIZE = 2400

def side_fields(offense_help: str, defence_help: str) -> tuple[Field, ...]:
    """Each side's action dice and when it rolls a third die (source: "Action dice
    tracker", "Advantage and disadvantage"): the same four fields for every calculator
    that sets up both phases; only the help under the pools differs."""
    return (
        IntField("offense_dice", "Offense dice", default=5, minimum=MIN_POOL,
                 maximum=MAX_POOL, help=offense_help),
        IntField("defence_dice", "Defence dice", default=5, minimum=MIN_POOL,
                 maximum=MAX_POOL, help=defence_help),
        ChoiceField("offense_extra", "Players use a third die for advantage", default="auto",
                    choices=EXTRA_CHOICES),
        ChoiceField("defence_extra", "Referee uses a third die for disadvantage",
                    default="auto", choices=EXTRA_CHOICES),
    )


FIELDS = (
    IntField("goal_spaces", GOAL_LABEL, default=6, minimum=1, maximum=MAX_GOAL,
             help="Each success or ultra success, on offense or defence, marks one space."),
    *side_fields("The players' side's pool, set by the referee for every offense phase.",
                 "The enemy's pool, set by the referee for every defence phase."),
    ChoiceField("first_phase", "Each round opens with", default="offense",
                choices=((Phase.OFFENSE.value, "Offense (the usual order)"),
                         (Phase.DEFENCE.value, "Defence (the players were ambushed)"))),
    IntField("damage_limit", LIMIT_LABEL, optional=True, minimum=1, maximum=20,
             help="Leave empty to count only rounds. Otherwise the fight also ends when the "
                  "players' side has failed this many defence actions."),
    fight_result.round_cap_field(),
)


def _fight(inputs: dict[str, Any]) -> Fight:
    return Fight(inputs["offense_dice"], inputs["defence_dice"], inputs["goal_spaces"],
                 inputs["offense_extra"], inputs["defence_extra"], Phase(inputs["first_phase"]),
                 inputs["damage_limit"])


def _check(inputs: dict[str, Any]) -> None:
    limit = inputs["damage_limit"]
    if limit is None:
        return
    size = inputs["max_rounds"] * inputs["goal_spaces"] * limit
    if size > LIMITED_SIZE:
        raise InputError("damage_limit", f"with {LIMIT_NAME} set, {CAP_LABEL} x "
                                         f"{GOAL_LABEL} x that limit must be at most "
                                         f"{LIMITED_SIZE:,} for an exact answer; received "
                                         f"{inputs['max_rounds']} x {inputs['goal_spaces']} x "
                                         f"{limit} = {size:,}. Lower one of the three, or leave "
                                         "the limit empty.")


def _phase_summary(phase: Phase, dice: int, extra: str) -> Result:
    """How one phase's dice run out: actions, dice removed, how it ends."""
    dist = phase_endings(phase, dice, extra)
    actions: dict[int, Fraction] = {}
    endings = {name: Fraction(0) for name in ENDINGS}
    removed = Fraction(0)
    for (n, gone, ending), p in dist.items():
        actions[n] = actions.get(n, Fraction(0)) + p
        endings[ending] += p
        removed += gone * p
    if phase is Phase.OFFENSE:
        endings.pop(ENDINGS[2])  # only a defence ultra cuts a phase short
    mean = sum((n * p for n, p in actions.items()), Fraction(0))
    return {
        "dice": dice,
        "actions": {str(n): float(p) for n, p in sorted(actions.items())},
        "actions_exact": {str(n): str(p) for n, p in sorted(actions.items())},
        "expected_actions": float(mean), "expected_actions_exact": str(mean),
        "endings": {k: float(p) for k, p in endings.items()},
        "endings_exact": {k: str(p) for k, p in endings.items()},
        "expected_removed": float(removed), "expected_removed_exact": str(removed),
    }


def _sides(inputs: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return (("a", "Full damage taken"),) if inputs["damage_limit"] is not None else ()


def _compute(inputs: dict[str, Any]) -> Result:
    fight = _fight(inputs)
    try:
        answer = solver.solve(fight, max_rounds=inputs["max_rounds"], max_work=MAX_WORK)
    except solver.TooLarge as err:  # pragma: no cover - _check keeps the chain in bounds
        raise InputError("damage_limit", f"{err}; lower {CAP_LABEL}, {GOAL_LABEL} or the "
                                         "damage limit.") from err
    result = fight_result.to_result(answer, _sides(inputs))
    phases = {}
    for phase, key in ((Phase.OFFENSE, "offense"), (Phase.DEFENCE, "defence")):
        summary = _phase_summary(phase, inputs[f"{key}_dice"], inputs[f"{key}_extra"])
        phases[key] = summary
        result.update(to_json(f"actions_{key}",
                              {int(k): Fraction(v) for k, v in summary["actions_exact"].items()}))
    result["phases"] = phases
    return result


def _explain(inputs: dict[str, Any], result: Result) -> str:
    fight = _fight(inputs)
    limit = fight.damage_limit
    first = PHASE_LABELS[fight.first_phase].lower()
    second = PHASE_LABELS[fight.first_phase.other].lower()
    text = (
        f"Between rounds the fight is the number of marks on a tracker of "
        f"{count(fight.goal_spaces, 'space')}"
        + (f" and the number of full-damage results the players' side has taken (at most "
           f"{limit})" if limit is not None else "")
        + f". Each round is {_article(first)} {first} phase with {fight.pool(fight.first_phase)} dice, then a "
        f"{second} phase with {fight.pool(fight.first_phase.other)} "
        f"({rule('rounds and phases', ROUNDS_PAGE, 'rounds-and-phases')}). Within a phase "
        f"every action spends two dice, or three when exactly three are left or the side "
        f"takes the extra die ({rule('spending dice', TRACKER_PAGE, 'spending-dice')}); a "
        f"failed offense or a successful defence removes one more "
        f"({rule('removing dice', TRACKER_PAGE, 'removing-dice')}); the phase ends when "
        f"fewer than two dice are left or a defence ultra success cuts it short "
        f"({rule('when a phase ends', TRACKER_PAGE, 'when-a-phase-ends')}).\n\n"
        f"Every action is weighed over all four outcomes with their exact chances "
        f"({rule('reading the roll', ACTIONS_PAGE, 'reading-the-roll')}) and played through "
        f"the tracker's own rules. A success or ultra success on either side marks one space "
        f"({rule('combat momentum', MOMENTUM_PAGE, 'combat-momentum')}, "
        f"[ruling](/rulings/#what-marks-momentum)); the fight stops at **{GOAL.lower()}** "
        f"the moment the last space is marked, even in the middle of a phase"
    )
    if limit is not None:
        text += (f", or at **{WORN_DOWN.lower()}** the moment the side fails its {limit}"
                 f"{_ordinal(limit)} defence action (each failed defence means full damage, "
                 f"{rule('defence outcomes', ACTIONS_PAGE, 'defence-outcomes')})")
    text += (". The referee keeps both pools as set for the whole fight "
             "([ruling](/rulings/#a-fight-to-the-goal)).\n\n" + fight_result.by_round_table(result))
    rows = []
    for key in ("offense", "defence"):
        ph = result["phases"][key]
        rows.append([PHASE_LABELS[Phase(key)], str(ph["dice"]), f"{ph['expected_actions']:.2f}",
                     f"{ph['expected_removed']:.2f}",
                     *(percent(ph["endings"].get(name, 0.0)) if name in ph["endings"] else "-"
                       for name in ENDINGS)])
    text += ("\n\n**How the action dice run out** in one full phase (before the goal is "
             "reached):\n\n"
             + table(["Phase", "Dice", "Actions", "Dice removed", *ENDINGS], rows)
             + "\n\nA lone die left over cannot be rolled and is lost "
               "([ruling](/rulings/#a-single-die-left-over)).")
    return text


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fight = _fight(inputs)
    played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
    marks, taken = played.state
    summary = (f"{played.outcome} after {count(played.rounds, 'round')}: momentum "
               f"{marks}/{fight.goal_spaces}")
    if fight.damage_limit is not None:
        summary += f", full damage taken {taken}/{fight.damage_limit}"
    return {"outcome": played.outcome, "rounds": played.rounds, "marks": marks,
            "damage_taken": taken, "dice": played.dice,  # {"die": "d6", "face": f} each
            "log": played.log, "summary": summary + "."}


ENGAGEMENT = Calculator(
    name="phases.engagement",
    title="How long a goal takes",
    summary="Exact odds of the round a momentum tracker fills, with how each phase's action "
            "dice run out and, optionally, how much damage the side can take.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=fight_result.headline,
    charts=(*fight_result.charts((("a", "Full damage taken"),), loss_label="Results"),
            Chart("actions_offense", "Actions in one offense phase", "Actions"),
            Chart("actions_defence", "Actions in one defence phase", "Actions")),
    roll=_roll,
    roll_label="Play the fight",
    page=MOMENTUM_PAGE,
)
