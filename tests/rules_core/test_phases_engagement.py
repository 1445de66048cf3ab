"""phases.engagement: the momentum chain against an oracle written from the rules text,
every die face played through the tracker for a small case, hand-worked cases and a
seeded simulation."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

import pytest

from rules_core import api, solver
from rules_core.phases import expectations as ex
from rules_core.phases.fight import (
    CUT_SHORT,
    GOAL,
    LONE_DIE,
    MAX_WORK,
    WORN_DOWN,
    Fight,
    phase_endings,
)
from rules_core.phases.tables import Outcome, Phase
from rules_core.phases.tracker import Action, Start, advance, dice_for_action
from tests.rules_core.phases_oracle import counts, dice_after, spent
from tests.rules_core.support import play_many

NAME = "phases.engagement"
ALWAYS, AUTO = ex.ExtraDie.ALWAYS, ex.ExtraDie.AUTO


def solve(fight: Fight, rounds: int) -> solver.Odds:
    """The exact answer within the work the calculator allows."""
    return solver.solve(fight, max_rounds=rounds, max_work=MAX_WORK)


def oracle_round(fight: Fight, marks: int, taken: int) -> dict[tuple[int, int], Fraction]:
    """One round from the rules as the Rulings page states them, independent of the
    tracker module: spend 2 (3 with exactly 3 left or when always taking the extra die),
    remove a die on a failed offense or a successful defence if any is left, a defence
    ultra or fewer than 2 dice end the phase; successes and ultras mark; the fight stops
    the moment the goal fills or the damage limit is reached."""
    order = (fight.first_phase, fight.first_phase.other)

    @cache
    def go(index: int, left: int, m: int, t: int) -> dict[tuple[int, int], Fraction]:
        if index == 2:
            return {(m, t): Fraction(1)}
        phase = order[index]
        if left < 2:
            nxt = index + 1
            return go(nxt, fight.pool(order[nxt]) if nxt < 2 else 0, m, t)
        always = fight.extra(phase) == ALWAYS
        spend = spent(left, always)
        out: dict[tuple[int, int], Fraction] = {}
        for outcome, p in counts(phase, spend).items():
            rest = dice_after(phase, outcome, left, spend)
            m2 = m + (outcome in (Outcome.SUCCESS, Outcome.ULTRA))
            t2 = t + (fight.damage_limit is not None and phase is Phase.DEFENCE
                      and outcome is Outcome.FAILURE)
            if m2 >= fight.goal_spaces or (fight.damage_limit and t2 >= fight.damage_limit):
                tail = {(m2, t2): Fraction(1)}
            elif phase is Phase.DEFENCE and outcome is Outcome.ULTRA:
                tail = go(index + 1, fight.pool(order[index + 1]) if index == 0 else 0, m2, t2)
            else:
                tail = go(index, rest, m2, t2)
            for key, q in tail.items():
                out[key] = out.get(key, Fraction(0)) + p * q
        return out

    return go(0, fight.pool(order[0]), marks, taken)


def oracle(fight: Fight, rounds: int) -> tuple[dict[str, Fraction], list[dict[str, Fraction]],
                                              dict[int, Fraction]]:
    """Outcomes, the chance of each by each round, and the damage taken at the end."""
    live = {(0, 0): Fraction(1)}
    totals: dict[str, Fraction] = {}
    by_round = []
    taken_dist: dict[int, Fraction] = {}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (m, t), p in live.items():
            for (m2, t2), q in oracle_round(fight, m, t).items():
                end = (GOAL if m2 >= fight.goal_spaces else
                       WORN_DOWN if fight.damage_limit and t2 >= fight.damage_limit else None)
                if end:
                    totals[end] = totals.get(end, Fraction(0)) + p * q
                    taken_dist[t2] = taken_dist.get(t2, Fraction(0)) + p * q
                else:
                    nxt[(m2, t2)] = nxt.get((m2, t2), Fraction(0)) + p * q
        live = nxt
        by_round.append(dict(totals))
    for (_, t), p in live.items():
        totals[solver.STILL_FIGHTING] = totals.get(solver.STILL_FIGHTING, Fraction(0)) + p
        taken_dist[t] = taken_dist.get(t, Fraction(0)) + p
    return totals, by_round, taken_dist


@pytest.mark.parametrize("fight, rounds", [
    (Fight(5, 5, 6), 8),
    (Fight(3, 7, 4, damage_limit=3), 6),
    (Fight(4, 4, 3, offense_extra=ALWAYS, defence_extra=ALWAYS, damage_limit=2), 5),
    (Fight(7, 3, 5, first_phase=Phase.DEFENCE, damage_limit=4), 6),
    (Fight(6, 6, 2, defence_extra=ALWAYS), 4),
])
def test_chain_matches_the_rules_oracle(fight: Fight, rounds: int) -> None:
    answer = solve(fight, rounds)
    totals, by_round, taken = oracle(fight, rounds)
    assert {k: v for k, v in answer.outcomes.items() if v} == totals
    for mine, theirs in zip(answer.by_round, by_round):
        assert {k: v for k, v in mine.items() if v} == theirs
    if fight.damage_limit is not None:
        assert answer.losses["a"] == dict(sorted(taken.items()))


def test_one_round_matches_every_face_played_through_the_tracker() -> None:
    """3 dice a side: one action of three dice per phase, 216 x 216 rolls."""
    fight = Fight(3, 3, 2, damage_limit=1)
    counts_end: dict[str, int] = {}
    start = advance(None, Start(3, 3, goal_spaces=2)).state
    for off in itertools.product(range(1, 7), repeat=3):
        after = advance(start, Action(off)).state
        for dfn in itertools.product(range(1, 7), repeat=3):
            step = advance(after, Action(dfn))
            failed = step.report.outcome is Outcome.FAILURE
            end = (GOAL if step.state.goal_marked >= 2 else WORN_DOWN if failed
                   else solver.STILL_FIGHTING)
            counts_end[end] = counts_end.get(end, 0) + 1
    assert dice_for_action(start, False) == 3
    expected = {k: Fraction(n, 216 ** 2) for k, n in counts_end.items()}
    assert {k: v for k, v in solve(fight, 1).outcomes.items() if v} == expected


def test_goal_of_one_space_with_three_dice_a_side_is_geometric() -> None:
    # one 3-die action per phase: the round marks with 1 - (1 - a)(1 - d)
    a = counts(Phase.OFFENSE, 3)
    d = counts(Phase.DEFENCE, 3)
    mark_a = a[Outcome.SUCCESS] + a[Outcome.ULTRA]
    mark_d = d[Outcome.SUCCESS] + d[Outcome.ULTRA]
    q = 1 - (1 - mark_a) * (1 - mark_d)
    result = api.run(NAME, {"goal_spaces": 1, "offense_dice": 3, "defence_dice": 3,
                            "max_rounds": 10})["result"]
    for r in range(1, 11):
        assert Fraction(result["by_round_exact"][str(r)][GOAL]) == 1 - (1 - q) ** r
    assert Fraction(result["outcomes_exact"][solver.STILL_FIGHTING]) == (1 - q) ** 10


def test_phase_endings_agree_with_the_phase_odds_and_the_rules() -> None:
    for phase in Phase:
        for dice in range(3, 8):
            for extra in ex.ExtraDie.ALL:
                endings = phase_endings(phase, dice, extra)
                assert sum(endings.values()) == 1
                actions: dict[int, Fraction] = {}
                for (n, _, _), p in endings.items():
                    actions[n] = actions.get(n, Fraction(0)) + p
                tallies = ex.phase_odds(phase, dice, extra).tallies
                by_tally: dict[int, Fraction] = {}
                for tally, p in tallies.items():
                    by_tally[sum(tally)] = by_tally.get(sum(tally), Fraction(0)) + p
                assert actions == by_tally
                if phase is Phase.OFFENSE:
                    assert not any(e == CUT_SHORT for (_, _, e) in endings)
    # 4 offense dice: a failure (15/36) leaves 4 - 2 - 1 = 1 die, which is lost
    four = phase_endings(Phase.OFFENSE, 4, AUTO)
    assert sum(p for (_, _, e), p in four.items() if e == LONE_DIE) == Fraction(15, 36)
    # a defence ultra with two dice: 1/36 of first actions cut a 5-die phase short
    five = phase_endings(Phase.DEFENCE, 5, AUTO)
    assert sum(p for (_, _, e), p in five.items() if e == CUT_SHORT) == Fraction(1, 36)


def test_a_twelve_space_tracker_is_answered_exactly() -> None:
    result = api.run(NAME, {"goal_spaces": 12})["result"]
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    totals, _, _ = oracle(Fight(5, 5, 12), 20)
    assert {k: Fraction(v) for k, v in result["outcomes_exact"].items() if Fraction(v)} == totals


def test_simulation_agrees_with_the_exact_answer() -> None:
    fight = Fight(5, 4, 5, damage_limit=6)
    exact = solve(fight, 20).outcomes
    estimate = play_many(fight, max_rounds=20, trials=2000, rng=random.Random(2))
    for name, est in estimate.items():
        assert abs(est.p - float(exact[name])) < 0.04, (name, est, exact[name])


def test_result_shape_explanation_and_charts() -> None:
    reply = api.run(NAME, {"damage_limit": 4})
    assert reply["ok"], reply
    result = reply["result"]
    assert list(result["outcomes_exact"])[:2] == [GOAL, WORN_DOWN]
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    assert sum(Fraction(v) for v in result["losses_a_exact"].values()) == 1
    assert sum(Fraction(v) for v in result["actions_defence_exact"].values()) == 1
    text = reply["explanation"]
    for link in ("/phases/tracker/#spending-dice", "/phases/tracker/#removing-dice",
                 "/phases/momentum/#combat-momentum", "/rulings/#a-fight-to-the-goal",
                 "/phases/actions/#defence-outcomes"):
        assert link in text
    keys = [c["key"] for c in reply["display"]["charts"]]
    assert keys == ["outcomes", "end_round", "losses_a", "actions_offense", "actions_defence"]
    plain = api.run(NAME, {})
    assert "losses_a" not in plain["result"] and WORN_DOWN not in plain["result"]["outcomes"]


@pytest.mark.parametrize("seed", range(10))
def test_roll_plays_to_an_outcome_of_the_exact_answer(seed: int) -> None:
    inputs = {"goal_spaces": 3, "damage_limit": 2, "max_rounds": 3, "offense_dice": 4}
    exact = api.run(NAME, inputs)["result"]["outcomes_exact"]
    rolled = api.roll(NAME, inputs, random.Random(seed))["result"]
    assert rolled["outcome"] in exact
    assert len(rolled["log"]) == rolled["rounds"] and rolled["log"][0].startswith("Round 1:")
    assert rolled["dice"] and all(d["die"] == "d6" and 1 <= d["face"] <= 6 for d in rolled["dice"])
    assert rolled["summary"].startswith(rolled["outcome"])


def test_too_big_with_a_damage_limit_is_answered_saying_how_precisely() -> None:
    """Once refused (issue 46.6), now answered without the exact walk: the explanation
    says how the answer was found and how precise it is."""
    reply = api.run(NAME, {"goal_spaces": 20, "damage_limit": 20, "max_rounds": 100})
    result = reply["result"]
    assert reply["ok"] and result["method"] in ("pruned", "simulation")
    if result["method"] == "pruned":
        assert 0 < result["error_bound"] <= solver.MAX_ERROR
        assert "**Exact to within" in reply["explanation"]
    else:
        assert "2,400" in result["simulated_because"]
        assert "**A simulation, not exact odds.**" in reply["explanation"]
    assert dict(reply["display"]["headline"])["Precision"] == result["precision"]


@pytest.mark.parametrize("inputs, field", [
    ({"goal_spaces": 0}, "goal_spaces"), ({"goal_spaces": 21}, "goal_spaces"),
    ({"offense_dice": 1}, "offense_dice"), ({"defence_dice": 8}, "defence_dice"),
    ({"first_phase": "ambush"}, "first_phase"), ({"damage_limit": 0}, "damage_limit"),
    ({"momentum": 3}, "momentum"),
])
def test_bad_inputs_name_the_field(inputs: dict, field: str) -> None:
    reply = api.run(NAME, inputs)
    assert not reply["ok"] and reply["error"]["field"] == field


def test_the_rulings_figures_for_the_opening_phase() -> None:
    base = {"goal_spaces": 6, "damage_limit": 4}
    offense = api.run(NAME, {**base, "first_phase": "offense"})["result"]
    defence = api.run(NAME, {**base, "first_phase": "defence"})["result"]
    assert f"{offense['outcomes'][GOAL]:.2%}" == "9.72%"
    assert f"{defence['outcomes'][GOAL]:.2%}" == "6.87%"
    # without a limit the order within a round does not change the round the goal fills
    plain = [api.run(NAME, {"first_phase": f})["result"]["by_round_exact"]
             for f in ("offense", "defence")]
    assert plain[0] == plain[1]


def test_every_rule_link_points_at_an_existing_heading() -> None:
    import re
    from pathlib import Path

    from markdown.extensions.toc import slugify

    docs = Path(__file__).resolve().parents[2] / "docs"
    for inputs in ({}, {"damage_limit": 3, "first_phase": "defence"}):
        text = api.run(NAME, inputs)["explanation"]
        found = re.findall(r"\]\((/[^)#]*)#([^)]+)\)", text)
        assert len(found) >= 8
        for page, anchor in found:
            source = (docs / f"{page.strip('/')}.md").read_text()
            slugs = {slugify(m.group(1).strip(), "-")
                     for m in re.finditer(r"^#{1,6} (.+)$", source, re.M)}
            assert anchor in slugs, f"{page}#{anchor}"
