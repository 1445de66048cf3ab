"""phases.engagement with a party: each character attacking once a phase, hit points and
damage per failed defence (one character at a time, or spread), and pools of two dice;
against an oracle written from the rules and the Rulings page, every face enumerated for
one round, setups that must agree, and seeded fights with real dice."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.phases.fight import GOAL, MAX_HP_STATES, MAX_WORK, WORN_DOWN, Fight
from rules_core.phases.tables import Phase
from tests.rules_core.phases_oracle import down_after, oracle
from tests.rules_core.support import play_many

NAME = "phases.engagement"


def exact(fight: Fight, rounds: int) -> dict[str, Fraction]:
    answer = solver.solve(fight, max_rounds=rounds, max_work=MAX_WORK)
    return {k: v for k, v in answer.outcomes.items() if v}


@pytest.mark.parametrize("fight, rounds", [
    (Fight(7, 5, 5, party_size=2), 6),
    (Fight(6, 6, 4, "always", "always", party_size=1), 5),
    (Fight(7, 4, 6, damage_limit=6, party_size=3, hits_each=2), 8),
    (Fight(7, 4, 6, damage_limit=6, party_size=3, hits_each=2, spread=True), 8),
    (Fight(5, 7, 5, first_phase=Phase.DEFENCE, damage_limit=6, party_size=2, hits_each=3,
           spread=True), 7),
    (Fight(6, 5, 4, damage_limit=4, party_size=4, hits_each=1), 6),
    (Fight(2, 2, 3, damage_limit=3), 8),
    (Fight(2, 6, 4, "always", "always", damage_limit=4, party_size=2, hits_each=2), 6),
    (Fight(7, 2, 3, damage_limit=2, party_size=2, hits_each=1, first_phase=Phase.DEFENCE), 6),
    (Fight(4, 3, 5, damage_limit=5), 6),  # one side, five hits: the limit as before
])
def test_chain_matches_the_oracle(fight: Fight, rounds: int) -> None:
    assert exact(fight, rounds) == oracle(fight, rounds)


def test_spread_and_focus_differ_only_in_who_falls() -> None:
    assert [down_after(h, 3, 2, False) for h in range(7)] == [0, 0, 1, 1, 2, 2, 3]
    assert [down_after(h, 3, 2, True) for h in range(7)] == [0, 0, 0, 0, 1, 2, 3]
    focus = Fight(7, 4, 6, damage_limit=6, party_size=3, hits_each=2)
    spread = Fight(7, 4, 6, damage_limit=6, party_size=3, hits_each=2, spread=True)
    for h in range(7):
        assert focus.standing(h) == 3 - down_after(h, 3, 2, False)
        assert spread.standing(h) == 3 - down_after(h, 3, 2, True)
    # the party keeps more attackers longer when the hits are spread: more goals
    assert exact(spread, 10)[GOAL] > exact(focus, 10)[GOAL]


def test_one_round_matches_every_face() -> None:
    """A lone character with 7 offense dice attacks once (2 dice); the enemy has 2 dice,
    one defence action; 1 hit point: 36 x 36 rolls, classified from the rules text."""
    fight = Fight(7, 2, 2, damage_limit=1, party_size=1, hits_each=1)
    tally: dict[str, int] = {}
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        marks = (a + b >= 10) + (c + d >= 10)
        failed = c + d <= 6 and not c == d == 6
        end = GOAL if marks >= 2 else WORN_DOWN if failed else solver.STILL_FIGHTING
        tally[end] = tally.get(end, 0) + 1
    assert exact(fight, 1) == {k: Fraction(n, 36 ** 2) for k, n in tally.items()}


def inputs(**kw: object) -> dict:
    return api.run(NAME, kw)


@pytest.mark.parametrize("a, b", [
    ({"damage_limit": 4}, {"hit_points": 4}),
    ({"damage_limit": 3}, {"hit_points": 5, "damage": 2}),
    ({"hit_points": 3, "damage": 3}, {"hit_points": 1}),
    ({"party_size": 3, "hit_points": 1}, {"party_size": 3, "hit_points": 1, "targeting": "spread"}),
    ({}, {"targeting": "spread"}),
    ({"party_size": 3, "hit_points": 2, "after_attacks": "tasks"}, {"damage_limit": 6}),
    ({"party_size": 2, "after_attacks": "tasks"}, {}),
    ({"damage_limit": 4}, {"damage_limit": 4, "party_size": 8}),  # 7 dice give 3 actions at most
])
def test_setups_that_must_agree(a: dict, b: dict) -> None:
    ra, rb = inputs(**a), inputs(**b)
    assert ra["ok"] and rb["ok"], (ra, rb)
    assert ra["result"]["outcomes_exact"] == rb["result"]["outcomes_exact"]
    assert ra["result"]["by_round_exact"] == rb["result"]["by_round_exact"]


def test_api_builds_the_fight_the_oracle_plays() -> None:
    reply = inputs(offense_dice=6, defence_dice=2, goal_spaces=5, party_size=2,
                   hit_points=5, damage=2, targeting="spread", max_rounds=6)
    fight = Fight(6, 2, 5, damage_limit=6, party_size=2, hits_each=3, spread=True)
    assert {k: Fraction(v) for k, v in reply["result"]["outcomes_exact"].items()
            if Fraction(v)} == oracle(fight, 6)
    text = reply["explanation"]
    for bit in ("2 characters", "5 hit points", "3 failed defences", "least hurt",
                "/rulings/#hit-points-and-party-size", "/rulings/#a-pool-of-two-dice"):
        assert bit in text, bit


def test_defaults_are_unchanged() -> None:
    plain = inputs()
    same = inputs(party_size=None, hit_points=None, damage=1, targeting="focus")
    assert plain == same
    assert "party" not in plain["explanation"] and "hit points" not in plain["explanation"]


@pytest.mark.parametrize("fight", [
    Fight(7, 4, 5, damage_limit=6, party_size=3, hits_each=2),
    Fight(2, 5, 4, damage_limit=4, party_size=2, hits_each=2, spread=True),
])
def test_seeded_dice_agree_with_the_exact_odds(fight: Fight) -> None:
    want = solver.solve(fight, max_rounds=20, max_work=MAX_WORK).outcomes
    got = play_many(fight, max_rounds=20, trials=1200, rng=random.Random(29))
    for name, est in got.items():
        p = float(want[name])
        assert est.low - 0.01 <= p <= est.high + 0.01, (name, est, p)


@pytest.mark.parametrize("seed", range(8))
def test_play_the_fight_reports_who_is_standing(seed: int) -> None:
    kw = {"party_size": 2, "hit_points": 2, "goal_spaces": 4, "offense_dice": 2,
          "max_rounds": 5}
    exact_outcomes = api.run(NAME, kw)["result"]["outcomes_exact"]
    rolled = api.roll(NAME, kw, random.Random(seed))["result"]
    assert rolled["outcome"] in exact_outcomes
    assert 0 <= rolled["standing"] <= 2
    assert f"{rolled['standing']}/2 characters standing" in rolled["summary"]
    if rolled["outcome"] == WORN_DOWN:
        assert rolled["standing"] == 0 and rolled["damage_taken"] == 4


def test_a_lone_attacker_ends_the_offense_after_one_action() -> None:
    rolled = api.roll(NAME, {"party_size": 1, "offense_dice": 7, "max_rounds": 1},
                      random.Random(3))["result"]
    assert "all 1 standing characters have attacked" in rolled["log"][0]
    assert rolled["log"][0].count("offense ") == 1


@pytest.mark.parametrize("kw, field, bits", [
    ({"party_size": 0}, "party_size", ("1", "8", "0")),
    ({"party_size": 9}, "party_size", ("9",)),
    ({"hit_points": 0}, "hit_points", ("0", "40")),
    ({"hit_points": 41}, "hit_points", ("41",)),
    ({"damage": 0, "hit_points": 3}, "damage", ("0", "20")),
    ({"targeting": "random"}, "targeting", ("random",)),
    ({"offense_dice": 1}, "offense_dice", ("1", "2")),
    ({"defence_dice": 1}, "defence_dice", ("1",)),
    ({"hit_points": 3, "damage_limit": 2}, "hit_points", ("Hit points of each character", "3",
                                                          "Full-damage results")),
    ({"damage": 2}, "damage", ("Damage from each failed defence", "received 2")),
])
def test_bad_inputs_are_refused_naming_the_field(kw: dict, field: str, bits: tuple) -> None:
    reply = api.run(NAME, kw)
    assert not reply["ok"] and reply["error"]["field"] == field, reply
    for bit in bits:
        assert bit in reply["error"]["message"], (bit, reply["error"]["message"])


def test_past_the_work_budget_is_answered_not_refused() -> None:
    """Past the exact walk's budget (issue 46.6): the pruned walk answers within its bound,
    and a chain past the exact walk's size is simulated, saying why."""
    reply = api.run(NAME, {"goal_spaces": 20, "hit_points": 20, "offense_dice": 7,
                           "defence_dice": 7, "targeting": "spread"})
    assert reply["ok"] and reply["result"]["method"] in ("pruned", "simulation")
    assert "lower the round cap" in reply["explanation"].lower()
    big = api.run(NAME, {"goal_spaces": 20, "party_size": 8, "hit_points": 40})["result"]
    assert big["method"] == "simulation"
    assert f"{MAX_HP_STATES:,}" in big["simulated_because"] and "6,400" in big["simulated_because"]


def test_two_die_pools_are_one_action_a_phase() -> None:
    reply = api.run(NAME, {"offense_dice": 2, "defence_dice": 2})
    assert reply["ok"]
    for key in ("offense", "defence"):
        assert reply["result"]["phases"][key]["actions_exact"] == {"1": "1"}
    # goal of 1: each round marks unless both actions miss 10+
    one = api.run(NAME, {"offense_dice": 2, "defence_dice": 2, "goal_spaces": 1,
                         "max_rounds": 3})["result"]
    q = 1 - Fraction(30, 36) ** 2
    assert Fraction(one["by_round_exact"]["3"][GOAL]) == 1 - (1 - q) ** 3


def test_the_rulings_worked_cases() -> None:
    base = {"goal_spaces": 6, "offense_dice": 6, "defence_dice": 5}
    party = {**base, "party_size": 3, "hit_points": 2}
    figures = [f"{api.run(NAME, kw)['result']['outcomes'][GOAL]:.2%}" for kw in (
        party, {**party, "targeting": "spread"}, {**party, "after_attacks": "tasks"}, base,
        {**base, "offense_dice": 2}, {**base, "offense_dice": 3})]
    assert figures == ["17.31%", "21.68%", "26.32%", "99.69%", "81.93%", "98.73%"]


def test_rule_links_point_at_existing_headings() -> None:
    import re
    from pathlib import Path

    from markdown.extensions.toc import slugify

    docs = Path(__file__).resolve().parents[2] / "docs"
    text = api.run(NAME, {"party_size": 2, "hit_points": 3, "offense_dice": 2,
                          "after_attacks": "tasks"})["explanation"]
    found = re.findall(r"\]\((/[^)#]*)#([^)]+)\)", text)
    assert ("/rulings/", "hit-points-and-party-size") in found
    assert ("/rulings/", "a-pool-of-two-dice") in found
    for page, anchor in found:
        source = (docs / f"{page.strip('/')}.md").read_text()
        slugs = {slugify(m.group(1).strip(), "-")
                 for m in re.finditer(r"^#{1,6} (.+)$", source, re.M)}
        assert anchor in slugs, f"{page}#{anchor}"
