"""Whole fights: a fight as an absorbing Markov chain over its round-by-round state.

This module imports only the standard library. Every system's ``fight.py`` implements the
one :class:`Fight` interface and this module does the rest:

- ``start()``: the state before the first round (any hashable value),
- ``step(state)``: the exact moves of one round, in whole numbers:
  ``(denominator, ((next_state, ways), ...))``, the ways summing to the denominator
  (:func:`whole_moves` turns a list of ``(state, Fraction)`` into that shape),
- ``outcome(state)``: the name of how the fight ended ("Side A wins", "B breaks"), or
  ``None`` while it goes on,
- ``losses(state)``: what each side has lost, ``{"a": 2, "b": 5}``,
- ``sample(state, dice)``: one round with real dice (:class:`Dice`), through the same
  resolution functions the odds count, and a line for the log, or the round told action
  by action (:class:`Told`),
- ``outcome_order``: the outcomes in the order a reader expects them.

:func:`solve` walks the chain round by round with exact fractions, so every figure it
returns is exact: the chance of each outcome, the chance the fight has ended by each round
(per outcome), the expected number of rounds and the distribution of each side's losses.
A fight still going at the round cap ends as :data:`STILL_FIGHTING`. Too many live states
or too much work raises :class:`TooLarge` (the calculator turns it into a message naming
the input to lower): never a silent approximation.

The same fight is played with real dice by :func:`play`, and estimated by
:func:`simulate` or :func:`simulated` only where a calculator offers a clearly labelled
simulation.
:mod:`rules_core.fight_result` turns an answer into a calculator's result and charts.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from typing import Any, Generic, Protocol, TypeVar

#: the outcome of a fight that has not ended by the round cap
STILL_FIGHTING = "Still fighting"
#: live states one round may hold before the fight is refused as too large
MAX_STATES = 20_000
#: transitions the whole solution may evaluate before it is refused as too large
MAX_WORK = 3_000_000

#: one state's moves in whole numbers: (denominator, ((next state, ways), ...)), the ways
#: summing to the denominator
Moves = tuple[int, Iterable[tuple[Any, int]]]
#: a state's moves as the walk keeps them: (denominator, moves that go on, ways of each
#: outcome, ways of each (side, losses))
_Split = tuple[int, tuple[tuple[Any, int], ...], tuple[tuple[str, int], ...],
               tuple[tuple[tuple[str, int], int], ...]]


@dataclass
class Dice:
    """Real dice for a played fight: ``randint`` as :class:`random.Random` has it, and
    every face rolled kept for the roll's dice list, named after its die (``label``, when
    set, goes before the die's name: "R2 Side A d8")."""

    rng: random.Random
    rolled: list[dict[str, Any]] = field(default_factory=list)
    label: str = ""
    round: int = 0  #: the round being played (set by :func:`play`)

    def randint(self, low: int, high: int) -> int:
        face = self.rng.randint(low, high)
        die = f"d{high}" if low == 1 else f"{low}-{high}"
        rolled: dict[str, Any] = {"die": f"{self.label} {die}" if self.label else die, "face": face}
        if self.round:
            rolled["round"] = self.round  # the round's account shows its own dice
        self.rolled.append(rolled)
        return face

    def faces(self) -> list[int]:
        return [d["face"] for d in self.rolled]


class Fight(Protocol):
    """The one interface every system's whole fight implements (see the module's text)."""

    @property
    def outcome_order(self) -> Sequence[str]: ...

    def start(self) -> Hashable: ...

    def step(self, state: Any) -> Moves: ...

    def outcome(self, state: Any) -> str | None: ...

    def losses(self, state: Any) -> Mapping[str, int]: ...

    def sample(self, state: Any, dice: Dice) -> tuple[Any, str | Told]: ...


#: the round cap the fights' work budgets are set for; past it a budget grows linearly
#: with the cap, to a few times as much at TOP_ROUNDS, the most a round cap may be (a
#: fight that long may take up to three seconds): :func:`scaled_budget`
BUDGET_ROUNDS, TOP_ROUNDS = 20, 100


def scaled_budget(base: int, max_rounds: int, times_at_top: float = 3) -> int:
    """``base`` up to :data:`BUDGET_ROUNDS`, growing linearly to ``times_at_top`` times it
    at :data:`TOP_ROUNDS`."""
    extra = max(0, max_rounds - BUDGET_ROUNDS)
    return base + int(base * (times_at_top - 1) * extra) // (TOP_ROUNDS - BUDGET_ROUNDS)


#: a fight past its exact walk's limits may be walked with its least likely branches
#: pruned (:func:`solve_pruned`): every way it can stand that is less likely than
#: PRUNE_FLOOR is dropped as the walk goes, and the answer is given when the chance
#: dropped in all is at most MAX_ERROR (one in a million), with that chance as its bound
PRUNE_FLOOR = 1e-10
MAX_ERROR = 1e-6


class TooLarge(ValueError):
    """The fight's state space is past what can be computed exactly in time."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"{what} is past the limit of {limit:,} for an exact answer")
        self.what = what
        self.limit = limit
        #: for :func:`solve_pruned`: the rounds finished before the limit, and the chance
        #: dropped in them
        self.rounds = 0
        self.pruned = 0.0


#: a chance: an exact fraction, or a float in a pruned walk
Chance = TypeVar("Chance", Fraction, float)


@dataclass(frozen=True)
class Answer(Generic[Chance]):
    """What a walk of the fight answers, in its kind of number."""

    #: final outcome -> probability; sums to 1
    outcomes: dict[str, Chance]
    #: ``by_round[r - 1][o]``: the chance the fight has ended with outcome ``o`` by round r
    by_round: list[dict[str, Chance]]
    #: round -> chance the fight ends in exactly that round (0: over before it starts);
    #: the mass still fighting at the cap is not included
    ends_in: dict[int, Chance]
    #: rounds fought on average (a fight still going at the cap counts the cap)
    expected_rounds: Chance
    #: side -> losses -> probability (each sums to 1)
    losses: dict[str, dict[int, Chance]]
    #: the most live states any round held (a measure of the work done)
    peak_states: int
    max_rounds: int


@dataclass(frozen=True)
class Odds(Answer[Fraction]):
    """The exact answer for one fight (its chances sum to exactly 1)."""


AnswerT = TypeVar("AnswerT", bound=Answer[Any])
#: what a piece-by-piece walk ends with
Ended = TypeVar("Ended")


#: a walk run in pieces: it yields (nothing) between rounds, so that its caller can stop
#: it or do other work in between, and returns its answer (:func:`finish` runs it whole)
Walk = Generator[None, None, AnswerT]


def finish(walk: Generator[None, None, Ended]) -> Ended:
    """Run a walk (:func:`walk_exact`, :func:`walk_pruned`) to its end: its answer."""
    while True:
        try:
            next(walk)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def solve(fight: Fight, *, max_rounds: int, max_states: int = MAX_STATES,
          max_work: int = MAX_WORK, max_cost: int | None = None) -> Odds:
    """The exact answer, in one go (:func:`walk_exact`, run to its end)."""
    return finish(walk_exact(fight, max_rounds=max_rounds, max_states=max_states,
                             max_work=max_work, max_cost=max_cost))


def walk_exact(fight: Fight, *, max_rounds: int, max_states: int = MAX_STATES,
               max_work: int = MAX_WORK, max_cost: int | None = None
               ) -> Generator[None, None, Odds]:
    """Walk the fight's Markov chain round by round, exactly (yielding between rounds).

    Every outcome of ``fight.outcome_order`` is reported, at probability 0 if it cannot
    happen; any other outcome follows in order of appearance, and :data:`STILL_FIGHTING`
    comes last when the cap can be reached.

    ``max_work`` counts the moves followed; ``max_cost``, when given, weighs each move by
    the size of the whole numbers it multiplies (in 64-bit words, which grow round by
    round), a closer measure of the time it takes: past either the fight is refused
    (:class:`TooLarge`) as the work goes, before it has taken long.
    """
    outcome, losses, outcome_order = fight.outcome, fight.losses, fight.outcome_order
    start = fight.start()
    # Everything is kept in whole numbers over one running denominator: the live masses,
    # and the tallies of what has ended (by outcome, by (side, losses), and rounds x
    # mass for the expected length). A Fraction is made only where the answer holds one
    # (a by-round total that changed, the chance of ending in a round, and once at the
    # end), since reducing a fraction of thousands of digits is what costs. Each state's
    # moves are cached as whole numbers over their own least common denominator.
    transitions: dict[Any, _Split] = {}
    stays: dict[Any, bool] = {}  # the state has a move to itself
    totals: dict[str, Fraction] = {name: Fraction(0) for name in outcome_order}
    ended_w: dict[str, int] = {}  # outcome -> ways it has happened by now
    lost_w: dict[tuple[str, int], int] = {}  # (side, losses) -> ways, fights ended so far
    rounds_w = 0  # sum of round x ways of ending in that round
    ends_in: dict[int, Fraction] = {}
    by_round: list[dict[str, Fraction]] = []
    work = cost = 0
    peak = 1

    live: dict[Any, int] = {}
    denominator = 1
    first = outcome(start)
    if first is None:
        live[start] = 1
    else:
        totals[first] = Fraction(1)
        ended_w[first] = 1
        lost_w.update({(side, lost): 1 for side, lost in losses(start).items()})
        ends_in[0] = Fraction(1)

    for round_no in range(1, max_rounds + 1):
        if not live:
            by_round.append(dict(totals))
            continue
        yield
        # The work of this round and of the rounds left is partly certain already: every
        # live state's moves are followed this round, and a state that can stay as it is
        # (a move to itself) is live, and followed, in every later round too. Past the
        # limit the fight is refused here, before the rest of this round's states are
        # built (building them is what takes the time): it would be refused later anyway.
        # (The cost weighs each move by at least 1: the same bound holds for it.)
        certain, left = 0, max_rounds - round_no
        for state in live:
            split = transitions.get(state)
            if split is None:
                yield  # building a state's moves is the walk's costly piece
                split = transitions[state] = _split(fight.step(state), outcome, losses)
                stays[state] = any(target == state for target, _ in split[1])
            moves = len(split[1]) + len(split[2])
            certain += moves * (1 + left) if stays[state] else moves
            if work + certain > max_work:
                raise TooLarge("The work this fight needs", max_work)
            if max_cost is not None and cost + certain > max_cost:
                raise TooLarge("The work this fight needs", max_cost)
        scale = math.lcm(*(transitions[state][0] for state in live))
        nxt: dict[Any, int] = {}
        by_outcome: dict[str, int] = {}
        by_loss: dict[tuple[str, int], int] = {}
        for n, (state, m) in enumerate(live.items()):
            if n % 256 == 255:
                yield
            own, going_on, ending, loss_ways = transitions[state]
            moves = len(going_on) + len(ending)
            work += moves
            if work > max_work:
                raise TooLarge("The work this fight needs", max_work)
            if own != scale:
                m *= scale // own
            if max_cost is not None:
                cost += moves * (1 + (m.bit_length() >> 6))
                if cost > max_cost:
                    raise TooLarge("The work this fight needs", max_cost)
            for target, q in going_on:
                if target in nxt:
                    nxt[target] += m * q
                else:
                    nxt[target] = m * q
            for result, q in ending:
                by_outcome[result] = by_outcome.get(result, 0) + m * q
            for key, q in loss_ways:
                by_loss[key] = by_loss.get(key, 0) + m * q
        denominator *= scale
        if scale != 1:
            ended_w = {k: w * scale for k, w in ended_w.items()}
            lost_w = {k: w * scale for k, w in lost_w.items()}
            rounds_w *= scale
        for result, w in by_outcome.items():
            ended_w[result] = ended_w.get(result, 0) + w
        for key, w in by_loss.items():
            lost_w[key] = lost_w.get(key, 0) + w
        this_round = sum(by_outcome.values())
        rounds_w += round_no * this_round
        if this_round:
            ends_in[round_no] = Fraction(this_round, denominator)
        # keep the whole numbers small: divide out what every one of them shares
        shared = math.gcd(scale, denominator, *nxt.values(), *ended_w.values(), *lost_w.values(),
                          rounds_w)
        if shared > 1:
            denominator //= shared
            nxt = {state: w // shared for state, w in nxt.items()}
            ended_w = {k: w // shared for k, w in ended_w.items()}
            lost_w = {k: w // shared for k, w in lost_w.items()}
            rounds_w //= shared
        for result in by_outcome:
            totals[result] = Fraction(ended_w[result], denominator)
        live = nxt
        peak = max(peak, len(live))
        if len(live) > max_states:
            raise TooLarge("The number of ways this fight can stand after one round", max_states)
        by_round.append(dict(totals))

    still_w = sum(live.values())
    if still_w:
        totals[STILL_FIGHTING] = Fraction(still_w, denominator)
        for state, w in live.items():
            for key in losses(state).items():
                lost_w[key] = lost_w.get(key, 0) + w
    expected = Fraction(rounds_w + max_rounds * still_w, denominator)
    ordered = {name: totals.get(name, Fraction(0)) for name in outcome_order}
    ordered.update({k: v for k, v in totals.items() if k not in ordered and k != STILL_FIGHTING})
    if STILL_FIGHTING in totals:
        ordered[STILL_FIGHTING] = totals[STILL_FIGHTING]
    loss_dists: dict[str, dict[int, Fraction]] = {}
    for (side, lost), w in sorted(lost_w.items()):
        loss_dists.setdefault(side, {})[lost] = Fraction(w, denominator)
    if sum(ended_w.values()) + still_w != denominator:  # pragma: no cover - a broken step()
        raise ValueError("the fight's transitions do not sum to 1")
    return Odds(ordered, by_round, dict(sorted(ends_in.items())), expected, loss_dists, peak,
                max_rounds)


class Spreads(Fight, Protocol):
    """A fight that can also move a whole distribution one round at once, in floating
    point, dropping the ways it can stand that are less likely than ``floor``."""

    def spread(self, live: dict[Any, float], floor: float) -> tuple[dict[Any, float], float]:
        """(the states after one round from ``live``, with their chances; the chance
        dropped)."""


@dataclass(frozen=True)
class Pruned(Answer[float]):
    """The answer for a fight too large to follow every branch of: the least likely
    branches dropped as the walk went. Every chance is in floating point and at most
    :attr:`pruned` below the exact one (the dropped branches are counted nowhere, so the
    chances sum to 1 less that)."""

    #: the total chance of the branches dropped: the bound on every figure's error
    pruned: float = 0.0


class DroppedTooMuch(TooLarge):
    """The pruned walk has dropped more than the answer may leave out: it stops there
    (:func:`solve_pruned`), saying how many rounds were finished within the bound."""

    def __init__(self, max_pruned: float, rounds: int, pruned: float) -> None:
        super().__init__("The chance dropped", 0)
        self.args = (f"what it drops passes {max_pruned:g}, the most an answer may leave "
                     f"out, in round {rounds + 1}",)
        self.rounds, self.pruned = rounds, pruned


def solve_pruned(fight: Spreads, *, max_rounds: int, floor: float,
                 max_pruned: float = math.inf) -> Pruned:
    """The pruned answer, in one go (:func:`walk_pruned`, run to its end)."""
    return finish(walk_pruned(fight, max_rounds=max_rounds, floor=floor, max_pruned=max_pruned))


def walk_pruned(fight: Spreads, *, max_rounds: int, floor: float,
                max_pruned: float = math.inf) -> Generator[None, None, Pruned]:
    """The round-by-round walk of :func:`solve`, in floating point and pruned: each round
    the fight's :meth:`Spreads.spread` drops every way it can stand that is less likely
    than ``floor``, and the chance dropped is added up and reported (never folded into an
    outcome). The fight's own budget bounds the work (it raises :class:`TooLarge`, saying
    how many rounds were finished and what they dropped); so does ``max_pruned``: once a
    round takes what is dropped past it, the walk stops (:class:`DroppedTooMuch`, with the
    rounds before that one), as the answer could not be given anyway."""
    outcome, losses = fight.outcome, fight.losses
    start = fight.start()
    totals: dict[str, float] = {name: 0.0 for name in fight.outcome_order}
    lost: dict[tuple[str, int], float] = {}
    ends_in: dict[int, float] = {}
    by_round: list[dict[str, float]] = []
    live: dict[Any, float] = {}
    rounds = pruned = 0.0
    peak = 1

    def ended(state: Any, mass: float, round_no: int) -> None:
        name = outcome(state)
        assert name is not None
        totals[name] = totals.get(name, 0.0) + mass
        ends_in[round_no] = ends_in.get(round_no, 0.0) + mass
        for key in losses(state).items():
            lost[key] = lost.get(key, 0.0) + mass

    if outcome(start) is None:
        live[start] = 1.0
    else:
        ended(start, 1.0, 0)
    for round_no in range(1, max_rounds + 1):
        if live:
            yield
            try:
                after, dropped = fight.spread(live, floor)
            except TooLarge as err:
                err.rounds, err.pruned = round_no - 1, pruned
                raise
            if pruned + dropped > max_pruned:
                raise DroppedTooMuch(max_pruned, round_no - 1, pruned)
            pruned += dropped
            live = {}
            for state, mass in after.items():
                if outcome(state) is None:
                    live[state] = mass
                else:
                    ended(state, mass, round_no)
                    rounds += round_no * mass
            peak = max(peak, len(live))
        by_round.append(dict(totals))
    still = sum(live.values())
    if live:
        totals[STILL_FIGHTING] = still
        for state, mass in live.items():
            for key in losses(state).items():
                lost[key] = lost.get(key, 0.0) + mass
    dists: dict[str, dict[int, float]] = {}
    for (side, n), mass in sorted(lost.items()):
        dists.setdefault(side, {})[n] = mass
    return Pruned(totals, by_round, dict(sorted(ends_in.items())), rounds + max_rounds * still,
                  dists, peak, max_rounds, pruned)


def _split(moves: Moves,
           outcome: Callable[[Any], str | None],
           losses: Callable[[Any], Mapping[str, int]],
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
        for side, n in losses(target).items():
            lost[side, n] = lost.get((side, n), 0) + q
    return own, tuple(going_on), tuple(ending.items()), tuple(lost.items())


def mix(parts: Sequence[tuple[Fraction, Odds]]) -> Odds:
    """Fights weighted by the chance of each (who wins a roll made once, before the
    fight): the answer of the fight whose start is that roll."""
    outcomes: dict[str, Fraction] = {}
    ends_in: dict[int, Fraction] = {}
    losses: dict[str, dict[int, Fraction]] = {}
    rounds = parts[0][1].max_rounds
    by_round: list[dict[str, Fraction]] = [{} for _ in range(rounds)]
    for w, odds in parts:
        for k, p in odds.outcomes.items():
            outcomes[k] = outcomes.get(k, Fraction(0)) + w * p
        for r, p in odds.ends_in.items():
            ends_in[r] = ends_in.get(r, Fraction(0)) + w * p
        for i, row in enumerate(odds.by_round):
            for k, p in row.items():
                by_round[i][k] = by_round[i].get(k, Fraction(0)) + w * p
        for side, dist in odds.losses.items():
            mine = losses.setdefault(side, {})
            for lost, p in dist.items():
                mine[lost] = mine.get(lost, Fraction(0)) + w * p
    ordered = {k: p for k, p in outcomes.items() if k != STILL_FIGHTING}
    if STILL_FIGHTING in outcomes:
        ordered[STILL_FIGHTING] = outcomes[STILL_FIGHTING]
    return Odds(ordered, by_round, dict(sorted(ends_in.items())),
                sum((w * odds.expected_rounds for w, odds in parts), Fraction(0)),
                {s: dict(sorted(d.items())) for s, d in losses.items()},
                max(odds.peak_states for _, odds in parts), rounds)


def whole_moves(moves: Iterable[tuple[Any, Fraction]]) -> tuple[int, tuple[tuple[Any, int], ...]]:
    """One state's moves, given as ``(state, chance)``, as whole numbers over their least
    common denominator (the shape :meth:`Fight.step` returns)."""
    listed = [(target, Fraction(q)) for target, q in moves if q]
    common = math.lcm(*(q.denominator for _, q in listed)) if listed else 1
    return common, tuple((target, q.numerator * (common // q.denominator))
                         for target, q in listed)


@dataclass(frozen=True)
class Action:
    """One action of a round told line by line: the side that acts ("a", "b"; "" for a
    roll of both, such as the initiative), the acting unit's name on the field, the line
    in words (naming both sides' units), and the dice of each of its rolls:
    ``((what the roll is, its faces), ...)``, so each die stays with its roll."""

    side: str
    who: str
    words: str
    rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def text(self) -> str:
        """The line as plain text, its dice after it ("... [attack roll 2d6: 3, 5]")."""
        dice = "; ".join(f"{what}: {', '.join(map(str, faces))}" for what, faces in self.rolls)
        return self.words + (f" [{dice}]" if dice else "")

    def as_dict(self) -> dict[str, Any]:
        return {"side": self.side, "who": self.who, "words": self.words,
                "rolls": [{"what": what, "faces": list(faces)} for what, faces in self.rolls]}


@dataclass(frozen=True)
class Told:
    """What :meth:`Fight.sample` may return instead of one line: the round action by
    action, and the state after it in words (units left, suppressed)."""

    actions: tuple[Action, ...]
    after: str


@dataclass(frozen=True)
class Played:
    """A fight played with real dice."""

    state: Any  #: where it stopped
    outcome: str  #: a key of :attr:`Odds.outcomes`
    rounds: int
    #: the account as plain text: one line per round, or for a fight told action by
    #: action (:class:`Told`), a heading per round, one line per action and the state after
    log: list[str]
    dice: list[dict[str, Any]]  #: every die rolled, in order
    #: a fight told action by action: each round as ``{"round", "heading", "actions",
    #: "after"}`` (the actions as :meth:`Action.as_dict`), worded as :attr:`log` is
    account: list[dict[str, Any]] = field(default_factory=list)


def play(fight: Fight, *, max_rounds: int, rng: random.Random, dice: Dice | None = None
         ) -> Played:
    """Play the fight with real dice, round by round through ``fight.sample``. ``dice``:
    dice already rolled before the fight (a roll-off), kept at the head of the list. A
    fight may name its round (``round_word``: the SUCS *turn*)."""
    dice = Dice(rng) if dice is None else dice
    word = str(getattr(fight, "round_word", "Round"))
    state = fight.start()
    log: list[str] = []
    account: list[dict[str, Any]] = []
    ended = fight.outcome(state)
    rounds = 0
    while ended is None and rounds < max_rounds:
        rounds += 1
        dice.round, dice.label = rounds, ""
        state, line = fight.sample(state, dice)
        if isinstance(line, Told):
            heading, after = f"{word} {rounds}", f"After {word.lower()} {rounds}: {line.after}"
            account.append({"round": rounds, "heading": heading,
                            "actions": [a.as_dict() for a in line.actions], "after": after})
            log += [heading, *(a.text() for a in line.actions), after]
        else:
            log.append(f"{word} {rounds}: {line}")
        ended = fight.outcome(state)
    return Played(state, ended if ended is not None else STILL_FIGHTING, rounds, log,
                  dice.rolled, account)


@dataclass(frozen=True)
class Estimate:
    """A simulated chance with its 95% confidence interval (Wilson score)."""

    p: float
    low: float
    high: float
    trials: int


@dataclass(frozen=True)
class Simulated(Answer[float]):
    """The answer for a fight too large to walk even with its least likely branches
    dropped: every figure is the share of :attr:`trials` fights played with real chances
    (:func:`simulated`), an estimate; each outcome's 95% interval is in
    :attr:`intervals`. Only for a calculator that says so beside the figures."""

    trials: int = 0
    #: outcome -> (low, high): the Wilson score interval of its share
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)


#: every simulation's seed: the same inputs always give the same figures
SIM_SEED = 20261127


def below(rng: random.Random, n: int) -> int:
    """A uniform whole number from 0 to n - 1, exactly (random bits, redrawn past n): the
    one draw the quick players make for every chance held as whole ways out of n."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def simulated(fight: Fight, *, max_rounds: int, trials: int,
              play_once: Callable[[random.Random], tuple[Any, int]],
              max_work: int | None = None) -> Simulated:
    """``trials`` fights, each played by ``play_once`` with a generator seeded with
    :data:`SIM_SEED` to (the state it stopped in, the rounds played; at most
    ``max_rounds``), summed into the figures of an answer (:class:`Tally`). With
    ``max_work``, no fight is begun once the rounds played come to that many (so long
    fights are fewer, and at least ``max_work / max_rounds``)."""
    tally = Tally(fight, max_rounds)
    rng = random.Random(SIM_SEED)
    while tally.played < trials and (max_work is None or tally.rounds_sum < max_work):
        tally.add(*play_once(rng))
    return tally.answer()


#: the most distinct ends of fights a :class:`Tally` holds before it sums them
MAX_ENDS = 4096
#: the most end states whose outcome and losses a :class:`Tally` keeps, read once each
MAX_READ = 1 << 16


class Tally:
    """Fights played with real dice, summed into the figures of an answer: the share of
    each outcome (:data:`STILL_FIGHTING` for a fight still going at the cap), by round, of
    each round's ending, of each side's losses, and the rounds on average, each outcome
    with its 95% interval (:func:`wilson`).

    A fight is counted as it comes by its end (the state it stopped in and its rounds):
    fights end in few distinct ways, so each way's outcome and losses are read once, when
    an answer is asked for (:meth:`answer`), not once a fight."""

    def __init__(self, fight: Fight, max_rounds: int) -> None:
        self.fight, self.max_rounds = fight, max_rounds
        # a fight still going at the cap is an outcome like any other, given with its
        # interval even when no fight played has reached the cap (it may: "under 1.2%")
        self.ended: dict[str, int] = {name: 0 for name in (*fight.outcome_order, STILL_FIGHTING)}
        self.ends_in: dict[int, int] = {}
        self.by_end: dict[tuple[int, str], int] = {}  # (round ended, outcome) -> fights
        self.lost: dict[tuple[str, int], int] = {}
        self.rounds_sum = self.played = 0
        #: fights played and not yet summed: (state, rounds) -> fights
        self._ends: dict[tuple[Any, int], int] = {}
        #: end states read: state -> (its outcome, its losses), for the next batches
        self._read: dict[Any, tuple[str | None, tuple[tuple[str, int], ...]]] = {}

    def add(self, state: Any, rounds: int) -> None:
        """One fight, ended in ``state`` after ``rounds`` rounds."""
        self.played += 1
        self.rounds_sum += rounds
        ends, key = self._ends, (state, rounds)
        known = ends.get(key)
        if known is not None:
            ends[key] = known + 1
        else:
            ends[key] = 1
            if len(ends) >= MAX_ENDS:  # fights that end in many ways: summed as they go
                self._sum()

    def _sum(self) -> None:
        """The fights counted by their ends summed into the figures."""
        outcome, losses = self.fight.outcome, self.fight.losses
        ended, ends_in, by_end, lost = self.ended, self.ends_in, self.by_end, self.lost
        read = self._read
        for (state, rounds), k in self._ends.items():
            known = read.get(state)
            if known is None:
                known = (outcome(state), tuple(losses(state).items()))
                if len(read) < MAX_READ:
                    read[state] = known
            name, lost_here = known
            if name is None:
                ended[STILL_FIGHTING] = ended.get(STILL_FIGHTING, 0) + k
            else:
                ended[name] = ended.get(name, 0) + k
                ends_in[rounds] = ends_in.get(rounds, 0) + k
                end = (max(rounds, 1), name)
                by_end[end] = by_end.get(end, 0) + k
            for item in lost_here:
                lost[item] = lost.get(item, 0) + k
        self._ends = {}

    def answer(self) -> Simulated:
        """The figures so far (at least one fight played)."""
        self._sum()
        played = self.played
        order = list(self.fight.outcome_order)
        by_round: list[dict[str, float]] = []
        running = {name: 0 for name in order}
        for r in range(1, self.max_rounds + 1):
            for name in list(running) + [n for n in self.ended
                                         if n not in running and n != STILL_FIGHTING]:
                k = self.by_end.get((r, name))
                if k:
                    running[name] = running.get(name, 0) + k
            by_round.append({name: k / played for name, k in running.items()})
        dists: dict[str, dict[int, float]] = {}
        for (side, n), k in sorted(self.lost.items()):
            dists.setdefault(side, {})[n] = k / played
        return Simulated({name: k / played for name, k in self.ended.items()}, by_round,
                         {r: k / played for r, k in sorted(self.ends_in.items())},
                         self.rounds_sum / played, dists, 0, self.max_rounds, played,
                         {name: (e.low, e.high) for name, e in
                          ((name, wilson(k, played)) for name, k in self.ended.items())})


def wilson(successes: int, trials: int, z: float = 1.96) -> Estimate:
    """The Wilson score interval for ``successes`` out of ``trials``."""
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # the share itself always inside (at 0 or all trials, rounding could leave it out)
    return Estimate(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)), trials)


class Stepped:
    """A fight walked in floating point from its own exact rounds (:meth:`Fight.step`),
    for :func:`walk_pruned` (:class:`Spreads`), when it has no spread of its own: each
    live state's moves as chances (built once a state), and every way the fight can stand
    that is less likely than the floor dropped. ``max_work`` bounds the moves followed,
    and the states whose round is built (``build_work`` each: what building one costs
    beside following a move), so a fight too large is refused as the walk goes."""

    def __init__(self, fight: Fight, max_work: int, build_work: int = 1) -> None:
        self.fight, self.max_work, self.build_work = fight, max_work, build_work
        self.outcome_order = fight.outcome_order
        self.start, self.step, self.outcome = fight.start, fight.step, fight.outcome
        self.losses, self.sample = fight.losses, fight.sample
        self.work = 0
        self._moves: dict[Any, tuple[tuple[Any, float], ...]] = {}

    def spend(self, work: int) -> None:
        self.work += work
        if self.work > self.max_work:
            raise TooLarge("The work of following the fight way by way", self.max_work)

    def spread(self, live: dict[Any, float], floor: float) -> tuple[dict[Any, float], float]:
        out: dict[Any, float] = {}
        known, outcome = self._moves, self.fight.outcome
        for state, mass in live.items():
            moves = known.get(state)
            if moves is None:
                self.spend(self.build_work)
                den, listed = self.fight.step(state)
                moves = known[state] = tuple((target, q / den) for target, q in listed)
            self.spend(len(moves))
            for target, p in moves:
                out[target] = out.get(target, 0.0) + mass * p
        dropped = 0.0
        for state in [s for s, m in out.items() if m < floor and outcome(s) is None]:
            dropped += out.pop(state)
        return out, dropped


def stepping_player(fight: Fight, max_kept: int = 20_000
                    ) -> Callable[[int, random.Random], tuple[Any, int]]:
    """A quick player for a fight with no quick player of its own: (max rounds, generator)
    -> (the state it stopped in, rounds played), each round drawn with one uniform whole
    number (:func:`below`) from the fight's own exact round (:meth:`Fight.step`, kept per
    state as a cumulative table in the order of the states' text, for at most
    ``max_kept`` states): every round at exactly the chances the walk uses, and the same
    draws in every process."""
    tables: dict[Any, tuple[int, list[int], list[Any]]] = {}
    outcome = fight.outcome

    def play(max_rounds: int, rng: random.Random) -> tuple[Any, int]:
        state, rounds = fight.start(), 0
        while rounds < max_rounds and outcome(state) is None:
            table = tables.get(state)
            if table is None:
                den, listed = fight.step(state)
                # in one order whatever the order the moves were found in (a set of
                # strings iterates differently from one process to the next)
                pairs = sorted(listed, key=lambda move: repr(move[0]))
                table = (den, list(accumulate(q for _, q in pairs)),
                         [target for target, _ in pairs])
                if len(tables) < max_kept:
                    tables[state] = table
            den, cumulative, targets = table
            state = targets[bisect_right(cumulative, below(rng, den))]
            rounds += 1
        return state, rounds

    return play
