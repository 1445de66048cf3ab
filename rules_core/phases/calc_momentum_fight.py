"""The engagement of the momentum page: rounds until a momentum tracker fills and how each
phase's action dice run out (source: 2d6 combat phases, "Combat rounds", "Action dice
tracker", "Outcomes", "Combat momentum"; the chain is in :mod:`rules_core.phases.fight`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core import fight_result, solver
from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, IntField
from rules_core.messages import count
from rules_core.phases.fight import (
    ENDINGS,
    GOAL,
    MAX_WORK,
    WORN_DOWN,
    Fight,
    phase_endings,
)
from rules_core.phases.inputs import ACTIONS_PAGE, MOMENTUM_PAGE, ROUNDS_PAGE, TRACKER_PAGE, side_fields
from rules_core.phases.tables import (
    MAX_DAMAGE,
    MAX_HIT_POINTS,
    MAX_PARTY,
    MIN_FIGHT_POOL,
    PHASE_LABELS,
    Phase,
)
from rules_core.phases.tracker import MAX_GOAL

ANCHOR = "how-long-a-goal-takes"

GOAL_LABEL = "Momentum tracker spaces"
LIMIT_NAME = "Full-damage results your side can take"
LIMIT_LABEL = f"{LIMIT_NAME} (optional)"
CAP_LABEL = "Round cap"
PARTY_NAME = "Characters on the players' side"
HP_NAME = "Hit points of each character"
DAMAGE_LABEL = "Damage from each failed defence"
SPREAD_LABEL = "The enemy's hits land on"
FOCUS, SPREAD = "focus", "spread"
AFTER_LABEL = "Once every character standing has attacked"
END, TASKS = "end", "tasks"
#: with a damage limit, round cap x spaces x limit may not pass this (about a second of
#: exact arithmetic in CPython; without a limit the chain is tiny)
LIMITED_SIZE = 2400
#: with hit points, the momentum marks x failed defences the chain may follow: each is
#: one round walked action by action (up to about 1.1 ms at 7 dice a side, not counted
#: by the solver's cost), so at most about 0.45 s; and the solver's cost budget (moves x
#: 64-bit words of the exact masses) per round of the cap: 20,000 for each of the first
#: 20 rounds, 8,000 for each after (a round late in a long fight costs more time per
#: unit). Measured on the worst inputs the form accepts (a 20-space tracker, 7 dice a
#: side), see the figures in the commit that set them.
MAX_HP_STATES = 400
COST_PER_ROUND = 20_000
COST_PER_LATER_ROUND = 8_000
COST_ROUNDS = 20


def cost_budget(max_rounds: int) -> int:
    """The solver's ``max_cost`` for a fight with hit points at this round cap."""
    return (COST_PER_ROUND * min(max_rounds, COST_ROUNDS)
            + COST_PER_LATER_ROUND * max(0, max_rounds - COST_ROUNDS))


FIELDS = (
    IntField("goal_spaces", GOAL_LABEL, default=6, minimum=1, maximum=MAX_GOAL,
             help="Each success or ultra success, on offense or defence, marks one space."),
    *side_fields("The players' side's pool, set by the referee for every offense phase "
                 "(2 dice: one action a phase, the site's extension).",
                 "The enemy's pool, set by the referee for every defence phase.",
                 minimum=MIN_FIGHT_POOL),
    ChoiceField("first_phase", "Each round opens with", default="offense",
                choices=((Phase.OFFENSE.value, "Offense (the usual order)"),
                         (Phase.DEFENCE.value, "Defence (the players were ambushed)"))),
    IntField("damage_limit", LIMIT_LABEL, optional=True, minimum=1, maximum=20,
             help="Leave empty to count only rounds. Otherwise the fight also ends when the "
                  "players' side has failed this many defence actions."),
    IntField("party_size", f"{PARTY_NAME} (optional)", optional=True, minimum=1,
             maximum=MAX_PARTY,
             help="Each character attacks once a phase: an offense phase also ends, its dice "
                  "left lost, when every character still standing has attacked. Leave empty "
                  "for no such limit."),
    ChoiceField("after_attacks", AFTER_LABEL, default=END,
                choices=((END, "The offense phase ends; its dice left are lost"),
                         (TASKS, "The dice left go to other tasks, rolled as actions"))),
    IntField("hit_points", f"{HP_NAME} (optional)", optional=True, minimum=1,
             maximum=MAX_HIT_POINTS,
             help="With no party size, the hit points of the whole side. The fight also ends "
                  "when every character is down. Leave empty to track no hit points."),
    IntField("damage", DAMAGE_LABEL, default=1, minimum=1, maximum=MAX_DAMAGE,
             help="Hit points one failed defence costs the character who takes it (used "
                  "with hit points)."),
    ChoiceField("targeting", SPREAD_LABEL, default=FOCUS,
                choices=((FOCUS, "One character until it is down"),
                         (SPREAD, "The least hurt character standing"))),
    fight_result.round_cap_field(),
)


def hits_each(inputs: dict[str, Any]) -> int | None:
    """Failed defences that put one character (or the side) down: hit points over the
    damage of one, rounded up (None without hit points)."""
    hp = inputs["hit_points"]
    return None if hp is None else -(-hp // inputs["damage"])


def total_limit(inputs: dict[str, Any]) -> int | None:
    """Failed defences the whole side can take: the limit as given, or every character's
    hits (None: no limit)."""
    each = hits_each(inputs)
    if each is None:
        return inputs["damage_limit"]
    return each * (inputs["party_size"] or 1)


def _fight(inputs: dict[str, Any]) -> Fight:
    return Fight(inputs["offense_dice"], inputs["defence_dice"], inputs["goal_spaces"],
                 inputs["offense_extra"], inputs["defence_extra"], Phase(inputs["first_phase"]),
                 total_limit(inputs), inputs["party_size"], hits_each(inputs),
                 inputs["targeting"] == SPREAD, inputs["after_attacks"] == TASKS)


def _check(inputs: dict[str, Any]) -> None:
    if inputs["hit_points"] is not None and inputs["damage_limit"] is not None:
        raise InputError("hit_points", f"{HP_NAME}: received {inputs['hit_points']} while "
                                       f"{LIMIT_NAME} is also set ({inputs['damage_limit']}); "
                                       "the two both say when the side is worn down, so set "
                                       "only one of them.")
    if inputs["hit_points"] is None and inputs["damage"] != 1:
        raise InputError("damage", f"{DAMAGE_LABEL}: received {inputs['damage']}, which only "
                                   f"counts against hit points; set {HP_NAME} too, or leave "
                                   "the damage at 1.")
    if inputs["hit_points"] is not None:
        _check_hit_points(inputs)
        return
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


def _hits_text(inputs: dict[str, Any]) -> str:
    """How the failed defences the side can take follow from the inputs, for messages."""
    party = inputs["party_size"]
    return (f"{hits_each(inputs)} a character ({inputs['hit_points']} hit points at "
            f"{inputs['damage']} a failed defence) x {party or 1} "
            f"{'characters' if party else 'side'} = {total_limit(inputs)}")


def _check_hit_points(inputs: dict[str, Any]) -> None:
    """Refuse before any work a chain with too many states to walk in time."""
    limit = total_limit(inputs) or 0
    size = inputs["goal_spaces"] * limit
    if size > MAX_HP_STATES:
        raise InputError("hit_points", f"{HP_NAME}: received {inputs['hit_points']}; with hit "
                                       f"points set, {GOAL_LABEL} x the failed defences the "
                                       f"side can take must be at most {MAX_HP_STATES:,} for "
                                       f"an exact answer in time, received "
                                       f"{inputs['goal_spaces']} x ({_hits_text(inputs)}) = "
                                       f"{size:,}. Lower the tracker, the hit points or the "
                                       "party, or raise the damage.")


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
    return (("a", "Full damage taken"),) if total_limit(inputs) is not None else ()


def _compute(inputs: dict[str, Any]) -> Result:
    fight = _fight(inputs)
    try:
        if inputs["hit_points"] is None:
            answer = solver.solve(fight, max_rounds=inputs["max_rounds"], max_work=MAX_WORK)
        else:
            answer = solver.solve(fight, max_rounds=inputs["max_rounds"],
                                  max_work=MAX_WORK * inputs["max_rounds"],
                                  max_cost=cost_budget(inputs["max_rounds"]))
    except solver.TooLarge as err:
        if inputs["hit_points"] is not None:
            raise InputError("hit_points", f"{HP_NAME}: {err} ({_hits_text(inputs)} failed "
                                           f"defences over a {GOAL_LABEL.lower()} of "
                                           f"{inputs['goal_spaces']} and {CAP_LABEL.lower()} "
                                           f"{inputs['max_rounds']}); lower the round cap, the "
                                           "tracker, the hit points or the party, or raise the "
                                           "damage.") from None
        raise InputError("damage_limit", f"{err}; lower {CAP_LABEL}, {GOAL_LABEL} or the "
                                         "damage limit.") from err  # pragma: no cover
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
             "([ruling](/rulings/#a-fight-to-the-goal))." + _party_text(inputs, fight)
             + "\n\n" + fight_result.by_round_table(result))
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


def _party_text(inputs: dict[str, Any], fight: Fight) -> str:
    """The sentences on pools of two, the party and its hit points, when they are set."""
    text = ""
    if min(fight.offense_dice, fight.defence_dice) == MIN_FIGHT_POOL:
        text += (" A pool of two dice is one two-die action a phase, with no third die "
                 "([ruling](/rulings/#a-pool-of-two-dice)).")
    size, each, hp = fight.party_size, fight.hits_each, inputs["hit_points"]
    ruling = "([ruling](/rulings/#hit-points-and-party-size))"
    if size is not None:
        text += (f" The players' side has {count(size, 'character')}, and each attacks once a "
                 f"phase ({rule('combat rounds', ROUNDS_PAGE, 'rounds-and-phases')})"
                 + (": once every character still standing has attacked, the dice left go "
                    "to other tasks, rolled as actions like any other, so the party size "
                    "does not cut the offense short" if fight.other_tasks else
                    ": an offense phase ends, its dice left lost, once every character "
                    "still standing has attacked") + f" {ruling}.")
    if each is not None:
        who = "each character" if size is not None else "the side"
        text += (f" With {hp} hit points for {who} and {inputs['damage']} damage from each "
                 f"failed defence, {who} goes down after {count(each, 'failed defence')}")
        if size is not None:
            text += (", and the fight is lost when all are down; the enemy's hits go "
                     + ("to the least hurt character still standing, so no one falls until "
                        "everyone is one hit from it" if fight.spread else
                        "to one character until it is down, then the next")
                     + ", and a character who is down attacks no more")
        text += f" {ruling}."
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
    standing = fight.standing(taken)
    if standing is not None and fight.hits_each is not None:
        summary += f", {standing}/{fight.party_size} characters standing"
    extra = {"standing": standing} if standing is not None else {}
    return {**extra, "outcome": played.outcome, "rounds": played.rounds, "marks": marks,
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
