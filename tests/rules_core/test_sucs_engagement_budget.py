"""SUCS engagements too large for an exact answer are refused while the turns are being
built, under a deterministic work budget, with a message naming the input to lower
(issue 29). Each case's CPU time is printed (``pytest -s``), never asserted: the
assertion is on the work counters, which do not depend on the machine."""

from __future__ import annotations

import time

import pytest

from rules_core import api, solver
from rules_core.fields import validate
from rules_core.sucs import calc_actions_fight as calc
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs.calc_actions_fight import FIELDS, fight_of
from rules_core.sucs.turn import Fighter
from tests.rules_core.sucs_worst import worst_inputs


def checked(inputs: dict) -> dict:
    """The inputs as the calculator gets them: checked, defaults filled in and parsed."""
    return validate(FIELDS, inputs)


@pytest.mark.parametrize("label,inputs", worst_inputs(), ids=[c[0] for c in worst_inputs()])
def test_the_worst_inputs_are_answered_or_refused_within_the_budget(label, inputs) -> None:
    cpu = time.process_time()
    reply = api.run("sucs.engagement", inputs)
    spent = time.process_time() - cpu
    print(f"\n{label}: {spent:.2f} s CPU, "
          + ("answered" if reply["ok"] else f"refused: {reply['error']['message']}"))
    if not reply["ok"]:
        error = reply["error"]
        assert error["field"] in ("side_a", "side_b", "max_rounds"), error
        assert "limit of" in error["message"] and "Lower" in error["message"] or \
            "fewer" in error["message"], error
    # the counters: the turn walk never goes past its budget, nor the solver's plan
    full = checked(inputs)
    fight = fight_of(full)
    turn_limit, solver_limit = sucs_fight.limits(full["max_rounds"])
    found = sucs_fight.plan(fight, full["max_rounds"], max_work=solver_limit)
    assert fight.max_work == turn_limit and fight.work <= turn_limit
    assert found.solver_work <= solver_limit and found.peak <= sucs_fight.MAX_STATES
    if found.limit is None:
        assert reply["ok"] and "error_bound" not in reply["result"]  # exact
        return
    # past the exact walk: the pruned walk answers within its own budget, or it is refused
    budget = sucs_fight.pruned_limit(full["max_rounds"])
    odds, _ = sucs_fight.pruned(fight, full["max_rounds"], budget, found)
    if found.rounds < 1:  # not even the first turn fits the exact walk: not tried
        assert odds is None
    else:
        assert fight.max_work == budget
        assert fight.work <= budget
    if odds is not None:
        assert reply["ok"] and reply["result"]["error_bound"] == odds.pruned <= sucs_fight.MAX_ERROR
        return
    # past both walks: a simulation of enough fights within its own budget, or a refusal
    played = calc.simulated(fight_of(full), full["max_rounds"])
    units = len(fight.units["a"]) + len(fight.units["b"])
    assert played.trials == calc.SIM_TRIALS or \
        played.trials * full["max_rounds"] * units ** 2 >= calc.SIM_WORK
    if played.trials >= calc.MIN_SIM_TRIALS:
        assert reply["ok"] and reply["result"]["method"] == "simulation"
        assert reply["result"]["trials"] == played.trials
    else:
        assert not reply["ok"]
        assert f"({played.trials:,} of the {calc.MIN_SIM_TRIALS:,} needed)" in \
            reply["error"]["message"]


def test_the_budget_grows_with_the_round_cap_to_three_times_at_100() -> None:
    assert sucs_fight.limits(1) == sucs_fight.limits(20) == (
        sucs_fight.MAX_TURN_WORK, sucs_fight.MAX_SOLVER_WORK)
    assert sucs_fight.limits(100) == (3 * sucs_fight.MAX_TURN_WORK,
                                      3 * sucs_fight.MAX_SOLVER_WORK)
    # the pruned walk's, to two and a half times
    assert sucs_fight.pruned_limit(20) == sucs_fight.MAX_PRUNED_WORK
    assert sucs_fight.pruned_limit(100) == 5 * sucs_fight.MAX_PRUNED_WORK // 2


def test_one_unit_a_side_in_close_combat_for_100_turns_is_answered() -> None:
    """Markers come on with every strike back and off one an activation, so two units in
    close combat can stand in ever more ways: past the exact walk at a cap of 100, the
    pruned walk answers it (it was refused, "the first 22 turns fit")."""
    reply = api.run("sucs.engagement", {"side_a": "3/1/1", "side_b": "3/1/1", "mode": "melee",
                                        "a_markers": 5, "b_markers": 5, "max_rounds": 100})
    assert reply["ok"], reply
    assert 0 < reply["result"]["error_bound"] <= sucs_fight.MAX_ERROR


def test_a_turn_walk_past_its_budget_stops_while_the_turn_is_built() -> None:
    units = tuple(Fighter(f"U{n}", 3, 1 + n % 3, targets=1 + n % 2, armor=n % 3)
                  for n in range(4))
    fight = sucs_fight.Fight(units, units, max_work=500)
    with pytest.raises(solver.TooLarge, match="building this fight's turns"):
        fight.step(fight.start())
    assert fight.work <= 500
    assert not fight._steps  # no turn was finished


def test_the_plan_finds_the_rounds_that_fit_and_the_refusal_names_the_round_cap() -> None:
    inputs = checked({"max_rounds": 100})
    fight = fight_of(inputs)
    found = sucs_fight.plan(fight, 100, max_work=30_000)
    assert found.limit == "work" and 2 <= found.rounds < 100
    # the rounds that fit do fit, and one more does not
    assert sucs_fight.plan(fight_of(inputs), found.rounds, max_work=30_000).limit is None
    assert sucs_fight.plan(fight_of(inputs), found.rounds + 1, max_work=30_000).limit == "work"


@pytest.mark.parametrize("inputs,field,words", [
    ({"side_a": "3/1/1, 3/2/1, 4/1/0", "side_b": "3/1x2/0, 3/1/1, 4/2/2", "mode": "melee",
      "a_markers": 3, "b_markers": 3},
     "side_a", ("Side A units", "fewer or less varied units", "exchange of fire")),
    ({"side_a": "3/1/1, 3/1/1, 3/1/1, 3/1/1", "side_b": "3/1/1, 3/1/1, 3/1/1, 3/1/1"},
     "max_rounds", ("Round cap", "The first 6 turns fit: lower the Round cap to 6 or less")),
])
def test_refusals_name_the_limit_and_the_input_to_lower(inputs, field, words) -> None:
    reply = api.run("sucs.engagement", inputs)
    assert not reply["ok"] and reply["error"]["field"] == field, reply
    assert "past the limit of" in reply["error"]["message"]
    # the pruned walk is named as tried only when it was (the exact walk built a turn)
    found = sucs_fight.plan(fight_of(checked(inputs)), inputs.get("max_rounds", 20),
                            max_work=sucs_fight.limits(inputs.get("max_rounds", 20))[1])
    assert found.rounds >= 1
    assert "nor does it fit with its least likely ways dropped" in reply["error"]["message"]
    # nor can a simulation play enough of its fights, and the message says how many it could
    played = calc.simulated(fight_of(checked(inputs)), inputs.get("max_rounds", 20))
    assert played.trials < calc.MIN_SIM_TRIALS
    assert (f", nor can enough fights be played to simulate it ({played.trials:,} of the "
            f"{calc.MIN_SIM_TRIALS:,} needed). ") in reply["error"]["message"]
    for w in words:
        assert w in reply["error"]["message"], reply["error"]["message"]


def test_a_refusal_before_any_turn_fits_does_not_claim_the_pruned_walk_was_tried() -> None:
    """Six different units a side in close combat: not even the first turn fits the exact
    walk, so the pruned walk (which must build every turn) is not tried, and the message
    says only what was tried."""
    inputs = {"side_a": "3/1/1, 3/2/1, 4/1/0, 3/1/0, 4/2/1, 3/3/0",
              "side_b": "3/1x2/0, 3/1/1, 4/2/2, 3/1/0, 4/2/1, 3/3/0", "mode": "melee"}
    fight = fight_of(checked(inputs))
    found = sucs_fight.plan(fight, 20, max_work=sucs_fight.limits(20)[1])
    assert found.rounds == 0 and not sucs_fight.prunable(found)
    assert sucs_fight.pruned(fight, 20, sucs_fight.MAX_PRUNED_WORK, found) == (None, 0)
    reply = api.run("sucs.engagement", inputs)
    message = reply["error"]["message"]
    assert not reply["ok"] and reply["error"]["field"] == "side_a"
    assert "(limit hit in turn 1), nor can enough fights be played to simulate it (" in message
    assert " needed). Put fewer or less varied units in Side A units" in message
    assert "least likely ways dropped" not in message
