"""The action dice tracker: full phases with every special case, refused events leaving
the state unchanged, the JSON round trip and the ``phases.tracker`` API."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import api
from rules_core.errors import InputError
from rules_core.phases.tables import Outcome, Phase
from rules_core.phases.tracker import (
    Action,
    Adjust,
    EndPhase,
    SetGoal,
    SetPools,
    Start,
    TrackerState,
    advance,
    dice_for_action,
    next_state,
    roll_action,
)
from rules_core.phases.tracker_json import event_from_json, state_from_json, state_to_json

OFF, DEF = Phase.OFFENSE, Phase.DEFENCE


def fight(offense: int, defence: int, first: Phase = OFF, goal: int = 0) -> TrackerState:
    return next_state(None, Start(offense, defence, first, goal))


def act(state: TrackerState, *faces: int, extra: bool = False):
    return advance(state, Action(tuple(faces), extra))


def test_start() -> None:
    s = fight(5, 4)
    assert (s.round, s.phase, s.dice_left, s.actions) == (1, OFF, 5, 0)
    ambush = fight(5, 4, first=DEF)
    assert (ambush.phase, ambush.dice_left) == (DEF, 4)


def test_worked_example_round_from_the_tracker_page() -> None:
    """docs/phases/tracker.md, "A full round, worked through"."""
    s = fight(6, 5)
    # Offense: Rook fails with 2 3; two dice spent and one removed: 3 left.
    step = act(s, 2, 3)
    assert step.report.outcome is Outcome.FAILURE and step.report.die_removed
    assert step.state.dice_left == 3
    # Vess: exactly three left, so the third die is automatic: 6 4 1 keeps 6+4 = 10.
    assert dice_for_action(step.state, extra_die=False) == 3
    step = act(step.state, 6, 4, 1)
    assert step.report.extra_die_automatic and step.report.outcome is Outcome.SUCCESS
    assert step.report.phase_ended
    s = step.state
    assert (s.round, s.phase, s.dice_left) == (1, DEF, 5)
    # Defence: the referee spends a third die for disadvantage; 5 4 2 keeps 2+4 = 6.
    step = act(s, 5, 4, 2, extra=True)
    assert step.report.kept == (2, 4) and step.report.outcome is Outcome.FAILURE
    assert step.state.dice_left == 2
    # Vess defends with the last two dice: 5 5 = 10, a success, but no die is left to remove.
    step = act(step.state, 5, 5)
    assert step.report.outcome is Outcome.SUCCESS and not step.report.die_removed
    assert "No die left to remove" in step.report.text
    assert (step.state.round, step.state.phase, step.state.dice_left) == (2, OFF, 6)


def test_worked_example_defence_ultra() -> None:
    """docs/phases/tracker.md: an ultra success on defence switches to offense at once."""
    s = advance(fight(5, 7), EndPhase()).state
    assert (s.phase, s.dice_left) == (DEF, 7)
    step = act(s, 6, 6)
    assert step.report.outcome is Outcome.ULTRA and step.report.phase_ended
    assert (step.state.round, step.state.phase, step.state.dice_left) == (2, OFF, 5)
    assert "Ultra success on defence" in step.report.text


def test_ultra_on_offense_does_not_end_the_phase() -> None:
    step = act(fight(7, 3), 6, 6)
    assert step.report.outcome is Outcome.ULTRA and not step.report.phase_ended
    assert step.state.dice_left == 5


def test_failed_offense_with_advantage_removes_one_more_die() -> None:
    # 7 dice, advantage spends 3 (4 left), the failure removes 1: 3 left.
    step = act(fight(7, 5), 1, 2, 3, extra=True)
    assert step.report.dice_spent == 3 and step.report.die_removed
    assert step.state.dice_left == 3


def test_successful_defence_removes_a_defence_die() -> None:
    s = fight(5, 7, first=DEF)
    step = act(s, 5, 5)
    assert step.report.die_removed and step.state.dice_left == 4


def test_a_lone_die_ends_the_phase() -> None:
    """Running out mid-phase: 4 dice, a failure leaves 4 - 2 - 1 = 1, which cannot roll."""
    step = act(fight(4, 5), 1, 1)
    assert step.report.phase_ended and step.state.phase is DEF
    assert "cannot make an action roll" in step.report.text
    # choosing advantage with 4 left spends 3 and the fourth is lost too
    step = act(fight(4, 5), 6, 5, 4, extra=True)
    assert step.report.phase_ended and step.state.phase is DEF


def test_removal_with_no_dice_left() -> None:
    step = act(fight(3, 5), 1, 1, 1)  # all three spent (automatic), then a failure
    assert step.report.dice_spent == 3 and not step.report.die_removed
    assert step.state.phase is DEF


def test_extra_die_refused_when_only_two_are_left() -> None:
    s = act(fight(4, 5), 4, 4).state  # partial: 2 left
    assert s.dice_left == 2
    with pytest.raises(InputError) as err:
        act(s, 6, 6, 6, extra=True)
    assert err.value.field == "event.extra_die" and "only 2 dice" in err.value.message


@pytest.mark.parametrize("faces,field", [((6, 6, 6), "event.faces"), ((6,), "event.faces")])
def test_wrong_number_of_faces_refused(faces: tuple, field: str) -> None:
    s = fight(5, 5)
    with pytest.raises(InputError) as err:
        advance(s, Action(faces))
    assert err.value.field.startswith("event")


def test_three_left_needs_three_faces() -> None:
    s = fight(3, 3)
    with pytest.raises(InputError) as err:
        act(s, 6, 6)
    assert "third is used automatically" in err.value.message


def test_rounds_count_from_the_first_phase() -> None:
    s = fight(3, 3, first=DEF)
    s = act(s, 1, 1, 1).state  # defence failure, dice spent: offense, same round
    assert (s.round, s.phase) == (1, OFF)
    s = act(s, 4, 4, 4).state
    assert (s.round, s.phase) == (2, DEF)


def test_momentum_marks_successes_on_both_sides_and_stops_when_full() -> None:
    s = fight(7, 7, goal=2)
    s = act(s, 4, 4).state  # partial: no mark
    assert s.goal_marked == 0
    s = act(s, 6, 5).state  # success: mark
    step = act(s, 6, 6, 1)  # three left: ultra, mark
    assert step.report.goal_marked and step.state.goal_marked == 2
    s = act(step.state, 6, 5).state  # defence success, tracker already full
    assert s.goal_marked == 2
    s = advance(s, SetGoal(5, 1)).state
    assert (s.goal_spaces, s.goal_marked) == (5, 1)


def test_set_pools_applies_now_only_before_anyone_acts() -> None:
    s = advance(fight(5, 5), SetPools(7, 3)).state
    assert s.dice_left == 7
    s = act(s, 4, 4).state
    s = advance(s, SetPools(4, 6)).state
    assert s.dice_left == 5 and s.offense_dice == 4
    s = advance(s, EndPhase()).state
    assert (s.phase, s.dice_left) == (DEF, 6)


def test_adjust_adds_and_removes_dice() -> None:
    s = advance(fight(5, 5), Adjust(1)).state
    assert s.dice_left == 6
    step = advance(s, Adjust(-5))
    assert step.report.phase_ended and step.state.phase is DEF
    with pytest.raises(InputError):
        advance(s, Adjust(0))
    with pytest.raises(InputError):
        advance(s, Adjust(-7))


def test_events_need_a_fight() -> None:
    with pytest.raises(InputError) as err:
        advance(None, Action((6, 6)))
    assert err.value.field == "state"


BAD_EVENTS = [
    ({"type": "action", "faces": [6, 6, 6]}, "event.faces"),
    ({"type": "action", "faces": [6]}, "event.faces"),
    ({"type": "action", "faces": [0, 6]}, "event.faces.1"),  # the 1st die
    ({"type": "action", "faces": [6, 2], "extra_die": "yes"}, "event.extra_die"),
    ({"type": "action", "faces": [6, 2], "note": "x" * 81}, "event.note"),
    ({"type": "action", "faces": [6, 2], "dice": 2}, "event.dice"),
    ({"type": "jump"}, "event.type"),
    ({}, "event.type"),
    ({"type": "start", "offense_dice": 8, "defence_dice": 5}, "event.offense_dice"),
    ({"type": "start", "offense_dice": 5}, "event.defence_dice"),
    ({"type": "set_pools", "offense_dice": 2, "defence_dice": 5}, "event.offense_dice"),
    ({"type": "adjust", "change": 0}, "event.change"),
    ({"type": "set_goal", "spaces": 3, "marked": 4}, "event.spaces"),
    ("not json", "event"),
    ([1, 2], "event"),
]


@pytest.mark.parametrize("event,field", BAD_EVENTS)
def test_invalid_events_are_refused_and_the_state_is_unchanged(event: object, field: str) -> None:
    state = state_to_json(act(fight(4, 5), 4, 4).state)  # two dice left
    before = json.dumps(state)
    reply = api.run("phases.tracker", {"state": state, "event": event})
    assert not reply["ok"] and reply["error"]["field"] == field, reply
    assert reply["error"]["message"]
    assert json.dumps(state) == before


BAD_STATES = [
    ({"dice_left": 1}, "state.dice_left"),
    ({"dice_left": 11}, "state.dice_left"),
    ({"phase": "lunch"}, "state.phase"),
    ({"offense_dice": 9}, "state.offense_dice"),
    ({"round": 0}, "state.round"),
    ({"goal_spaces": 2, "goal_marked": 3}, "state.goal_marked"),
    ({"version": 2}, "state.version"),
    ({"extra": 1}, "state.extra"),
    ({"round": True}, "state.round"),
]


@pytest.mark.parametrize("change,field", BAD_STATES)
def test_corrupt_states_are_named(change: dict, field: str) -> None:
    state = {**state_to_json(fight(5, 5)), **change}
    reply = api.run("phases.tracker", {"state": state, "event": {"type": "end_phase"}})
    assert not reply["ok"] and reply["error"]["field"] == field, reply


def test_missing_state_key_and_text_state() -> None:
    state = state_to_json(fight(5, 5))
    del state["round"]
    reply = api.run("phases.tracker", {"state": state, "event": {"type": "end_phase"}})
    assert reply["error"]["field"] == "state.round"
    reply = api.run("phases.tracker", {"state": "{not json", "event": {"type": "end_phase"}})
    assert reply["error"]["field"] == "state"


states = st.builds(
    lambda o, d, first, phase, left, goal, marked, rnd, acts: TrackerState(
        o, d, first, rnd, phase, left, acts, goal, min(marked, goal)),
    st.integers(3, 7), st.integers(3, 7), st.sampled_from(list(Phase)),
    st.sampled_from(list(Phase)), st.integers(2, 10), st.integers(0, 20), st.integers(0, 20),
    st.integers(1, 50), st.integers(0, 5))


@given(states)
def test_state_json_round_trip(state: TrackerState) -> None:
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


@settings(max_examples=150)
@given(states, st.booleans(), st.integers(0, 2**32))
def test_every_roll_leaves_a_valid_state(state: TrackerState, extra: bool, seed: int) -> None:
    """Any reachable step keeps the invariants: 2+ dice in the phase, marks within range,
    and the dice bookkeeping adds up."""
    if extra and state.dice_left < 3:
        with pytest.raises(InputError):
            roll_action(state, extra, random.Random(seed))
        return
    step = roll_action(state, extra, random.Random(seed))
    new, rep = step.state, step.report
    state_from_json(state_to_json(new))  # valid
    if not rep.phase_ended:
        assert new.phase is state.phase
        assert new.dice_left == state.dice_left - rep.dice_spent - int(rep.die_removed)
    else:
        assert new.phase is state.phase.other and new.dice_left == state.pool(new.phase)
        ultra_switch = state.phase is DEF and rep.outcome is Outcome.ULTRA
        assert ultra_switch or state.dice_left - rep.dice_spent - int(rep.die_removed) < 2


def test_api_round_trip_and_roll() -> None:
    reply = api.run("phases.tracker", {"event": {"type": "start", "offense_dice": 5,
                                                 "defence_dice": 4, "goal_spaces": 3}})
    assert reply["ok"] and reply["result"]["view"]["extra_die"] == "optional"
    state = reply["result"]["state"]
    rolled = api.roll("phases.tracker", {"state": state, "event": {"type": "action"}},
                      random.Random(1))
    assert rolled["ok"]
    faces = [d["face"] for d in rolled["result"]["dice"]]
    replay = api.run("phases.tracker", {"state": state,
                                        "event": {"type": "action", "faces": faces}})
    assert replay["result"]["state"] == rolled["result"]["state"]
    assert replay["result"]["report"] == rolled["result"]["report"]
    refused = api.roll("phases.tracker", {"state": state, "event": {"type": "end_phase"}})
    assert refused["error"]["field"] == "event.type"


def test_view_says_when_the_third_die_is_automatic() -> None:
    state = state_to_json(fight(3, 5))
    reply = api.run("phases.tracker", {"state": state, "event": {"type": "adjust", "change": 0}})
    assert not reply["ok"]
    reply = api.run("phases.tracker", {"state": state,
                                       "event": {"type": "set_goal", "spaces": 0}})
    assert reply["result"]["view"]["extra_die"] == "automatic"
    assert "Exactly three" in reply["result"]["view"]["next_action"]


def test_event_from_json_accepts_text() -> None:
    assert event_from_json('{"type": "action", "faces": [1, 2]}') == Action((1, 2))
