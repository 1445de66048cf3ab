"""The engagement of the momentum page: rounds until a momentum tracker fills and how each
phase's action dice run out (source: 2d6 combat phases, "Combat rounds", "Action dice
tracker", "Outcomes", "Combat momentum"; the chain is in :mod:`rules_core.phases.fight`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.explain import rule, table
from rules_core.messages import count
from rules_core.phases import fight as phase_fight
from rules_core.phases.fight import (
    ENDINGS,
    ENEMY_DOWN,
    GOAL,
    WORN_DOWN,
    Fight,
    phase_endings,
)
from rules_core.phases.inputs import (
    ACTIONS_PAGE,
    FIELDS,
    MOMENTUM_PAGE,
    ROUNDS_PAGE,
    TRACKER_PAGE,
    check,
    enemy_hits,
    fight_of,
    past_exact,
    total_limit,
)
from rules_core.phases.tables import MIN_FIGHT_POOL, PHASE_LABELS, Phase

ANCHOR = "how-long-a-goal-takes"


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


SIDES = (("a", "Full damage taken"), ("b", "Damaging attacks on the enemy"))


def _sides(inputs: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(side for side, on in zip(SIDES, (total_limit(inputs) is not None,
                                                  enemy_hits(inputs) is not None)) if on)


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    return phase_fight.cascade(fight_of(inputs), inputs["max_rounds"], past_exact(inputs))


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    result = fight_result.refined_result(refined, _sides(inputs))
    if result["method"] == "simulation":
        result["simulated_because"] = (f"{refined.why_not_exact} For exact odds, lower the "
                                       "round cap, the tracker, the hit points, the party or "
                                       "the enemy's track, or raise the damage.")
    phases = {}
    for phase, key in ((Phase.OFFENSE, "offense"), (Phase.DEFENCE, "defence")):
        summary = _phase_summary(phase, inputs[f"{key}_dice"], inputs[f"{key}_extra"])
        phases[key] = summary
        result.update(to_json(f"actions_{key}",
                              {int(k): Fraction(v) for k, v in summary["actions_exact"].items()}))
    result["phases"] = phases
    return result


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def _explain(inputs: dict[str, Any], result: Result) -> str:
    fight = fight_of(inputs)
    limit = fight.damage_limit
    first = PHASE_LABELS[fight.first_phase].lower()
    second = PHASE_LABELS[fight.first_phase.other].lower()
    text = (
        "Between rounds the fight is "
        + _and([f"the number of marks on a tracker of {count(fight.goal_spaces, 'space')}"]
               + ([f"the number of full-damage results the players' side has taken (at most "
                   f"{limit})"] if limit is not None else [])
               + ([f"the damaging attacks the enemy has taken (at most {fight.enemy_hits})"]
                  if fight.enemy_hits is not None else []))
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
    hits = fight.enemy_hits
    if hits is not None:
        text += (f", or at **{ENEMY_DOWN.lower()}** the moment the players' side lands its "
                 f"{hits}{_ordinal(hits)} damaging attack: every offense partial success, "
                 f"success or ultra success deals {inputs['enemy_damage']} damage "
                 f"({rule('offense outcomes', ACTIONS_PAGE, 'offense-outcomes')}) to the "
                 f"enemy's track of {inputs['enemy_track']} "
                 f"([ruling](/rulings/#damage-to-the-enemy)); a success that also fills the "
                 f"tracker counts as the goal reached")
    text += (". The referee keeps both pools as set for the whole fight "
             "([ruling](/rulings/#a-fight-to-the-goal))." + _party_text(inputs, fight)
             + "".join(f"\n\n{note}" for note in [fight_result.method_note(result)] if note)
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


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fight = fight_of(inputs)
    played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
    marks, taken, dealt = played.state
    summary = (f"{played.outcome} after {count(played.rounds, 'round')}: momentum "
               f"{marks}/{fight.goal_spaces}")
    if fight.damage_limit is not None:
        summary += f", full damage taken {taken}/{fight.damage_limit}"
    if fight.enemy_hits is not None:
        summary += f", damaging attacks on the enemy {dealt}/{fight.enemy_hits}"
    standing = fight.standing(taken)
    if standing is not None and fight.hits_each is not None:
        summary += f", {standing}/{fight.party_size} characters standing"
    extra = {"standing": standing} if standing is not None else {}
    return {**extra, "outcome": played.outcome, "rounds": played.rounds, "marks": marks,
            "damage_taken": taken, "damage_dealt": dealt, "dice": played.dice,  # {"die": "d6", "face": f} each
            "log": played.log, "summary": summary + "."}


ENGAGEMENT = Calculator(
    name="phases.engagement",
    title="How long a goal takes",
    summary="Exact odds of the round a momentum tracker fills, with how each phase's action "
            "dice run out and, optionally, how much damage each side can take.",
    fields=FIELDS,
    check=check,
    compute=_compute,
    sharpen=ANSWERS,
    explain=_explain,
    headline=fight_result.headline,
    charts=(*fight_result.charts(SIDES, loss_label="Results"),
            Chart("actions_offense", "Actions in one offense phase", "Actions"),
            Chart("actions_defence", "Actions in one defence phase", "Actions")),
    roll=_roll,
    roll_label="Play the fight",
    page=MOMENTUM_PAGE,
    hand_on=hands_on_to("phases.balance"),
)
