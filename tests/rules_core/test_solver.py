"""The fight solver: exact Markov-chain answers against hand-worked cases, for small
fights written here against the one :class:`rules_core.solver.Fight` interface."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest

from rules_core import fight_result, solver
from rules_core.dice.distribution import percent
from tests.rules_core.support import play_many

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
    estimate = play_many(Duel(), max_rounds=20, trials=4000, rng=rng)
    for name, est in estimate.items():
        assert est.low <= float(exact[name]) <= est.high or abs(est.p - float(exact[name])) < 0.03


def test_a_simulated_answer_counts_each_fight_played() -> None:
    """:func:`solver.simulated` against fights scripted here, every figure counted by
    hand: B wins in round 2, A in round 1, still going at the cap of 3, both fall in 2."""
    script = iter([((0, 1), 2), ((1, 0), 1), ((2, 2), 3), ((0, 0), 2)])
    got = solver.simulated(Duel(), max_rounds=3, trials=4, play_once=lambda _: next(script))
    assert got.trials == 4
    assert got.outcomes == {"A wins": 0.25, "B wins": 0.25, "Both fall": 0.25,
                            solver.STILL_FIGHTING: 0.25}
    assert got.by_round == [{"A wins": 0.25, "B wins": 0.0, "Both fall": 0.0},
                            {"A wins": 0.25, "B wins": 0.25, "Both fall": 0.25},
                            {"A wins": 0.25, "B wins": 0.25, "Both fall": 0.25}]
    assert got.ends_in == {1: 0.25, 2: 0.5}
    assert got.expected_rounds == (2 + 1 + 3 + 2) / 4
    assert got.losses == {"a": {0: 0.25, 1: 0.25, 2: 0.5}, "b": {0: 0.25, 1: 0.25, 2: 0.5}}
    low, high = got.intervals["A wins"]
    assert (low, high) == (solver.wilson(1, 4).low, solver.wilson(1, 4).high)
    data = fight_result.to_result(got, (("a", "A lost"), ("b", "B lost")))
    assert data["method"] == "simulation" and data["trials"] == 4
    assert "outcomes_exact" not in data and "error_bound" not in data
    assert fight_result.headline(data)[0] == ("A wins", f"25.0% ({percent(low)} to {percent(high)})")
    note = fight_result.simulation_note(data, "Too large.")
    assert "**A simulation, not exact odds.** Too large. So the fight was played 4 times" in note


def test_a_simulation_stops_beginning_fights_at_its_rounds_budget() -> None:
    """No fight is begun once the rounds played reach ``max_work``: here after the third
    (2 + 1 + 3 rounds), however many trials were asked for."""
    script = iter([((0, 1), 2), ((1, 0), 1), ((2, 2), 3), ((0, 0), 2)])
    got = solver.simulated(Duel(), max_rounds=3, trials=100, max_work=4,
                           play_once=lambda _: next(script))
    assert got.trials == 3 and got.outcomes[solver.STILL_FIGHTING] == pytest.approx(1 / 3)


def test_a_seeded_simulation_holds_the_exact_answer_in_its_intervals() -> None:
    def once(rng: random.Random) -> tuple[tuple[int, int], int]:
        played = solver.play(Duel(), max_rounds=6, rng=rng)
        return played.state, played.rounds
    got = solver.simulated(Duel(), max_rounds=6, trials=3000, play_once=once)
    exact = solver.solve(Duel(), max_rounds=6)
    for name, p in exact.outcomes.items():
        low, high = got.intervals[name]
        assert low <= float(p) <= high, name
    assert got.expected_rounds == pytest.approx(float(exact.expected_rounds), rel=0.05)


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


class UnevenDuel(Duel):
    """A longer duel whose moves have unlike denominators (1/7, 3/10, 5/11), so that the
    solver's running denominator grows and is reduced round after round."""

    def start(self) -> tuple[int, int]:
        return (4, 3)

    def step(self, state: tuple[int, int]) -> solver.Moves:
        a, b = state
        pa = Fraction(3, 10) if a > 2 else Fraction(1, 7)
        pb = Fraction(5, 11)
        return solver.whole_moves(
            [((max(a - bh, 0), max(b - ah, 0)), (pa if ah else 1 - pa) * (pb if bh else 1 - pb))
             for ah in (0, 1) for bh in (0, 1)])

    def losses(self, state: tuple[int, int]) -> dict[str, int]:
        return {"a": 4 - state[0], "b": 3 - state[1]}


def reference_solve(fight, max_rounds: int) -> solver.Odds:
    """The chain walked in plain Fractions, state by state (slow, obviously right)."""
    live = {fight.start(): Fraction(1)}
    totals = {name: Fraction(0) for name in fight.outcome_order}
    ends_in: dict[int, Fraction] = {}
    losses: dict[tuple[str, int], Fraction] = {}
    by_round = []
    for r in range(1, max_rounds + 1):
        nxt: dict = {}
        for state, p in live.items():
            own, moves = fight.step(state)
            for target, ways in moves:
                q = p * Fraction(ways, own)
                ended = fight.outcome(target)
                if ended is None:
                    nxt[target] = nxt.get(target, Fraction(0)) + q
                    continue
                totals[ended] = totals.get(ended, Fraction(0)) + q
                ends_in[r] = ends_in.get(r, Fraction(0)) + q
                for key in fight.losses(target).items():
                    losses[key] = losses.get(key, Fraction(0)) + q
        live = nxt
        by_round.append(dict(totals))
    still = sum(live.values(), Fraction(0))
    for state, p in live.items():
        for key in fight.losses(state).items():
            losses[key] = losses.get(key, Fraction(0)) + p
    outcomes = dict(totals)
    if still:
        outcomes[solver.STILL_FIGHTING] = still
    dists: dict[str, dict[int, Fraction]] = {}
    for (side, lost), p in sorted(losses.items()):
        dists.setdefault(side, {})[lost] = p
    expected = sum((r * p for r, p in ends_in.items()), Fraction(0)) + max_rounds * still
    return solver.Odds(outcomes, by_round, ends_in, expected, dists, 0, max_rounds)


@pytest.mark.parametrize("rounds", [1, 5, 40])
def test_whole_number_walk_equals_a_plain_fraction_walk(rounds) -> None:
    got = solver.solve(UnevenDuel(), max_rounds=rounds)
    ref = reference_solve(UnevenDuel(), rounds)
    assert got.outcomes == ref.outcomes and list(got.outcomes) == list(ref.outcomes)
    assert got.by_round == ref.by_round
    assert got.ends_in == ref.ends_in
    assert got.expected_rounds == ref.expected_rounds
    assert got.losses == ref.losses


def test_a_cost_budget_refuses_as_the_work_goes() -> None:
    assert solver.solve(UnevenDuel(), max_rounds=40, max_cost=10**6).outcomes
    with pytest.raises(solver.TooLarge) as err:
        solver.solve(UnevenDuel(), max_rounds=40, max_cost=100)
    assert "100" in str(err.value)


@dataclass(frozen=True)
class Chain:
    """States 0..length-1 in a row: each round a state stays with 1/2 or moves on with
    1/2, and the last one moving on ends the fight. State k is first reached in round
    k + 1; every state reached stays live to the cap (its move to itself)."""

    length: int
    built: list[int]
    outcome_order: tuple[str, ...] = ("A wins",)

    def start(self) -> int:
        return 0

    def step(self, state: int) -> solver.Moves:
        self.built.append(state)
        return solver.whole_moves([(state, HALF), (state + 1, HALF)])

    def outcome(self, state: int) -> str | None:
        return "A wins" if state == self.length else None

    def losses(self, state: int) -> dict[str, int]:
        return {}


def test_work_certain_to_come_refuses_before_the_states_are_built() -> None:
    """Every live state's moves are followed each round to the cap when it can stay as
    it is: past the limit with that work still to come, the fight is refused at once,
    before the rest of its states are built. Exactly what fits is still answered."""
    length, rounds = 30, 40
    # the moves followed: two a live state a round, states 0..r-1 live in round r
    total = sum(2 * min(r, length) for r in range(1, rounds + 1))
    fits = solver.solve(Chain(length, []), max_rounds=rounds, max_work=total)
    assert sum(fits.outcomes.values()) == 1
    for limit in (total - 1, total // 2, total // 5):
        built: list[int] = []
        with pytest.raises(solver.TooLarge) as err:
            solver.solve(Chain(length, built), max_rounds=rounds, max_work=limit)
        assert f"{limit:,}" in str(err.value)
        # refused in the round where the certain work passes the limit: state r - 1
        # is built in round r, and by then rounds x 2 moves of each built state are due
        certain_round = next(r for r in range(1, rounds + 1)
                             if sum(2 * min(k, length) for k in range(1, r))
                             + 2 * min(r, length) * (rounds - r + 1) > limit)
        assert len(built) == min(certain_round, length), (limit, len(built))
    # the same bound for the cost, which weighs each move by at least one
    with pytest.raises(solver.TooLarge):
        solver.solve(Chain(length, built := []), max_rounds=rounds, max_cost=total // 5)
    assert len(built) < length
