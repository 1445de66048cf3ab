"""The shared engagement engine: exact Markov-chain answers against hand-worked cases."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules_core import engagement as eng

HALF = Fraction(1, 2)


def coin_fight(state: int):
    """One attack a round that ends the fight with chance 1/2."""
    return [(1, HALF), (0, HALF)]


def ended(state: int) -> str | None:
    return "A wins" if state == 1 else None


def test_one_attack_a_round_ends_by_round_r_with_one_minus_half_to_the_r() -> None:
    result = eng.solve(0, coin_fight, ended, max_rounds=12, outcome_order=("A wins",))
    for r, row in enumerate(result.by_round, 1):
        assert row["A wins"] == 1 - HALF**r
    assert result.outcomes == {"A wins": 1 - HALF**12, eng.STILL_FIGHTING: HALF**12}
    assert sum(result.outcomes.values()) == 1
    # expected rounds of a geometric fight capped at n: sum_{r<n} P(T > r) = 2 - 2^(1-n)
    assert result.expected_rounds == 2 - HALF**11


def test_a_fight_over_before_it_starts() -> None:
    result = eng.solve(1, coin_fight, ended, max_rounds=5)
    assert result.outcomes == {"A wins": 1}
    assert result.ends_in == {0: 1}
    assert result.expected_rounds == 0


def duel(state: tuple[int, int]):
    """Two sides of hit points; each round A hits with 1/2 and B with 1/3, at once."""
    a, b = state
    out = []
    for a_hits, pa in ((1, HALF), (0, HALF)):
        for b_hits, pb in ((1, Fraction(1, 3)), (0, Fraction(2, 3))):
            out.append(((max(a - b_hits, 0), max(b - a_hits, 0)), pa * pb))
    return out


def duel_outcome(state: tuple[int, int]) -> str | None:
    a, b = state
    if a == 0 and b == 0:
        return "Both fall"
    if b == 0:
        return "A wins"
    if a == 0:
        return "B wins"
    return None


def test_duel_matches_brute_force_enumeration_of_every_dice_sequence() -> None:
    rounds = 6
    result = eng.solve((2, 2), duel, duel_outcome, max_rounds=rounds,
                       losses=lambda s: {"a": 2 - s[0], "b": 2 - s[1]},
                       outcome_order=("A wins", "B wins", "Both fall"))
    # brute force: every sequence of per-round results, stopping when the fight ends
    totals: dict[str, Fraction] = {}
    losses_a: dict[int, Fraction] = {}

    def walk(state, p, r):
        o = duel_outcome(state)
        if o is None and r == rounds:
            o = eng.STILL_FIGHTING
        if o is not None:
            totals[o] = totals.get(o, Fraction(0)) + p
            losses_a[2 - state[0]] = losses_a.get(2 - state[0], Fraction(0)) + p
            return
        for nxt, q in duel(state):
            walk(nxt, p * q, r + 1)

    walk((2, 2), Fraction(1), 0)
    assert result.outcomes == {k: totals.get(k, Fraction(0)) for k in result.outcomes}
    assert set(totals) <= set(result.outcomes)
    assert result.losses["a"] == dict(sorted(losses_a.items()))
    assert result.by_round[-1]["A wins"] == result.outcomes["A wins"]


def test_too_many_states_is_refused_not_approximated() -> None:
    def spread(state: int):
        return [(state * 2, HALF), (state * 2 + 1, HALF)]

    with pytest.raises(eng.TooLarge) as err:
        eng.solve(1, spread, lambda s: None, max_rounds=20, max_states=1000)
    assert "1,000" in str(err.value)


def test_play_and_simulate_agree_with_the_exact_answer() -> None:
    def sample(state: tuple[int, int], rng: random.Random):
        a, b = state
        a_hit, b_hit = rng.random() < 0.5, rng.random() < 1 / 3
        nxt = (max(a - b_hit, 0), max(b - a_hit, 0))
        return nxt, f"A {'hits' if a_hit else 'misses'}, B {'hits' if b_hit else 'misses'}"

    rng = random.Random(7)
    final, outcome, rounds, log = eng.play((2, 2), sample, duel_outcome, max_rounds=20, rng=rng)
    assert outcome in {"A wins", "B wins", "Both fall", eng.STILL_FIGHTING}
    assert len(log) == rounds and log[0].startswith("Round 1:")
    exact = eng.solve((2, 2), duel, duel_outcome, max_rounds=20).outcomes
    estimate = eng.simulate((2, 2), sample, duel_outcome, max_rounds=20, trials=4000, rng=rng)
    for name, est in estimate.items():
        assert est.low <= float(exact[name]) <= est.high or abs(est.p - float(exact[name])) < 0.03


def test_result_json_is_exact_and_sums_to_one() -> None:
    result = eng.solve((2, 2), duel, duel_outcome, max_rounds=3,
                       losses=lambda s: {"a": 2 - s[0], "b": 2 - s[1]})
    data = eng.to_result(result, sides=(("a", "Side A lost"), ("b", "Side B lost")))
    assert sum(Fraction(v) for v in data["outcomes_exact"].values()) == 1
    assert sum(Fraction(v) for v in data["end_round_exact"].values()) == 1
    assert sum(Fraction(v) for v in data["losses_a_exact"].values()) == 1
    assert set(data["by_round_exact"]) == {"1", "2", "3"}
    assert [c.key for c in eng.charts((("a", "A"), ("b", "B")))] == \
        ["outcomes", "end_round", "losses_a", "losses_b"]
    assert eng.headline(data)[-1][0] == "Expected rounds"
    assert "By round" in eng.by_round_table(data)
