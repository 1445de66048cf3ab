"""heroic.engagement with carried wounds past the exact walk's limit: the pools followed
round by round in floating point with the least likely dropped (heroic.fight.Pruned),
against the exact walk of the same fights."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.dice.distribution import one_in, percent
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
    assert calc.carry_pairs(raw) > model.MAX_CARRY_STATES
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    got = reply["result"]
    bound = got["error_bound"]
    assert 0 < bound <= solver.MAX_ERROR and "outcomes_exact" not in got
    exact = solver.solve(fight_of(raw), max_rounds=20, max_states=10 ** 6, max_cost=10 ** 12)
    for name, p in exact.outcomes.items():
        assert float(p) - bound - 1e-12 <= got["outcomes"].get(name, 0.0) <= float(p) + 1e-12
    assert ["Precision", f"exact to within {one_in(bound)}"] in reply["display"]["headline"]
    assert f"**Exact to within {one_in(bound)}.**" in reply["explanation"]


def test_the_source_fight_with_carried_wounds_is_a_labelled_seeded_simulation() -> None:
    """Twelve orcs against eight knights carrying every point: past the pruned walk's
    budget in its second round (it needs about 4.2 million steps), so the fight is played
    with the same seed every time and said to be a simulation, with each chance's 95%
    interval and why; the walk stopped at its budget."""
    raw = inputs(wounds="carry")
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    got = reply["result"]
    assert got["method"] == "simulation" and "error_bound" not in got
    assert "outcomes_exact" not in got
    assert got["settled"] and got["stopped"] == "precision"
    assert max(h - lo for lo, h in got["intervals"].values()) / 2 <= 0.005
    assert sum(got["outcomes"].values()) == pytest.approx(1)
    for name, (low, high) in got["intervals"].items():
        assert low <= got["outcomes"][name] <= high
    # the pruned walk's figures for this fight (answered with no budget, about 5 s of
    # CPython, to within 7.6e-7): Orcs broken 77.96%, Orcs wiped out 21.80%
    assert got["intervals"]["Orcs broken"][0] <= 0.7796 <= got["intervals"]["Orcs broken"][1]
    assert got["intervals"]["Orcs wiped out"][0] <= 0.2180 <= \
        got["intervals"]["Orcs wiped out"][1]
    why = got["simulated_because"]
    assert "12,672 pairs of HP totals" in why
    assert ("The walk with its least likely ways dropped: The work of following the injuries "
            f"pool by pool is past the limit of {model.MAX_PRUNED_WORK:,}") in why
    low, high = got["intervals"]["Orcs broken"]
    assert ["Orcs broken", f"{percent(got['outcomes']['Orcs broken'])} "
                           f"({percent(low)} to {percent(high)})"] in reply["display"]["headline"]
    assert "**A simulation, not exact odds.** " + why in reply["explanation"]
    assert api.run("heroic.engagement", raw)["result"] == got  # the same seed
    walk = model.Pruned(fight_of(raw), calc.pruned_budget(20))
    with pytest.raises(solver.TooLarge) as err:
        solver.solve_pruned(walk, max_rounds=20, floor=solver.PRUNE_FLOOR)
    assert walk.work <= calc.pruned_budget(20) and err.value.rounds >= 1


def test_the_simulation_holds_the_pruned_answer_in_its_intervals(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Five orcs against three knights, simulated (the pruned walk given no budget) and
    walked: every outcome's exact chance, to within the walk's bound, is inside the
    simulation's 95% interval, and the losses agree."""
    raw = inputs(wounds="carry", a_members=5, b_members=3)
    walked = api.run("heroic.engagement", raw)["result"]
    monkeypatch.setattr(model, "MAX_PRUNED_WORK", 0)
    got = api.run("heroic.engagement", raw)["result"]
    assert got["method"] == "simulation" and got["trials"] > 2_000
    assert "is past the limit of 0 for an exact answer" in got["simulated_because"]
    for name, p in walked["outcomes"].items():
        low, high = got["intervals"][name]
        assert low <= p <= high + walked["error_bound"], (name, p, low, high)
    for side in "ab":  # the mean losses, to within four standard errors
        dist = {int(n): p for n, p in walked[f"losses_{side}"].items()}
        mean = walked[f"expected_losses_{side}"]
        spread = (sum(p * (n - mean) ** 2 for n, p in dist.items()) / got["trials"]) ** 0.5
        assert abs(got[f"expected_losses_{side}"] - mean) <= 4 * spread, side


def test_a_drawn_attack_gives_each_injury_at_its_exact_chance() -> None:
    """The one random number an attack draws, from 0 to the denominator of its exact
    distribution: each injury takes exactly its own ways of the numbers (the first and
    the last of its run are drawn here), so it comes up at its exact chance."""
    f = fight_of(small(a_members=2, b_members=1))
    den, kernel = model.injury_kernel(f, "a", 2, 1, False)

    class Drawn:
        number = 0

        def randrange(self, n: int) -> int:
            assert n == den
            return self.number
    drawn, start = Drawn(), 0
    for injury, ways in kernel:
        for number in (start, start + ways - 1):
            drawn.number = number
            assert model.drawn_attack(f, "a", {"a": 8, "b": 5}, drawn)[0] == injury  # type: ignore[arg-type]
        start += ways
    assert start == den


def test_five_orcs_against_three_knights_carrying_every_point_are_answered() -> None:
    """The figure the groups page gives: the page's orcs and knights, five against three
    (1,980 pairs of HP totals), answered by the pruned walk."""
    raw = inputs(wounds="carry", a_members=5, b_members=3)
    assert calc.carry_pairs(raw) == 1_980
    reply = api.run("heroic.engagement", raw)
    assert reply["ok"], reply
    assert 0 < reply["result"]["error_bound"] <= solver.MAX_ERROR


def test_five_orcs_against_four_knights_fit_the_walk_s_budget() -> None:
    """The budget is set so that the walk still answers five orcs against four knights
    (2,640 pairs, about 830,000 steps), leaving time to simulate what it cannot."""
    raw = inputs(wounds="carry", a_members=5, b_members=4)
    walk = model.Pruned(fight_of(raw), calc.pruned_budget(20))
    odds = solver.solve_pruned(walk, max_rounds=20, floor=solver.PRUNE_FLOOR)
    assert odds.pruned <= solver.MAX_ERROR and walk.work > 800_000
    assert api.run("heroic.engagement", raw)["result"]["error_bound"] == odds.pruned


def test_a_round_too_large_for_one_piece_of_work_ends_the_walk_at_any_cap() -> None:
    """At a cap of 100 the budget would let twelve orcs against eight knights walk three
    rounds and more before giving up (3 s of CPython); its second round alone passes
    what one round may take, so the walk stops there and the fight is simulated, saying
    why. Eight against eight, the largest second round answered at that cap, fits."""
    raw = inputs(wounds="carry", max_rounds=100)
    walk = model.Pruned(fight_of(raw), calc.pruned_budget(100))
    with pytest.raises(solver.TooLarge) as err:
        solver.solve_pruned(walk, max_rounds=100, floor=solver.PRUNE_FLOOR)
    assert err.value.rounds == 1 and walk.work - walk.round_began <= model.MAX_ROUND_WORK
    assert "one round" in str(err.value) and f"{model.MAX_ROUND_WORK:,}" in str(err.value)
    got = api.run("heroic.engagement", raw)["result"]
    assert got["method"] == "simulation"
    assert (f"The work of one round following the injuries pool by pool is past the limit "
            f"of {model.MAX_ROUND_WORK:,}") in got["simulated_because"]
    eights = model.Pruned(fight_of(inputs(wounds="carry", b_members=8, a_members=8)),
                          calc.pruned_budget(100))
    solver.solve_pruned(eights, max_rounds=2, floor=solver.PRUNE_FLOOR)
    assert eights.work - eights.round_began > 0.9 * model.MAX_ROUND_WORK


def test_the_budget_grows_with_the_round_cap_to_three_times_at_100() -> None:
    assert calc.pruned_budget(5) == calc.pruned_budget(20) == model.MAX_PRUNED_WORK
    assert calc.pruned_budget(100) == 3 * model.MAX_PRUNED_WORK


def test_exact_fractions_are_kept_for_fights_the_exact_walk_follows() -> None:
    reply = api.run("heroic.engagement", small())
    assert reply["ok"] and "error_bound" not in reply["result"]
    assert sum(Fraction(v) for v in reply["result"]["outcomes_exact"].values()) == 1


def test_a_walk_dropping_more_than_an_answer_may_stops_and_is_simulated(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """When what the pruned walk drops passes the bound (here set to one in a hundred
    million: five orcs against three knights drop 8.8e-8 in all), the walk stops in that
    round rather than walking on, and the fight is simulated, saying so."""
    raw = inputs(wounds="carry", a_members=5, b_members=3)
    monkeypatch.setattr(solver, "MAX_ERROR", 1e-8)
    walk = model.Pruned(fight_of(raw), calc.pruned_budget(20))
    with pytest.raises(solver.DroppedTooMuch) as err:
        solver.solve_pruned(walk, max_rounds=20, floor=solver.PRUNE_FLOOR,
                            max_pruned=solver.MAX_ERROR)
    assert 0 < err.value.pruned <= 1e-8 and 1 <= err.value.rounds < 20
    assert walk.work < calc.pruned_budget(20)
    got = api.run("heroic.engagement", raw)["result"]
    assert got["method"] == "simulation"
    assert ("The walk with its least likely ways dropped: what it drops passes 1e-08, the "
            f"most an answer may leave out, in round {err.value.rounds + 1}"
            ) in got["simulated_because"]


def test_a_pruned_walk_that_dropped_nothing_is_answered_and_says_it_is_exact() -> None:
    """Carried wounds past the exact walk's limit, but one side can never hurt the other:
    the pruned walk drops nothing (a bound of 0), which is an exact answer, not a
    division by zero (the fourth reliability probe's repro)."""
    raw = {**api.spec("heroic.engagement")["initial"], "a_damage": "1d", "b_skill": 3,
           "b_wounding": 10, "wounds": "carry"}
    out = api.run("heroic.engagement", raw)
    assert out["ok"], out
    assert out["result"]["error_bound"] == 0
    assert "**Exact.**" in out["explanation"] and "nothing was dropped" in out["explanation"]
    assert "Each chance exact to within" not in str(out["display"])
