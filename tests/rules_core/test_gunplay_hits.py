"""Hit odds and chance to hit: every probability checked against enumerating the d10."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import api
from rules_core.gunplay.burst import burst_hits, chance_to_hit

FACES = range(1, 11)


def brute_hits(dc: int, bonus: int, rounds: int, recoil: int) -> dict[str, Fraction]:
    """Count the bullets of each face straight from the rule, bullet by bullet."""
    counts = {k: 0 for k in range(rounds + 1)}
    for (face,) in product(FACES):
        total = face + bonus
        hits = sum(1 for i in range(1, rounds + 1) if total >= dc + recoil * (i - 1))
        counts[hits] += 1
    return {str(k): Fraction(n, 10) for k, n in counts.items()}


def ok(name: str, inputs: dict) -> dict:
    reply = api.run(name, inputs)
    assert reply["ok"], reply
    return reply


# --- the source's examples ---------------------------------------------------------

def test_source_burst_example_two_hits() -> None:
    """DC 16, recoil 2, three rounds, a total of 19: two hits."""
    result = ok("gunplay.hit_odds", {"dc": 16, "bonus": 10, "rounds": 3, "recoil": 2,
                                     "roll_total": 19})["result"]
    assert result["hits"] == 2
    assert [b["needs"] for b in result["bullets"]] == [16, 18, 20]
    assert burst_hits(19, 16, 3, 2) == 2


def test_source_rifle_example_under_the_ruling_and_as_printed() -> None:
    """Rulings: the rifle example is DC 14 (the source prints 13); the roll is
    8 + 1 + 1 + 3 = 13, recoil 2, three rounds."""
    at_14 = ok("gunplay.hit_odds", {"dc": 14, "bonus": 5, "rounds": 3, "recoil": 2,
                                    "roll_total": 13})["result"]
    at_13 = ok("gunplay.hit_odds", {"dc": 13, "bonus": 5, "rounds": 3, "recoil": 2,
                                    "roll_total": 13})["result"]
    assert at_14["hits"] == 0
    assert at_13["hits"] == 1  # the source's "one hit, two misses" holds only for its 13


def test_machine_pistol_example_from_the_bursts_page() -> None:
    for face, hits in ((9, 2), (10, 2), (6, 1), (5, 0)):
        assert burst_hits(face + 6, 12, 10, 3) == hits
    result = ok("gunplay.hit_odds", {"dc": 12, "bonus": 6, "rounds": 10, "recoil": 3})["result"]
    assert result["distribution_exact"] == {"0": "1/2", "1": "3/10", "2": "1/5",
                                            **{str(k): "0" for k in range(3, 11)}}


# --- brute force -------------------------------------------------------------------

@pytest.mark.parametrize("dc,bonus,rounds,recoil", [
    (16, 3, 3, 2), (16, 0, 1, 0), (5, 0, 1, 0), (30, 5, 3, 1), (-5, 0, 4, 3),
    (12, 6, 10, 3), (10, 2, 100, 0), (10, 9, 20, 1), (14, 5, 3, 2), (7, -3, 5, 20),
])
def test_distribution_equals_enumeration(dc: int, bonus: int, rounds: int, recoil: int) -> None:
    result = ok("gunplay.hit_odds", {"dc": dc, "bonus": bonus, "rounds": rounds,
                                     "recoil": recoil})["result"]
    expected = brute_hits(dc, bonus, rounds, recoil)
    assert {k: Fraction(v) for k, v in result["distribution_exact"].items()} == expected
    assert result["distribution"] == {k: float(v) for k, v in expected.items()}
    assert Fraction(result["p_hit_exact"]) == 1 - expected["0"]
    assert result["p_hit"] == float(1 - expected["0"])
    mean = sum(int(k) * p for k, p in expected.items())
    assert Fraction(result["expected_hits_exact"]) == mean


@settings(max_examples=150, deadline=None)
@given(dc=st.integers(-60, 80), bonus=st.integers(-30, 50), rounds=st.integers(1, 100),
       recoil=st.integers(0, 20))
def test_distribution_equals_enumeration_everywhere(dc: int, bonus: int, rounds: int,
                                                    recoil: int) -> None:
    result = ok("gunplay.hit_odds", {"dc": dc, "bonus": bonus, "rounds": rounds,
                                     "recoil": recoil})["result"]
    expected = brute_hits(dc, bonus, rounds, recoil)
    assert {k: Fraction(v) for k, v in result["distribution_exact"].items()} == expected
    # each bullet's own chance is the chance the face reaches its number
    for b in result["bullets"]:
        assert Fraction(b["p_exact"]) == Fraction(sum(f + bonus >= b["needs"] for f in FACES), 10)
    # the expected hits is the sum of the bullets' chances
    assert Fraction(result["expected_hits_exact"]) == sum(Fraction(b["p_exact"]) for b in result["bullets"])


def test_roll_total_agrees_with_the_distribution() -> None:
    """Each face's hits from roll_total add up to the distribution."""
    dc, bonus, rounds, recoil = 15, 4, 5, 2
    counts: dict[str, int] = {}
    for face in FACES:
        hits = ok("gunplay.hit_odds", {"dc": dc, "bonus": bonus, "rounds": rounds, "recoil": recoil,
                                       "roll_total": face + bonus})["result"]["hits"]
        counts[str(hits)] = counts.get(str(hits), 0) + 1
    dist = ok("gunplay.hit_odds", {"dc": dc, "bonus": bonus, "rounds": rounds,
                                   "recoil": recoil})["result"]["distribution_exact"]
    assert {k: Fraction(v) for k, v in dist.items() if Fraction(v)} == \
        {k: Fraction(n, 10) for k, n in counts.items()}


def test_roll_uses_a_real_d10_and_the_same_rule() -> None:
    rng = random.Random(7)
    seen = set()
    inputs = {"dc": 16, "bonus": 3, "rounds": 3, "recoil": 2}
    for _ in range(200):
        reply = api.roll("gunplay.hit_odds", inputs, rng)
        assert reply["ok"]
        result = reply["result"]
        face = result["dice"][0]["face"]
        seen.add(face)
        assert result["dice"][0]["die"] == "d10"
        assert result["total"] == face + 3
        assert result["hits"] == burst_hits(face + 3, 16, 3, 2)
        assert result["summary"].startswith(f"d10 {face} + 3 = {face + 3} vs DC 16")
    assert seen == set(FACES)


# --- chance to hit for a given modifier ---------------------------------------------

@pytest.mark.parametrize("bonus", [-30, -4, 0, 3, 5, 50])
def test_chance_table_equals_enumeration(bonus: int) -> None:
    result = ok("gunplay.hit_chance", {"bonus": bonus})["result"]
    assert "p_hit" not in result
    assert [r["dc"] for r in result["by_dc"]] == list(range(bonus + 1, bonus + 11))
    for row in result["by_dc"]:
        assert Fraction(row["p_exact"]) == Fraction(sum(f + bonus >= row["dc"] for f in FACES), 10)
    assert result["total_exact"] == {str(bonus + f): "1/10" for f in FACES}
    assert result["sure_hit_up_to"] == bonus + 1 and result["impossible_from"] == bonus + 11


@given(bonus=st.integers(-30, 50), dc=st.integers(-60, 80))
def test_chance_to_hit_equals_enumeration(bonus: int, dc: int) -> None:
    result = ok("gunplay.hit_chance", {"bonus": bonus, "dc": dc})["result"]
    expected = Fraction(sum(f + bonus >= dc for f in FACES), 10)
    assert Fraction(result["p_hit_exact"]) == expected == chance_to_hit(dc, bonus)
    assert result["p_hit"] == float(expected)


def test_chance_for_the_rifle_example() -> None:
    """+5 against the ruled DC 14 needs a 9 or 10 on the die."""
    reply = ok("gunplay.hit_chance", {"bonus": 5, "dc": 14})
    assert reply["result"]["p_hit_exact"] == "1/5"
    assert reply["display"]["headline"][0] == ["Chance to hit", "20.0%"]
    assert "9+" in reply["explanation"]


def test_chance_roll_agrees_with_the_rule() -> None:
    rng = random.Random(3)
    for _ in range(100):
        result = api.roll("gunplay.hit_chance", {"bonus": 2, "dc": 8}, rng)["result"]
        face = result["dice"][0]["face"]
        assert result["hit"] == (face + 2 >= 8)
        assert result["summary"].endswith("hit" if result["hit"] else "miss")
    plain = api.roll("gunplay.hit_chance", {"bonus": -2}, rng)["result"]
    assert "hit" not in plain and "vs DC" not in plain["summary"]


@pytest.mark.parametrize("bonus, total", [(5, 60), (5, 5), (5, 16), (-3, -3), (0, 11)])
def test_a_roll_total_the_modifier_cannot_make_is_refused(bonus: int, total: int) -> None:
    reply = api.run("gunplay.hit_odds", {"dc": 12, "bonus": bonus, "roll_total": total})
    assert not reply["ok"] and reply["error"]["field"] == "roll_total"
    message = reply["error"]["message"]
    assert message.startswith("Roll total:")
    assert f"from {bonus + 1} to {bonus + 10}" in message and f"received {total}" in message


@pytest.mark.parametrize("bonus", [-30, 0, 5, 50])
def test_every_total_the_modifier_can_make_is_accepted(bonus: int) -> None:
    for face in range(1, 11):
        reply = api.run("gunplay.hit_odds", {"dc": 12, "bonus": bonus, "rounds": 3, "recoil": 2,
                                             "roll_total": face + bonus})
        assert reply["ok"], reply
        assert reply["result"]["hits"] == burst_hits(face + bonus, 12, 3, 2)
