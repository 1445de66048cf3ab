"""The fight solver: exact Markov-chain answers against hand-worked cases, for small
fights written here against the one :class:`rules_core.solver.Fight` interface."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest

from rules_core import fight_result, solver

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class CoinFight:
    """One attack a round that ends the fight with chance 1/2 (state 1: it has ended)."""

    first: int = 0
    outcome_order: tuple[str, ...] = ("A wins",)

    def start(self) -> int:
        return self.first

    def step(self, state: int) -> solver.Moves:
        return solver.whole_moves([(1, HALF), (0, HALF)])

    def outcome(self, state: int) -> str | None:
        return "A wins" if state == 1 else None

    def losses(self, state: int) -> dict[str, int]:
        return {}

    def sample(self, state: int, dice: solver.Dice) -> tuple[int, str]:
        hit = dice.randint(1, 2) == 1
        return int(hit), "A hits" if hit else "A misses"


def duel(state: tuple[int, int]) -> list[tuple[tuple[int, int], Fraction]]:
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


class Duel:
    """:func:`duel` as a fight, each side's hit points lost as its losses."""

    outcome_order = ("A wins", "B wins", "Both fall")

    def start(self) -> tuple[int, int]:
        return (2, 2)

    def step(self, state: tuple[int, int]) -> solver.Moves:
        return solver.whole_moves(duel(state))

    def outcome(self, state: tuple[int, int]) -> str | None:
        return duel_outcome(state)

    def losses(self, state: tuple[int, int]) -> dict[str, int]:
        return {"a": 2 - state[0], "b": 2 - state[1]}

    def sample(self, state: tuple[int, int], dice: solver.Dice) -> tuple[tuple[int, int], str]:
        a, b = state
        a_hit, b_hit = dice.randint(1, 2) == 1, dice.randint(1, 3) == 1
        nxt = (max(a - b_hit, 0), max(b - a_hit, 0))
        return nxt, f"A {'hits' if a_hit else 'misses'}, B {'hits' if b_hit else 'misses'}"


def test_one_attack_a_round_ends_by_round_r_with_one_minus_half_to_the_r() -> None:
    result = solver.solve(CoinFight(), max_rounds=12)
    for r, row in enumerate(result.by_round, 1):
        assert row["A wins"] == 1 - HALF**r
    assert result.outcomes == {"A wins": 1 - HALF**12, solver.STILL_FIGHTING: HALF**12}
    assert sum(result.outcomes.values()) == 1
    # expected rounds of a geometric fight capped at n: sum_{r<n} P(T > r) = 2 - 2^(1-n)
    assert result.expected_rounds == 2 - HALF**11


def test_a_fight_over_before_it_starts() -> None:
    result = solver.solve(CoinFight(first=1), max_rounds=5)
    assert result.outcomes == {"A wins": 1}
    assert result.ends_in == {0: 1}
    assert result.expected_rounds == 0


def test_whole_moves_are_over_the_least_common_denominator() -> None:
    assert solver.whole_moves([("x", Fraction(1, 6)), ("y", Fraction(0)), ("z", Fraction(5, 6))]) \
        == (6, (("x", 1), ("z", 5)))
    assert solver.whole_moves(duel((2, 2))) == (6, (((1, 1), 1), ((2, 1), 2), ((1, 2), 1),
                                                    ((2, 2), 2)))


def test_duel_matches_brute_force_enumeration_of_every_dice_sequence() -> None:
    rounds = 6
    result = solver.solve(Duel(), max_rounds=rounds)
    # brute force: every sequence of per-round results, stopping when the fight ends
    totals: dict[str, Fraction] = {}
    losses_a: dict[int, Fraction] = {}

    def walk(state, p, r):
        o = duel_outcome(state)
        if o is None and r == rounds:
            o = solver.STILL_FIGHTING
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
    class Spread(CoinFight):
        def step(self, state: int) -> solver.Moves:
            return solver.whole_moves([(state * 2, HALF), (state * 2 + 1, HALF)])

        def outcome(self, state: int) -> str | None:
            return None

    with pytest.raises(solver.TooLarge) as err:
        solver.solve(Spread(first=1), max_rounds=20, max_states=1000)
    assert "1,000" in str(err.value)


def test_play_and_simulate_agree_with_the_exact_answer() -> None:
    rng = random.Random(7)
    played = solver.play(Duel(), max_rounds=20, rng=rng)
    assert played.outcome in {"A wins", "B wins", "Both fall", solver.STILL_FIGHTING}
    assert len(played.log) == played.rounds and played.log[0].startswith("Round 1:")
    # every die rolled is kept, named after its die: a d2 and a d3 each round
    assert [d["die"] for d in played.dice] == ["d2", "d3"] * played.rounds
    exact = solver.solve(Duel(), max_rounds=20).outcomes
    estimate = solver.simulate(Duel(), max_rounds=20, trials=4000, rng=rng)
    for name, est in estimate.items():
        assert est.low <= float(exact[name]) <= est.high or abs(est.p - float(exact[name])) < 0.03


def test_result_json_is_exact_and_sums_to_one() -> None:
    result = solver.solve(Duel(), max_rounds=3)
    data = fight_result.to_result(result, sides=(("a", "Side A lost"), ("b", "Side B lost")))
    assert sum(Fraction(v) for v in data["outcomes_exact"].values()) == 1
    assert sum(Fraction(v) for v in data["end_round_exact"].values()) == 1
    assert sum(Fraction(v) for v in data["losses_a_exact"].values()) == 1
    assert set(data["by_round_exact"]) == {"1", "2", "3"}
    assert [c.key for c in fight_result.charts((("a", "A"), ("b", "B")))] == \
        ["outcomes", "end_round", "losses_a", "losses_b"]
    assert fight_result.headline(data)[-1][0] == "Expected rounds"
    assert "By round" in fight_result.by_round_table(data)
