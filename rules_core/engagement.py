"""Whole engagements: a fight as an absorbing Markov chain over its round-by-round state.

Every system describes its fight the same way and this module does the rest:

- a **start state** (any hashable value: a frozen dataclass or a tuple),
- ``step(state)``: the exact transitions of one round, ``[(next_state, probability), ...]``
  with probabilities as :class:`~fractions.Fraction` summing to 1,
- ``outcome(state)``: the name of how the fight ended ("Side A wins", "B breaks"), or
  ``None`` while it goes on,
- optionally ``losses(state)``: what each side has lost, ``{"a": 2, "b": 5}``.

:func:`solve` walks the chain round by round with exact fractions, so every figure it
returns is exact: the chance of each outcome, the chance the fight has ended by each round
(per outcome), the expected number of rounds and the distribution of each side's losses.
A fight still going at the round cap ends as :data:`STILL_FIGHTING`. Too many live states
or too much work raises :class:`TooLarge` (the calculator turns it into a message naming
the input to lower): never a silent approximation.

The same fight is played with real dice by :func:`play`, fed by the system's own
resolution function, and estimated by :func:`simulate` only where a calculator offers a
clearly labelled simulation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from rules_core.calculator import Chart
from rules_core.dice.distribution import percent
from rules_core.explain import table
from rules_core.fields import IntField

State = TypeVar("State", bound=Hashable)

#: the outcome of a fight that has not ended by the round cap
STILL_FIGHTING = "Still fighting"
#: live states one round may hold before the fight is refused as too large
MAX_STATES = 20_000
#: transitions the whole solution may evaluate before it is refused as too large
MAX_WORK = 3_000_000


#: one state's moves in whole numbers: (denominator, ((next state, ways), ...)), the ways
#: summing to the denominator (``solve(..., whole=True)``)
WholeMoves = tuple[int, Iterable[tuple[Any, int]]]
#: a state's moves as the walk keeps them: (denominator, moves that go on, ways of each
#: outcome, ways of each (side, losses))
_Split = tuple[int, tuple[tuple[Any, int], ...], tuple[tuple[str, int], ...],
               tuple[tuple[tuple[str, int], int], ...]]


class TooLarge(ValueError):
    """The fight's state space is past what can be computed exactly in time."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"{what} is past the limit of {limit:,} for an exact answer")
        self.what = what
        self.limit = limit


@dataclass(frozen=True)
class Engagement:
    """The exact answer for one fight."""

    #: final outcome -> probability; sums to exactly 1
    outcomes: dict[str, Fraction]
    #: ``by_round[r - 1][o]``: the chance the fight has ended with outcome ``o`` by round r
    by_round: list[dict[str, Fraction]]
    #: round -> chance the fight ends in exactly that round (0: over before it starts);
    #: the mass still fighting at the cap is not included
    ends_in: dict[int, Fraction]
    #: rounds fought on average (a fight still going at the cap counts the cap)
    expected_rounds: Fraction
    #: side -> losses -> probability (each sums to 1)
    losses: dict[str, dict[int, Fraction]]
    #: the most live states any round held (a measure of the work done)
    peak_states: int
    max_rounds: int


def solve(
    start: State,
    step: Callable[[State], Iterable[tuple[State, Fraction]]] | Callable[[State], WholeMoves],
    outcome: Callable[[State], str | None],
    *,
    max_rounds: int,
    losses: Callable[[State], Mapping[str, int]] | None = None,
    outcome_order: Sequence[str] = (),
    max_states: int = MAX_STATES,
    max_work: int = MAX_WORK,
    whole: bool = False,
) -> Engagement:
    """Walk the fight's Markov chain round by round, exactly.

    ``outcome_order`` lists the outcomes in the order a reader expects them (every one is
    reported, at probability 0 if it cannot happen); any other outcome follows in order of
    appearance, and :data:`STILL_FIGHTING` comes last when the cap can be reached.

    With ``whole=True``, ``step`` returns its moves as whole numbers instead:
    ``(denominator, ((next_state, ways), ...))``, the ways summing to the denominator
    (faster when the chances have long denominators).
    """
    # Masses are whole numbers over one denominator per round (no gcd on every addition,
    # which dominates once the fractions have thousands of digits); each state's moves
    # are cached as whole numbers over their own least common denominator.
    transitions: dict[Any, _Split] = {}
    loss_mass: dict[tuple[str, int], Fraction] = {}
    visits: dict[Any, Fraction] = {}  # state -> total chance of being in it at a round's start
    totals: dict[str, Fraction] = {name: Fraction(0) for name in outcome_order}
    ends_in: dict[int, Fraction] = {}
    by_round: list[dict[str, Fraction]] = []
    work = 0
    peak = 1

    live: dict[Any, int] = {}
    denominator = 1
    first = outcome(start)
    if first is None:
        live[start] = 1
    else:
        totals[first] = totals.get(first, Fraction(0)) + 1
        if losses is not None:
            loss_mass.update({(side, lost): Fraction(1) for side, lost in losses(start).items()})
        ends_in[0] = Fraction(1)

    for round_no in range(1, max_rounds + 1):
        if not live:
            by_round.append(dict(totals))
            continue
        for state in live:
            if state not in transitions:
                moves: Any = step(state)
                transitions[state] = _split(moves if whole else _whole_moves(moves),
                                            outcome, losses)
        scale = math.lcm(*(transitions[state][0] for state in live))
        nxt: dict[Any, int] = {}
        by_outcome: dict[str, int] = {}
        for state, m in live.items():
            own, going_on, ending, _ = transitions[state]
            work += len(going_on) + len(ending)
            if work > max_work:
                raise TooLarge("The work this fight needs", max_work)
            if losses is not None:
                visits[state] = visits.get(state, Fraction(0)) + Fraction(m, denominator)
            m *= scale // own
            for target, q in going_on:
                if target in nxt:
                    nxt[target] += m * q
                else:
                    nxt[target] = m * q
            for result, q in ending:
                by_outcome[result] = by_outcome.get(result, 0) + m * q
        denominator *= scale
        ended = Fraction(sum(by_outcome.values()), denominator)
        for result, w in by_outcome.items():
            totals[result] = totals.get(result, Fraction(0)) + Fraction(w, denominator)
        if ended:
            ends_in[round_no] = ended
        if nxt:  # keep the whole numbers small: divide out what every mass shares
            shared = math.gcd(denominator, *nxt.values())
            if shared > 1:
                denominator //= shared
                nxt = {state: w // shared for state, w in nxt.items()}
        live = nxt
        peak = max(peak, len(live))
        if len(live) > max_states:
            raise TooLarge("The number of ways this fight can stand after one round", max_states)
        by_round.append(dict(totals))

    still = Fraction(sum(live.values()), denominator)
    if still:
        totals[STILL_FIGHTING] = still
        if losses is not None:
            for state, w in live.items():
                for side, lost in losses(state).items():
                    loss_mass[side, lost] = (loss_mass.get((side, lost), Fraction(0))
                                             + Fraction(w, denominator))
    expected = sum((r * p for r, p in ends_in.items()), Fraction(0)) + max_rounds * still
    ordered = {name: totals.get(name, Fraction(0)) for name in outcome_order}
    ordered.update({k: v for k, v in totals.items() if k not in ordered and k != STILL_FIGHTING})
    if STILL_FIGHTING in totals:
        ordered[STILL_FIGHTING] = totals[STILL_FIGHTING]
    for state, seen in visits.items():
        own, _, _, loss_ways = transitions[state]
        for key, w in loss_ways:
            loss_mass[key] = loss_mass.get(key, Fraction(0)) + seen * Fraction(w, own)
    loss_dists: dict[str, dict[int, Fraction]] = {}
    for (side, lost), p in sorted(loss_mass.items()):
        loss_dists.setdefault(side, {})[lost] = p
    if sum(ordered.values(), Fraction(0)) != 1:  # pragma: no cover - a broken step()
        raise ValueError("the fight's transitions do not sum to 1")
    return Engagement(ordered, by_round, dict(sorted(ends_in.items())), expected,
                      loss_dists, peak, max_rounds)


def _split(moves: WholeMoves,
           outcome: Callable[[Any], str | None],
           losses: Callable[[Any], Mapping[str, int]] | None,
           ) -> _Split:
    """A state's moves split into those that go on and those that end the fight; the
    ending ones summed by outcome, and by (side, losses), which is all the answer needs."""
    own, listed = moves
    going_on: list[tuple[Any, int]] = []
    ending: dict[str, int] = {}
    lost: dict[tuple[str, int], int] = {}
    for target, q in listed:
        result = outcome(target)
        if result is None:
            going_on.append((target, q))
            continue
        ending[result] = ending.get(result, 0) + q
        if losses is not None:
            for side, n in losses(target).items():
                lost[side, n] = lost.get((side, n), 0) + q
    return own, tuple(going_on), tuple(ending.items()), tuple(lost.items())


def _whole_moves(moves: Iterable[tuple[State, Fraction]]) -> tuple[int, tuple[tuple[Any, int], ...]]:
    """One state's moves as whole numbers over their least common denominator."""
    listed = [(target, Fraction(q)) for target, q in moves if q]
    common = math.lcm(*(q.denominator for _, q in listed)) if listed else 1
    return common, tuple((target, q.numerator * (common // q.denominator))
                         for target, q in listed)


def play(
    start: State,
    sample: Callable[[State, random.Random], tuple[State, str]],
    outcome: Callable[[State], str | None],
    *,
    max_rounds: int,
    rng: random.Random,
) -> tuple[State, str, int, list[str]]:
    """Play the fight with real dice: ``sample`` resolves one round with random faces
    through the system's resolution function and returns the new state and a line of log.

    Returns the final state, its outcome (a key of :attr:`Engagement.outcomes`), the rounds
    fought and the log, one line per round.
    """
    state = start
    log: list[str] = []
    ended = outcome(state)
    rounds = 0
    while ended is None and rounds < max_rounds:
        rounds += 1
        state, line = sample(state, rng)
        log.append(f"Round {rounds}: {line}")
        ended = outcome(state)
    return state, ended if ended is not None else STILL_FIGHTING, rounds, log


@dataclass(frozen=True)
class Estimate:
    """A simulated chance with its 95% confidence interval (Wilson score)."""

    p: float
    low: float
    high: float
    trials: int


def simulate(
    start: State,
    sample: Callable[[State, random.Random], tuple[State, str]],
    outcome: Callable[[State], str | None],
    *,
    max_rounds: int,
    trials: int,
    rng: random.Random,
) -> dict[str, Estimate]:
    """Estimate each outcome's chance by playing the fight ``trials`` times. Only for a
    calculator that labels the answer as a simulation, with its interval."""
    counts: dict[str, int] = {}
    for _ in range(trials):
        _, ended, _, _ = play(start, sample, outcome, max_rounds=max_rounds, rng=rng)
        counts[ended] = counts.get(ended, 0) + 1
    return {name: wilson(k, trials) for name, k in counts.items()}


def wilson(successes: int, trials: int, z: float = 1.96) -> Estimate:
    """The Wilson score interval for ``successes`` out of ``trials``."""
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), trials)


# ---- the calculator side: one field, one result shape, the same charts ----------------

def round_cap_field(initial: int = 20, maximum: int = 100) -> IntField:
    """The round cap every engagement takes: past it the fight counts as still going."""
    return IntField("max_rounds", "Round cap", default=initial, minimum=1, maximum=maximum,
                    help=f"Rounds played before a fight still going is reported as "
                         f"\"{STILL_FIGHTING}\".")


def to_result(eng: Engagement, sides: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The JSON result every engagement calculator returns.

    ``outcomes`` / ``outcomes_exact``: final outcome -> chance (floats / exact strings,
    the exact ones sum to exactly 1). ``by_round`` / ``by_round_exact``: round -> outcome
    -> chance the fight has ended that way by then. ``end_round`` / ``end_round_exact``:
    the round the fight ends in (the chart; :data:`STILL_FIGHTING` last when possible).
    ``expected_rounds``. For each side ``(key, title)``: ``losses_<key>`` and its exact
    twin, the distribution of what that side lost.
    """
    result: dict[str, Any] = {
        "outcomes": {k: float(p) for k, p in eng.outcomes.items()},
        "outcomes_exact": {k: str(p) for k, p in eng.outcomes.items()},
        "by_round": {str(r): {k: float(p) for k, p in row.items()}
                     for r, row in enumerate(eng.by_round, 1)},
        "by_round_exact": {str(r): {k: str(p) for k, p in row.items()}
                           for r, row in enumerate(eng.by_round, 1)},
        "expected_rounds": float(eng.expected_rounds),
        "expected_rounds_exact": str(eng.expected_rounds),
        "max_rounds": eng.max_rounds,
        "peak_states": eng.peak_states,
    }
    end_round: dict[str, Fraction] = {str(r): p for r, p in eng.ends_in.items()}
    if STILL_FIGHTING in eng.outcomes:
        end_round[f"Past {eng.max_rounds}"] = eng.outcomes[STILL_FIGHTING]
    result["end_round"] = {k: float(p) for k, p in end_round.items()}
    result["end_round_exact"] = {k: str(p) for k, p in end_round.items()}
    for key, _title in sides:
        dist = eng.losses.get(key, {0: Fraction(1)})
        result[f"losses_{key}"] = {str(k): float(p) for k, p in dist.items()}
        result[f"losses_{key}_exact"] = {str(k): str(p) for k, p in dist.items()}
        result[f"expected_losses_{key}"] = float(sum((k * p for k, p in dist.items()), Fraction(0)))
    return result


def charts(sides: Sequence[tuple[str, str]] = (), loss_label: str = "Lost") -> tuple[Chart, ...]:
    """The charts every engagement shows: outcomes, the round it ends, each side's losses."""
    return (
        Chart("outcomes", "How the fight ends", "Outcome", ordered=False),
        Chart("end_round", "Round the fight ends in", "Round"),
        *(Chart(f"losses_{key}", title, loss_label) for key, title in sides),
    )


def headline(result: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The figures shown large: each outcome's chance, then the expected rounds."""
    rows = [(name, percent(p)) for name, p in result["outcomes"].items()]
    rows.append(("Expected rounds", f"{result['expected_rounds']:.2f}"))
    return rows


def by_round_table(result: Mapping[str, Any], rounds: int = 10) -> str:
    """A Markdown table of the chance the fight has ended by each round, per outcome."""
    names = [n for n in result["outcomes"] if n != STILL_FIGHTING]
    rows = []
    for r, row in list(result["by_round"].items())[:rounds]:
        rows.append([r, *(percent(row.get(n, 0.0)) for n in names),
                     percent(sum(row.get(n, 0.0) for n in names))])
    return table(["By round", *names, "Over by then"], rows)
