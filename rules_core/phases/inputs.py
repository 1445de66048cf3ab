"""What the 2d6 combat phases calculators share: the pages they sit on and link to, the
phase field, and each side's action dice with when it rolls a third die; and the inputs of
the momentum page's whole fight (:mod:`rules_core.phases.calc_momentum_fight`): the
fields, what they make of the party, its hit points and the enemy's damage track, the
checks across fields, each naming its field, and why a fight is too large for the exact
walk (:func:`past_exact`: it is then answered another way, never refused)."""

from __future__ import annotations

from typing import Any

from rules_core import fight_result
from rules_core.errors import InputError
from rules_core.fields import ChoiceField, Field, IntField
from rules_core.phases.expectations import EXTRA_CHOICES
from rules_core.phases.fight import ENEMY_FACTOR, LIMITED_SIZE, MAX_HP_STATES, Fight
from rules_core.phases.tables import (
    MAX_DAMAGE,
    MAX_ENEMY_TRACK,
    MAX_HIT_POINTS,
    MAX_PARTY,
    MAX_POOL,
    MIN_FIGHT_POOL,
    MIN_POOL,
    PHASE_LABELS,
    Phase,
)
from rules_core.phases.tracker import MAX_GOAL

#: the pages the calculators sit on and link to
ACTIONS_PAGE = "phases/actions"
MOMENTUM_PAGE = "phases/momentum"
ROUNDS_PAGE = "phases/rounds"
TRACKER_PAGE = "phases/tracker"

PHASE_CHOICES = tuple((p.value, PHASE_LABELS[p]) for p in Phase)


def side_fields(offense_help: str, defence_help: str,
                minimum: int = MIN_POOL) -> tuple[Field, ...]:
    """Each side's action dice and when it rolls a third die (source: "Action dice
    tracker", "Advantage and disadvantage"): the same four fields for every calculator
    that sets up both phases; only the help under the pools (and, for a whole fight, the
    smallest pool: two dice, one action) differs."""
    return (
        IntField("offense_dice", "Offense dice", default=5, minimum=minimum,
                 maximum=MAX_POOL, help=offense_help),
        IntField("defence_dice", "Defence dice", default=5, minimum=minimum,
                 maximum=MAX_POOL, help=defence_help),
        ChoiceField("offense_extra", "Players use a third die for advantage", default="auto",
                    choices=EXTRA_CHOICES),
        ChoiceField("defence_extra", "Referee uses a third die for disadvantage",
                    default="auto", choices=EXTRA_CHOICES),
    )


# ---- the momentum page's whole fight ------------------------------------------------

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
TRACK_NAME = "The enemy's damage track"
ENEMY_DAMAGE_LABEL = "Damage from each attack that deals damage"
END, TASKS = "end", "tasks"
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
    IntField("enemy_track", f"{TRACK_NAME} (optional)", optional=True, minimum=1,
             maximum=MAX_ENEMY_TRACK,
             help="The damage that puts the enemy down: each offense partial success, "
                  "success or ultra success deals the damage below, and the fight also ends "
                  "when the enemy is down. Leave empty to deal no tracked damage."),
    IntField("enemy_damage", ENEMY_DAMAGE_LABEL, default=1, minimum=1, maximum=MAX_DAMAGE,
             help="Damage one damaging offense action deals to the enemy (used with the "
                  "enemy's damage track)."),
    fight_result.round_cap_field(),
)


def hits_each(inputs: dict[str, Any]) -> int | None:
    """Failed defences that put one character (or the side) down: hit points over the
    damage of one, rounded up (None without hit points)."""
    hp = inputs["hit_points"]
    return None if hp is None else -(-hp // inputs["damage"])


def enemy_hits(inputs: dict[str, Any]) -> int | None:
    """Damaging attacks that put the enemy down: its track over the damage of one,
    rounded up (None without a track)."""
    track = inputs["enemy_track"]
    return None if track is None else -(-track // inputs["enemy_damage"])


def total_limit(inputs: dict[str, Any]) -> int | None:
    """Failed defences the whole side can take: the limit as given, or every character's
    hits (None: no limit)."""
    each = hits_each(inputs)
    if each is None:
        return inputs["damage_limit"]
    return each * (inputs["party_size"] or 1)


def fight_of(inputs: dict[str, Any]) -> Fight:
    return Fight(inputs["offense_dice"], inputs["defence_dice"], inputs["goal_spaces"],
                 inputs["offense_extra"], inputs["defence_extra"], Phase(inputs["first_phase"]),
                 total_limit(inputs), inputs["party_size"], hits_each(inputs),
                 inputs["targeting"] == SPREAD, inputs["after_attacks"] == TASKS,
                 enemy_hits(inputs))


def check(inputs: dict[str, Any]) -> None:
    if inputs["hit_points"] is not None and inputs["damage_limit"] is not None:
        raise InputError("hit_points", f"{HP_NAME}: received {inputs['hit_points']} while "
                                       f"{LIMIT_NAME} is also set ({inputs['damage_limit']}); "
                                       "the two both say when the side is worn down, so set "
                                       "only one of them.")
    if inputs["hit_points"] is None and inputs["damage"] != 1:
        raise InputError("damage", f"{DAMAGE_LABEL}: received {inputs['damage']}, which only "
                                   f"counts against hit points; set {HP_NAME} too, or leave "
                                   "the damage at 1.")
    if inputs["enemy_track"] is None and inputs["enemy_damage"] != 1:
        raise InputError("enemy_damage", f"{ENEMY_DAMAGE_LABEL}: received "
                                         f"{inputs['enemy_damage']}, which only counts against "
                                         f"the enemy's damage track; set the enemy's damage track too, or "
                                         "leave the damage at 1.")


def past_exact(inputs: dict[str, Any]) -> str:
    """Why the exact walk is not tried for this fight, in words ("" when it is): the
    chain it would follow is past :data:`~rules_core.phases.fight.MAX_HP_STATES` (with
    hit points) or :data:`~rules_core.phases.fight.LIMITED_SIZE` (with a damage limit),
    times :data:`~rules_core.phases.fight.ENEMY_FACTOR` with the enemy's track."""
    hits, limit = enemy_hits(inputs), inputs["damage_limit"]
    if inputs["hit_points"] is not None:
        size = inputs["goal_spaces"] * (total_limit(inputs) or 0)
        what = (f"{GOAL_LABEL} x the failed defences the side can take "
                f"({inputs['goal_spaces']} x {total_limit(inputs)})")
        if size > MAX_HP_STATES:
            return f"With hit points, {what} come to {size:,}, past the {MAX_HP_STATES:,}"
        if hits is not None and size * hits > MAX_HP_STATES:
            return (f"With hit points and the enemy's damage track, {what} x the {hits} "
                    f"damaging attacks that put the enemy down come to {size * hits:,}, past "
                    f"the {MAX_HP_STATES:,}")
        return ""
    rounds, goal = inputs["max_rounds"], inputs["goal_spaces"]
    if limit is not None and rounds * goal * limit > LIMITED_SIZE:
        return (f"With {LIMIT_NAME} set, {CAP_LABEL} x {GOAL_LABEL} x that limit ({rounds} x "
                f"{goal} x {limit}) come to {rounds * goal * limit:,}, past the "
                f"{LIMITED_SIZE:,}")
    if hits is not None and rounds * goal * (limit or 1) * hits > LIMITED_SIZE * ENEMY_FACTOR:
        size = rounds * goal * (limit or 1) * hits
        return (f"With the enemy's damage track, {CAP_LABEL} x {GOAL_LABEL}"
                + (" x the damage limit" if limit else "") + f" x the {hits} damaging "
                f"attacks that put the enemy down come to {size:,}, past the "
                f"{LIMITED_SIZE * ENEMY_FACTOR:,}")
    return ""


def hits_text(inputs: dict[str, Any]) -> str:
    """How the failed defences the side can take follow from the inputs, for messages."""
    party = inputs["party_size"]
    return (f"{hits_each(inputs)} a character ({inputs['hit_points']} hit points at "
            f"{inputs['damage']} a failed defence) x {party or 1} "
            f"{'characters' if party else 'side'} = {total_limit(inputs)}")
