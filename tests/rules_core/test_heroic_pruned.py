"""heroic.engagement with carried wounds past the exact walk's limit: the pools followed
round by round in floating point with the least likely dropped (heroic.fight.Pruned),
against the exact walk of the same fights."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.dice.distribution import one_in
from rules_core.fields import initial_inputs, validate
from rules_core.heroic import calc_groups_fight as calc
from rules_core.heroic import fight as model

FIELDS = calc.ENGAGEMENT.fields


def inputs(**over):
    return {**initial_inputs(FIELDS), **over}


def small(**over):
    """Three raiders against two guards, small enough for the exact walk."""
    return inputs(**{"a_name": "Raiders", "a_members": 3, "a_skill": 12, "a_hp": 4, "a_dr": 0,
                     "a_damage": "1d", "a_wounding": 1, "b_name": "Guards", "b_members": 2,
                     "b_skill": 13, "b_hp": 5, "b_dr": 1, "b_damage": "1d+1",
                     "b_wounding": 1.5, "wounds": "carry", "max_rounds": 8, **over})


def fight_of(raw) -> model.Fight:
    return calc.build(validate(FIELDS, raw))


def close(pruned: solver.Pruned, exact: solver.Odds, tol: float = 1e-12) -> None:
    """Every figure of the two answers agrees to within ``tol``."""
    for got, want in ((pruned.outcomes, exact.outcomes), (pruned.ends_in, exact.ends_in),
                      *((pruned.losses[s], exact.losses[s]) for s in exact.losses),
                      *zip(pruned.by_round, exact.by_round)):
        for k in set(got) | set(want):
            assert got.get(k, 0.0) == pytest.approx(float(want.get(k, 0)), abs=tol), k
    assert pruned.expected_rounds == pytest.approx(float(exact.expected_rounds), abs=1e-9)


READINGS = [
    {},
    {"ties": "simultaneous"},
    {"on_break": "surrender", "a_frontage": 2},
    {"a_members": 1, "a_hp": 14},  # a lone creature checks morale by its HP
    {"b_members": 1, "b_hp": 12, "ties": "simultaneous"},
    {"a_cornered": True, "b_fearlessness": 2, "reach_per_defender": 1},
    {"a_damage": "3d-2", "b_members": 4, "b_hp": 3, "b_speed_factor": 2},
]


@pytest.mark.parametrize("over", READINGS)
def test_the_pruned_walk_dropping_nothing_is_the_exact_walk(over) -> None:
    fight = fight_of(small(**over))
    exact = solver.solve(fight, max_rounds=8)
    pruned = solver.solve_pruned(model.Pruned(fight, 10 ** 9), max_rounds=8, floor=0.0)
    assert pruned.pruned == 0
    close(pruned, exact)


def test_whole_members_only_are_left_to_the_exact_walk() -> None:
    with pytest.raises(ValueError, match="carried wounds"):
        model.Pruned(fight_of(small(wounds="drop")), 10 ** 9)


def test_the_pruned_walk_is_below_the_exact_answer_by_at_most_what_it_dropped() -> None:
    fight = fight_of(small(max_rounds=12))
    exact = solver.solve(fight, max_rounds=12)
    pruned = solver.solve_pruned(model.Pruned(fight, 10 ** 9), max_rounds=12, floor=1e-4)
    bound = pruned.pruned
    assert 1e-4 < bound < 0.1  # pruned hard: a real share dropped
    for name, p in exact.outcomes.items():
        assert float(p) - bound - 1e-12 <= pruned.outcomes.get(name, 0.0) <= float(p) + 1e-12
    for got, want in zip(pruned.by_round, exact.by_round):
        for name, p in want.items():
            assert float(p) - bound - 1e-12 <= got.get(name, 0.0) <= float(p) + 1e-12


def test_carried_wounds_past_the_exact_limit_are_answered_within_a_millionth() -> None:
    """Four raiders against three guards (360 pairs of HP totals, past the 250 the exact
    walk follows): answered with its bound, inside it against the exact walk with no
    limits."""
    raw = small(a_members=4, a_hp=6, b_members=3, b_hp=5, max_rounds=20)
    assert calc.carry_pairs(raw) > calc.MAX_CARRY_STATES
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    got = reply["result"]
    bound = got["error_bound"]
    assert 0 < bound <= solver.MAX_ERROR and "outcomes_exact" not in got
    exact = solver.solve(fight_of(raw), max_rounds=20, max_states=10 ** 6, max_cost=10 ** 12)
    for name, p in exact.outcomes.items():
        assert float(p) - bound - 1e-12 <= got["outcomes"].get(name, 0.0) <= float(p) + 1e-12
    assert ["Each chance exact to within", one_in(bound)] in reply["display"]["headline"]
    assert f"**Exact to within {one_in(bound)}.**" in reply["explanation"]


def test_the_source_fight_with_carried_wounds_is_refused_within_the_budget() -> None:
    """Twelve orcs against eight knights carrying every point: past the pruned walk's
    budget in its second round (about 4.2 million steps in all), refused
    naming the input and what to lower, the work stopped at the budget."""
    raw = inputs(wounds="carry")
    reply = api.run("heroic.engagement", raw)
    assert not reply["ok"] and reply["error"]["field"] == "wounds"
    message = reply["error"]["message"]
    assert "12,672 pairs of HP totals" in message
    assert "with the least likely pairs dropped, the walk passes its limit of 1,000,000 " \
        "steps in round 2 of 20" in message
    assert "Lower the members or HP each, or choose whole members only." in message
    walk = model.Pruned(fight_of(raw), calc.pruned_budget(20))
    with pytest.raises(solver.TooLarge) as err:
        solver.solve_pruned(walk, max_rounds=20, floor=solver.PRUNE_FLOOR)
    assert walk.work <= calc.pruned_budget(20) and err.value.rounds >= 1


def test_five_orcs_against_three_knights_carrying_every_point_are_answered() -> None:
    """The figure the groups page gives: the page's orcs and knights, five against three
    (1,980 pairs of HP totals), answered by the pruned walk."""
    raw = inputs(wounds="carry", a_members=5, b_members=3)
    assert calc.carry_pairs(raw) == 1_980
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    assert 0 < reply["result"]["error_bound"] <= solver.MAX_ERROR


def test_the_budget_grows_with_the_round_cap_to_three_times_at_100() -> None:
    assert calc.pruned_budget(5) == calc.pruned_budget(20) == calc.MAX_PRUNED_WORK
    assert calc.pruned_budget(100) == 3 * calc.MAX_PRUNED_WORK


def test_exact_fractions_are_kept_for_fights_the_exact_walk_follows() -> None:
    reply = api.run("heroic.engagement", small())
    assert reply["ok"] and "error_bound" not in reply["result"]
    assert sum(Fraction(v) for v in reply["result"]["outcomes_exact"].values()) == 1
