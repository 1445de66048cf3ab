"""SUCS engagements too large for an exact answer: each walk is stopped while the turns
are being built, under a deterministic work budget, and the fight is then simulated, saying
which input to lower for exact odds. Each case's CPU time is printed (``pytest -s``), never asserted: the
assertion is on the work counters, which do not depend on the machine."""

from __future__ import annotations

import time

import pytest

from rules_core import api, cascade, solver
from rules_core.fields import validate
from rules_core.sucs import calc_actions_fight as calc
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs.calc_actions_fight import FIELDS, fight_of
from rules_core.sucs.turn import Fighter
from tests.rules_core.sucs_worst import worst_inputs


def checked(inputs: dict) -> dict:
    """The inputs as the calculator gets them: checked, defaults filled in and parsed."""
    return validate(FIELDS, inputs)


#: the fourth reliability probe's input: 5.5 s of CPU, then refused, before the cascade
PROBE = {"side_a": "3/1/0, 3/1/0, 3/1/0", "side_b": "4/1x2/0, 3/1/1", "a_out_of_command": True,
         "a_one_action": True, "a_support": "armor", "a_markers": 4, "b_out_of_command": False,
         "b_one_action": True, "b_support": "armor", "b_markers": 2, "first": "roll",
         "mode": "melee", "suppression": "penalty", "melee_suppressed": "attack",
         "hopeless_reorganizes": False, "two_roll_rule": True, "armor_modifies_roll": False,
         "bonus_over": "needed", "ties": "a", "max_rounds": 100}
CASES = [*worst_inputs(), ("the probe's melee at a cap of 100", PROBE)]


@pytest.mark.parametrize("label,inputs", CASES, ids=[c[0] for c in CASES])
def test_the_worst_inputs_are_answered_with_every_walk_within_its_budget(label, inputs) -> None:
    """Every input the form takes is answered (none refused): exactly, by the pruned walk
    within its bound, or by a simulation that says why and what to lower for exact odds;
    and each walk tried stays within its budget. The CPU time of the settled answer (to
    three points) and of the browser's first answer are printed (``-s``), never asserted."""
    cpu = time.process_time()
    reply = api.run("sucs.engagement", inputs, precision="3 points")
    spent = time.process_time() - cpu
    full = checked(inputs)
    clean = full
    cpu = time.process_time()
    first = cascade.Refinement(calc._cascade(clean), first_after=0.3,
                               clock=time.process_time)
    while first.answer is None:
        first.step(0.15)
    print(f"\n{label}: settled in {spent:.2f} s CPU ({reply['result']['precision']}), "
          f"first answer in {time.process_time() - cpu:.2f} s ({first.method})")
    assert reply["ok"], reply
    # the counters: the turn walk never goes past its budget, nor the solver's plan
    fight = fight_of(full)
    turn_limit, solver_limit = sucs_fight.limits(full["max_rounds"])
    found = sucs_fight.plan(fight, full["max_rounds"], max_work=solver_limit)
    assert fight.max_work == turn_limit and fight.work <= turn_limit
    assert found.solver_work <= solver_limit and found.peak <= sucs_fight.MAX_STATES
    if found.limit is None:
        assert reply["result"]["method"] == "exact"
        return
    budget = sucs_fight.pruned_limit(full["max_rounds"])
    odds, _ = sucs_fight.pruned(fight, full["max_rounds"], budget, found)
    if found.rounds < 1:  # not even the first turn fits the exact walk: not tried
        assert odds is None
    else:
        assert fight.max_work == budget and fight.work <= budget
    if odds is not None:
        assert reply["result"]["method"] in ("pruned", "exact")
        assert reply["result"].get("error_bound", 0) == odds.pruned <= sucs_fight.MAX_ERROR
        return
    result = reply["result"]
    assert result["method"] == "simulation" and result["settled"]
    widest = max(h - lo for lo, h in result["intervals"].values()) / 2
    assert widest <= 0.03 or result["stopped"] == "cap" and "work cap" in result["precision"]
    assert "For exact odds" in result["simulated_because"]


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
     "max_rounds", ("For exact odds, lower the Turn cap to 6 or less (the first 6 turns fit)",)),
])
def test_a_fight_past_both_walks_is_simulated_saying_what_to_lower(inputs, field, words) -> None:
    """These were refused (too few fights could be played in a second): the cascade
    answers them with a simulation, which names each walk's limit and the input to lower
    for exact odds."""
    reply = api.run("sucs.engagement", inputs, precision="3 points")
    assert reply["ok"] and reply["result"]["method"] == "simulation", reply
    why = reply["result"]["simulated_because"]
    assert "past the limit of" in why
    found = sucs_fight.plan(fight_of(checked(inputs)), inputs.get("max_rounds", 20),
                            max_work=sucs_fight.limits(inputs.get("max_rounds", 20))[1])
    assert found.rounds >= 1
    assert "The walk with its least likely ways dropped: " in why
    assert "not tried" not in why
    for w in words:
        assert w in why, why


def test_a_fight_no_turn_of_which_fits_does_not_claim_the_pruned_walk_was_tried() -> None:
    """Six different units a side in close combat: not even the first turn fits the exact
    walk, so the pruned walk (which must build every turn) is not tried, the answer is a
    simulation, and the explanation says only what was tried."""
    inputs = {"side_a": "3/1/1, 3/2/1, 4/1/0, 3/1/0, 4/2/1, 3/3/0",
              "side_b": "3/1x2/0, 3/1/1, 4/2/2, 3/1/0, 4/2/1, 3/3/0", "mode": "melee"}
    fight = fight_of(checked(inputs))
    found = sucs_fight.plan(fight, 20, max_work=sucs_fight.limits(20)[1])
    assert found.rounds == 0 and not sucs_fight.prunable(found)
    assert sucs_fight.pruned(fight, 20, sucs_fight.MAX_PRUNED_WORK, found) == (None, 0)
    reply = api.run("sucs.engagement", inputs, precision="3 points")
    assert reply["ok"] and reply["result"]["method"] == "simulation"
    why = reply["result"]["simulated_because"]
    assert "(the first 0 turns fit)" in why
    assert "not tried, as not even the first turn fits the exact walk" in why
    assert "For exact odds, put fewer or less varied units in Side A units" in why


class _Builder:
    """A fight whose turn costs ``cost`` units of work, spent one at a time as the
    fight's :meth:`spend` does (refused past ``max_work``)."""

    def __init__(self, cost: int, max_work: int) -> None:
        self.cost, self.work, self.max_work, self.tries = cost, 0, max_work, 0

    def step(self, state: object) -> tuple[int, list]:
        self.tries += 1
        for _ in range(self.cost):
            if self.work + 1 > self.max_work:
                raise solver.TooLarge("The work of building this fight's turns", self.max_work)
            self.work += 1
        return 6, [(state, 6)]


@pytest.mark.parametrize("cost", [10, 100, 200, 500, 1000])
def test_a_long_turn_is_built_in_shares_that_give_way_between_them(cost: int) -> None:
    """A turn needing more than the first share of the budget left gives way (yields)
    after each share that was not enough, and ends with the turn itself, its own work
    counted once and the budget as it was."""
    yields = sum(cost > 1000 // share for share in sucs_fight.TURN_SHARES)
    fight = _Builder(cost, 1000)
    pieces = sucs_fight.built(fight, ("start",))  # type: ignore[arg-type]
    given_way = 0
    while True:
        try:
            next(pieces)
            given_way += 1
        except StopIteration as done:
            assert done.value == (6, [(("start",), 6)])
            break
    assert given_way == yields == fight.tries - 1
    assert fight.work == cost and fight.max_work == 1000


def test_a_turn_past_the_whole_budget_is_refused_after_every_share() -> None:
    fight = _Builder(1001, 1000)
    pieces = sucs_fight.built(fight, ("start",))  # type: ignore[arg-type]
    assert sucs_fight.TURN_SHARES
    for _ in sucs_fight.TURN_SHARES:
        assert next(pieces) is None
    with pytest.raises(solver.TooLarge):
        next(pieces)
    assert fight.max_work == 1000 and fight.tries == len(sucs_fight.TURN_SHARES) + 1
