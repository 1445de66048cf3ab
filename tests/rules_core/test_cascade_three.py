"""The d10 sustained fire, the Cortex firefight and the 2d6 phases fight answer through the
one cascade (rules_core.cascade.by_steps, issue 40 item 1, issue 46 item 6): a small fight
is answered exactly with the figures the exact walk gives; every pruned step is below the
exact chance by at most its bound; every simulated step's 95% intervals hold the exact
chance; a fight once refused for its size is answered, saying why and how precisely; and
no calculator module keeps a budget of its own."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules_core import api, cascade, catalog, solver
from rules_core.cortex import calc_firefights_fight as cortex_calc
from rules_core.cortex import fight as cortex_fight
from rules_core.fields import initial_inputs, validate
from rules_core.gunplay import calc_bursts_fight as gun_calc
from rules_core.gunplay import fight as gun_fight
from rules_core.phases import calc_momentum_fight as phases_calc
from rules_core.phases import fight as phases_fight
from rules_core.phases.inputs import fight_of as phases_fight_of
from tests.rules_core.test_cascade import _coverage, _pruned_only, simulated_only, sliced_and_whole

ROOT = Path(__file__).resolve().parents[2]


def clean(calc: Any, **over: Any) -> dict[str, Any]:
    """The calculator's inputs as its form validates them."""
    return validate(calc.FIELDS, {**initial_inputs(calc.FIELDS), **over})


GUN = dict(duel="same_time", hits_needed=2, b_hits_needed=2, ammo=9, b_ammo=6, burst=3,
           b_burst=1, max_rounds=4)
CORTEX = dict(a_quality="d8 d6", b_quality="d6 d6 d4", a_cover=None, b_cover=None,
              max_rounds=5)
PHASES = dict(goal_spaces=3, damage_limit=2, enemy_track=3, max_rounds=5)

#: name -> (calculator module, small inputs, the exact walk as the calculator made it
#: before the cascade: the oracle a settled exact answer must equal)
SMALL: dict[str, tuple[Any, dict[str, Any], Callable[[dict[str, Any]], solver.Odds]]] = {
    "gunplay.engagement": (gun_calc, GUN, lambda i: solver.solve(
        gun_calc._fight(i), max_rounds=i["max_rounds"])),
    "cortex.engagement": (cortex_calc, CORTEX, lambda i: solver.solve(
        cortex_fight.Firefight(cortex_calc.fight_of(i), "a"), max_rounds=i["max_rounds"],
        max_cost=cortex_fight.COST_PER_ROUND * i["max_rounds"])),
    "phases.engagement": (phases_calc, PHASES, lambda i: solver.solve(
        phases_fight_of(i), max_rounds=i["max_rounds"],
        max_work=phases_fight.MAX_WORK * i["max_rounds"],
        max_cost=phases_fight.cost_budget(i["max_rounds"]))),
}


def small(name: str) -> tuple[dict[str, Any], cascade.Cascade, solver.Odds]:
    module, over, oracle = SMALL[name]
    inputs = clean(module, **over)
    return inputs, module._cascade(inputs), oracle(inputs)


@pytest.mark.parametrize("name", SMALL)
def test_a_small_fight_is_exact_with_the_figures_of_the_exact_walk(name: str) -> None:
    inputs, answers, exact = small(name)
    done = cascade.Refinement(answers, first_after=0.0).settle()
    assert done.method == "exact" and done.stopped == "exact" and done.answer == exact
    result = api.run(name, inputs)["result"]
    assert result["method"] == "exact" and result["precision"] == "exact"
    assert result["outcomes_exact"] == {k: str(p) for k, p in exact.outcomes.items()}


@pytest.mark.parametrize("name", SMALL)
def test_every_pruned_step_is_below_the_exact_chance_by_at_most_its_bound(name: str) -> None:
    """The walk from the fight's own rounds in floating point (solver.Stepped), at a
    floor high enough that it drops something, and at the real floor."""
    _, answers, exact = small(name)
    for floor in (0.05, solver.PRUNE_FLOOR):
        fight = solver.Stepped(answers.fight, 10 ** 9)
        pruned = solver.solve_pruned(fight, max_rounds=answers.max_rounds, floor=floor)
        if floor > solver.PRUNE_FLOOR:
            assert pruned.pruned > 0
        for outcome, p in exact.outcomes.items():
            got = pruned.outcomes.get(outcome, 0.0)
            assert float(p) - pruned.pruned - 1e-12 <= got <= float(p) + 1e-12, outcome
    done = cascade.Refinement(_pruned_only(answers)).settle()
    assert done.method == "pruned" and isinstance(done.answer, solver.Pruned)
    for outcome, p in exact.outcomes.items():
        got = done.answer.outcomes.get(outcome, 0.0)
        assert float(p) - done.answer.pruned - 1e-12 <= got <= float(p) + 1e-12


@pytest.mark.parametrize("name", SMALL)
def test_a_pruned_walk_that_drops_nothing_is_an_exact_answer(name: str) -> None:
    """Issue 46.4 for these three: a pruned answer that dropped nothing says it is exact,
    and no explanation divides by its bound of 0."""
    inputs, answers, exact = small(name)
    done = cascade.Refinement(_pruned_only(answers)).settle()
    assert done.method == "pruned" and done.answer is not None and done.answer.pruned == 0
    calc = api._find(name)
    assert calc.sharpen is not None
    result = calc.sharpen.result(inputs, done)
    assert result["method"] == "exact" and result["precision"] == "exact"
    assert "exact" in calc.explain(inputs, result).lower()
    for outcome, p in exact.outcomes.items():
        assert result["outcomes"][outcome] == pytest.approx(float(p), abs=1e-12)


@pytest.mark.parametrize("name", SMALL)
def test_every_simulated_step_is_honest_and_the_same_for_the_same_seed(name: str) -> None:
    _, answers, exact = small(name)
    steps = sliced_and_whole(lambda: simulated_only(small(name)[1]), cascade.Precision(0.01))
    for answer in steps:
        assert sum(answer.outcomes.values()) == pytest.approx(1.0)
        for outcome, (low, high) in answer.intervals.items():
            assert low - 1e-12 <= answer.outcomes[outcome] <= high + 1e-12
    assert len(steps) >= 2
    for outcome, p in exact.outcomes.items():
        low, high = steps[-1].intervals.get(outcome, (0.0, 0.0))
        assert low <= float(p) <= high, outcome


@pytest.mark.parametrize("name", SMALL)
def test_the_95_percent_intervals_hold_the_exact_chance_in_at_least_90_percent_of_runs(
        name: str) -> None:
    _, answers, exact = small(name)
    for outcome, share in _coverage(answers, exact, 300).items():
        assert share >= 0.9, (outcome, share)


def test_a_roll_off_mixes_both_orders_in_every_walk_and_in_the_simulation() -> None:
    """Cortex with a roll-off for the first side: the exact walk is the two orders
    mixed at their exact chances (as before the cascade), the pruned walk within its
    bound of it, and the simulation, drawing the order first, covers it."""
    inputs = clean(cortex_calc, **CORTEX, first="roll")
    answers = cortex_calc._cascade(inputs)
    fight = cortex_calc.fight_of(inputs)
    exact = solver.mix([(w, solver.solve(cortex_fight.Firefight(fight, side),
                                         max_rounds=inputs["max_rounds"]))
                        for side, w in cortex_calc._orders(inputs, fight)])
    assert 0 < cortex_calc._first_chance(inputs, fight) < 1
    assert cascade.Refinement(answers).settle().answer == exact
    pruned = cascade.Refinement(_pruned_only(answers)).settle().answer
    assert isinstance(pruned, solver.Pruned)
    for outcome, p in exact.outcomes.items():
        assert float(p) - pruned.pruned - 1e-12 <= pruned.outcomes[outcome] <= float(p) + 1e-12
    for outcome, share in _coverage(answers, exact, 300).items():
        assert share >= 0.9, (outcome, share)


#: inputs each calculator refused before the cascade, for their size: name -> (inputs, a
#: figure the reason must give, the headline row the Rulings page quotes)
ONCE_REFUSED = {
    "gunplay.engagement": (dict(duel="turns", hits_needed=40, b_hits_needed=30, ammo=200,
                                b_ammo=200, burst=1, b_burst=1, bursts_per_round=5,
                                b_bursts_per_round=5, dc=14, b_dc=14, recoil=0,
                                max_rounds=100), "40 hits",
                           ("First shooter down", "89.6% (89.1% to 90.1%)")),
    "cortex.engagement": (dict(a_quality="d12 d12 d10 d8 d6 d4",
                               b_quality="d12 d10 d8 d6 d4 d4", falls="highest"), "47 x 47",
                          ("Side A wins", "94.8% (94.3% to 95.3%)")),
    "phases.engagement": (dict(goal_spaces=20, party_size=8, hit_points=40), "6,400",
                          ("Goal reached", "4.8% (4.3% to 5.3%)")),
}


@pytest.mark.parametrize("name", ONCE_REFUSED)
def test_an_input_once_refused_for_its_size_is_answered_with_an_honest_interval(
        name: str) -> None:
    """Refuse only what no method can answer (issue 46.6): these are answered without the
    exact walk. The browser's first step already gives an answer (the walk after the
    exact one moves whole rounds, so a simulated answer comes first), and the settled
    answer says why it is not exact, with each chance's 95% interval or the bound."""
    over, figure, (label, quoted) = ONCE_REFUSED[name]
    calc = api._find(name)
    assert calc.sharpen is not None
    inputs = validate(calc.fields, {**initial_inputs(calc.fields), **over})
    refining = calc.sharpen.begin(inputs)
    assert refining.step(0.05) and refining.method == "simulation"
    first = calc.sharpen.result(inputs, refining)
    assert not first["settled"] and first["precision"].endswith("still refining")
    reply = api.run(name, inputs)
    assert reply["ok"], reply
    result = reply["result"]
    headline = dict(reply["display"]["headline"])
    assert headline["Precision"] == result["precision"]
    assert headline[label] == quoted  # the Rulings page's worked case
    if result["method"] == "simulation":
        assert figure in result["simulated_because"], result["simulated_because"]
        assert "**A simulation, not exact odds.**" in reply["explanation"]
        assert result["stopped"] in ("precision", "cap")
        for outcome, p in result["outcomes"].items():
            low, high = result["intervals"][outcome]
            assert low - 1e-12 <= p <= high + 1e-12
    else:
        assert result["method"] == "pruned" and 0 < result["error_bound"] <= solver.MAX_ERROR


def test_a_simulated_answer_is_the_same_figures_each_time() -> None:
    over = ONCE_REFUSED["phases.engagement"][0]
    first, second = (api.run("phases.engagement", over)["result"] for _ in range(2))
    assert first == second and first["method"] == "simulation" and first["trials"] == 7_020


def test_the_rulings_bounded_case() -> None:
    """The Rulings page: a long 2d6 fight with a damage limit, once refused, is exact to
    within its bound."""
    reply = api.run("phases.engagement", {"goal_spaces": 20, "damage_limit": 20,
                                          "max_rounds": 100})
    headline = dict(reply["display"]["headline"])
    assert reply["result"]["method"] == "pruned"
    assert (headline["Goal reached"], headline["Side worn down"]) == ("8.5%", "91.5%")
    assert headline["Precision"] == "exact to within 1 in 61 million"


#: the names a budget goes by (the work, states, cost or time a walk or a simulation may
#: take); a form limit on an input's range (MAX_MEMBERS, MAX_ASSETS) is not one
BUDGET = re.compile(r"^(?:[A-Z0-9_]*(?:BUDGET|_WORK|WORK_|COST_PER|COST_ROUNDS|_STATES|SIM_|EXACT_HITS|"
                    r"LIMITED_SIZE|ENEMY_FACTOR)[A-Z0-9_]*)(?:\s*,\s*[A-Z0-9_]+)*\s*[:=]",
                    re.MULTILINE)


def test_no_calculator_module_keeps_a_budget_of_its_own() -> None:
    """Issue 40: each system's budgets live in its fight.py (or tables.py)."""
    modules = sorted((ROOT / "rules_core").glob("*/calc_*.py"))
    assert len(modules) > 20
    kept = {str(path.relative_to(ROOT)): BUDGET.findall(path.read_text(encoding="utf-8"))
            for path in modules}
    assert {path: names for path, names in kept.items() if names} == {}
    # the pattern does find a budget where one is kept
    assert BUDGET.findall((ROOT / "rules_core/phases/fight.py").read_text(encoding="utf-8"))


def test_every_whole_fight_calculator_answers_through_the_cascade() -> None:
    whole = [name for name in api.names()
             if name.endswith(".engagement") or name == "sucs.roster_battle"]
    assert len(whole) == len(catalog.SYSTEMS) + 1
    for name in whole:
        calc = api._find(name)
        assert calc.sharpen is not None, name
        assert calc.compute.__doc__ and "settled" in calc.compute.__doc__, name


def test_the_duel_limit_is_a_budget_not_a_refusal() -> None:
    """A duel past DUEL_EXACT_HITS skips the exact walk; one within it tries it first."""
    inputs = clean(gun_calc, **{**GUN, "hits_needed": gun_fight.DUEL_EXACT_HITS + 1})
    assert [name for name, _ in gun_calc._cascade(inputs).walks] == ["pruned"]
    inputs = clean(gun_calc, **{**GUN, "hits_needed": gun_fight.DUEL_EXACT_HITS})
    assert [name for name, _ in gun_calc._cascade(inputs).walks] == ["exact", "pruned"]
    assert replace(gun_calc._cascade(inputs), walks=()).play_once is not None
    assert Fraction(1) == sum(Fraction(p) for p in
                              api.run("gunplay.engagement", inputs)["result"]
                              ["outcomes_exact"].values())
