"""Answers that sharpen: the one cascade every whole fight is answered by.

A fight is answered by the first of its walks that fits its budget (the exact walk, then
the walk with its least likely branches pruned: :mod:`rules_core.solver`), else by a
simulation of seeded fights with real dice. Each system's ``fight.py`` says which walks a
fight may try, with their budgets, and how to play it quickly (:class:`Cascade`).

:class:`Refinement` runs the cascade as a sequence of ever better answers, each complete
and honest (its method, the fights played, each chance's 95% interval or the walk's
bound), one piece of work per :meth:`Refinement.step`. In the browser the first answer
comes fast (a short simulation while a walk is still going) and sharpens until it is
exact, within its bound, within the wanted precision, or at the work cap; the API and
the command line run it to that end (:meth:`Refinement.settle`). The simulation's figures
depend only on the fights played (one seeded generator, fixed batches), so the same
inputs give the same figures at every step.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import time
from bisect import bisect_right
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from typing import Any, Protocol

from rules_core import solver
from rules_core.errors import InputError

#: a simulated answer settles when every outcome's 95% interval is at most this wide on
#: either side (half a percentage point)
HALF_WIDTH = 0.005
#: a first simulated answer comes from at least this many seconds of fights (a whole
#: batch, when that is shorter): fewer would say next to nothing
FIRST_FIGHTS_SECONDS = 0.1
#: a walk's next piece is taken to last up to this many times its last (for when a
#: first simulated answer is due)
PIECE_GROWTH = 8
#: the field name and label a wanted precision is refused under
PRECISION_FIELD, PRECISION_LABEL = "precision", "Precision"
#: the finest half-width and the longest time a precision may ask for
FINEST_POINTS, LONGEST_SECONDS = 0.05, 600.0


@dataclass(frozen=True)
class Precision:
    """When an answer is good enough: exact or within the walk's bound always is; a
    simulation once each chance's 95% half-width is at most ``half_width`` (None: never,
    for "exact"), or after ``seconds`` of work."""

    half_width: float | None = HALF_WIDTH
    seconds: float | None = None

    @property
    def exact_only(self) -> bool:
        return self.half_width is None and self.seconds is None


DEFAULT = Precision()
_POINTS = re.compile(r"(\d+(?:\.\d+)?)\s*(?:points?|pp|%)")
_TIME = re.compile(r"(\d+(?:\.\d+)?)\s*(s|seconds?|ms)")


def precision(raw: Any) -> Precision:
    """A wanted precision as the API and the command line take it: None (the default,
    half a point), "exact", "0.2 points" (or "0.2 pp", "0.2%") or a time ("3 s",
    "500 ms"); anything else is refused, saying what is allowed."""
    if raw is None:
        return DEFAULT
    allowed = (f'"exact", a number of points from {FINEST_POINTS} to 50 ("0.5 points"), or a '
               f'time up to {LONGEST_SECONDS:g} s ("3 s", "500 ms")')
    if not isinstance(raw, str):
        raise InputError(PRECISION_FIELD, f"{PRECISION_LABEL}: expected {allowed}; received "
                                          f"{raw!r}.")
    text = raw.strip().lower()
    if text == "exact":
        return Precision(None)
    points, took = _POINTS.fullmatch(text), _TIME.fullmatch(text)
    if points and FINEST_POINTS <= float(points.group(1)) <= 50:
        return Precision(float(points.group(1)) / 100)
    if took:
        seconds = float(took.group(1)) / (1000 if took.group(2) == "ms" else 1)
        if 0 < seconds <= LONGEST_SECONDS:
            return Precision(None, seconds)
    raise InputError(PRECISION_FIELD, f"{PRECISION_LABEL}: expected {allowed}; received "
                                      f"{raw[:40]!r}.")


#: a walk as the cascade starts it: a generator that yields between pieces of work,
#: returns its answer, or raises :class:`solver.TooLarge` past its budget
WalkStart = Callable[[], Generator[None, None, "solver.Odds | solver.Pruned"]]


@dataclass(frozen=True)
class Cascade:
    """How one fight may be answered (built by each system's ``fight.py``)."""

    #: the fight the simulation plays (its outcomes and losses are tallied)
    fight: solver.Fight
    max_rounds: int
    #: the walks to try, in order: (name, start), name "exact" or "pruned"
    walks: tuple[tuple[str, WalkStart], ...] = ()
    #: one fight with real dice: (the state it ended in, rounds played); None: the fight
    #: is never simulated (a walk too large is refused)
    play_once: Callable[[random.Random], tuple[Any, int]] | None = None
    #: fights a simulation step plays (the step's work: a few hundredths of a second)
    batch: int = 100
    #: the most fights a simulation plays, and the most work: rounds played x
    #: ``round_work`` (the work of one round, in the system's units): its hard caps
    max_fights: int = 250_000
    max_work: int = 10 ** 9
    round_work: int = 1
    #: why no walk is tried at all ("" when they are)
    untried: str = ""
    #: the system's own record of its walks (what fitted), for its explanation
    walker: Any = None


@dataclass
class Refinement:
    """The cascade run as ever better answers (see the module's text)."""

    cascade: Cascade
    wanted: Precision = DEFAULT
    #: with a walk still going, simulate once this many seconds have passed without an
    #: answer, and then between its pieces (None: walks first, the settled answer)
    first_after: float | None = None
    seed: int = solver.SIM_SEED
    clock: Callable[[], float] = time.perf_counter
    #: the latest answer (None until the first)
    answer: solver.Odds | solver.Pruned | solver.Simulated | None = None
    #: "exact", "pruned" or "simulation"
    method: str = ""
    done: bool = False
    #: why refining stopped: "exact", "bound", "precision", "cap", "time", or "" while going on
    stopped: str = ""
    #: each walk that did not fit: (its name, why)
    failures: list[tuple[str, str]] = field(default_factory=list)
    steps: int = 0

    def __post_init__(self) -> None:
        self._walks = list(self.cascade.walks)
        self._walk: Generator[None, None, Any] | None = None
        self._walk_name = ""
        self._tally = solver.Tally(self.cascade.fight, self.cascade.max_rounds)
        #: the simulation's end, once reached: (its answer, why it stopped)
        self._final: tuple[solver.Simulated, str] | None = None
        self._rng = random.Random(self.seed)
        self._began = self.clock()
        #: how long the walk's last piece took
        self._piece = 0.0
        #: the fights the simulated answer on view was given after
        self._shown = 0

    # ---- what the answer is -------------------------------------------------------

    @property
    def walking(self) -> bool:
        return self._walk is not None or bool(self._walks)

    @property
    def why_not_exact(self) -> str:
        """Why the answer is simulated, in words ("" when no walk failed)."""
        said = [self.cascade.untried] if self.cascade.untried else []
        said += [f"{'The exact walk' if name == 'exact' else 'The walk with its least likely ways dropped'}"
                 f": {why}" for name, why in self.failures]
        return " ".join(s if s.endswith(".") else s + "." for s in said)

    @property
    def played(self) -> int:
        return self._tally.played

    # ---- the work -------------------------------------------------------------------

    def step(self, seconds: float = 0.05) -> bool:
        """One piece of work, about ``seconds`` long (a walk's piece, or fights played:
        one at least); True when it gave a new answer."""
        if self.done:
            return False
        self.steps += 1
        start = self.clock()
        if (self.first_after is not None and self.answer is None and self._walk is None
                and self._walks and self._walks[0][0] == "pruned"
                and self.cascade.play_once is not None):
            # a pruned walk moves a whole round at once (one long piece): in the browser
            # a first simulated answer comes before it starts
            return self._simulate(seconds)
        if self._walk is None and self._walks:
            self._walk_name, begin = self._walks.pop(0)
            self._walk = begin()
        if self._walk is not None:
            if self._walk_on(start, seconds):
                return True
            if self.walking and not (self.answer is not None or self._first_due()):
                return False
        if self.walking and (self.cascade.play_once is None or self.first_after is None):
            return False
        if self.cascade.play_once is None:
            self.done, self.stopped = True, "refused"
            return False
        return self._simulate(max(0.0, seconds - (self.clock() - start)))

    def _first_due(self) -> bool:
        """Whether a first simulated answer is due in the browser: ``first_after`` has
        passed, or would be before the walk's next piece ends (taken as up to
        :data:`PIECE_GROWTH` times the last: a SUCS turn tried within an eighth of its
        budget first is such a piece, and the rest of the turn the next)."""
        if self.first_after is None or self.cascade.play_once is None or self.answer is not None:
            return False
        return self.clock() - self._began + PIECE_GROWTH * self._piece >= self.first_after

    def _walk_on(self, start: float, seconds: float) -> bool:
        """Go on with the walk for ``seconds`` (one piece at least, and no more once a
        first simulated answer is due): True when it answered."""
        assert self._walk is not None
        first = True
        while first or (self.clock() - start < seconds and not self._first_due()):
            first = False
            began = self.clock()
            try:
                next(self._walk)
                self._piece = self.clock() - began
            except StopIteration as ended:
                self._walk, self._walks = None, []
                self.answer = ended.value
                bound = getattr(self.answer, "pruned", 0.0)
                self.method = "pruned" if isinstance(self.answer, solver.Pruned) else "exact"
                self.done, self.stopped = True, "bound" if bound else "exact"
                return True
            except solver.TooLarge as err:
                self.failures.append((self._walk_name, str(err)))
                self._walk = None
                if not self._walks:
                    return False
                self._walk_name, begin = self._walks.pop(0)
                self._walk = begin()
        return False

    def _simulate(self, seconds: float) -> bool:
        """Play fights for about ``seconds`` (one at least), up to the end of the batch
        under way, unless the simulation has already reached its end (the wanted
        precision, or its cap) while a walk was still being tried: its answer is then the
        one at the first batch that reached it, whatever else was going on. An answer is
        given at the end of each batch, after the first slice (the first answer comes after
        a few fights: no need to wait for a whole batch), and within a batch whenever twice
        the fights of the answer on view have been played. Precision and caps are
        judged at the ends of batches only, so that the settled figures depend only on the
        fights played: the same in the browser (short slices) and in the API (long ones)."""
        play, tally, wanted = self.cascade.play_once, self._tally, self.wanted
        assert play is not None
        new = False
        if self._final is None:
            batch = self.cascade.batch
            end = min(self.cascade.max_fights, (tally.played // batch + 1) * batch)
            if self.method != "simulation":  # a first answer: a tenth of a second of fights
                seconds = max(seconds, FIRST_FIGHTS_SECONDS)
            start = self.clock()
            while tally.played < end:
                tally.add(*play(self._rng))
                if self.clock() - start >= seconds:
                    break
            whole = tally.played == end
            if not whole and self.method == "simulation" and tally.played < 2 * self._shown:
                return False  # the answer on view stands until twice its fights are played
            self._shown = tally.played
            answer = tally.answer()
            self.answer, self.method, new = answer, "simulation", True
            if whole:
                widest = max(half_width(low, high) for low, high in answer.intervals.values())
                if wanted.half_width is not None and widest <= wanted.half_width:
                    self._final = (answer, "precision")
                elif (tally.played >= self.cascade.max_fights
                      or tally.rounds_sum * self.cascade.round_work >= self.cascade.max_work):
                    self._final = (answer, "cap")
                elif wanted.seconds is not None and self.clock() - self._began >= wanted.seconds:
                    self._final = (answer, "time")
        if self._final is not None and not self.walking:
            self.answer, self.stopped = self._final
            self.method, self.done = "simulation", True
            return True
        return new

    def settle(self) -> Refinement:
        """Refine until done (the API's answer): walks first, then the simulation."""
        while not self.done:
            if self.wanted.exact_only and not self.walking and self.answer is None:
                self.done, self.stopped = True, "refused"
                break
            self.step(1.0)
        return self


def half_width(low: float, high: float) -> float:
    """Half an interval's width."""
    return (high - low) / 2


def settled(cascade: Cascade, wanted: Precision = DEFAULT) -> Refinement:
    """The cascade run to its settled answer; refused (InputError under the precision
    field) when only an exact answer was wanted and no walk fits."""
    done = Refinement(cascade, wanted).settle()
    if done.answer is None:
        reason = done.why_not_exact or "no walk fits this fight."
        raise InputError(PRECISION_FIELD, f"{PRECISION_LABEL}: an exact answer was asked for, "
                                          f"but {reason[0].lower()}{reason[1:]} Ask for a "
                                          "precision in points instead.")
    return done



class Refining(Protocol):
    """What the API and the worker drive: a :class:`Refinement`, or a search of fights
    built on their refinements (:mod:`rules_core.balance`)."""

    done: bool

    @property
    def clock(self) -> Callable[[], float]: ...

    def step(self, seconds: float = 0.05) -> bool: ...


#: a search's start: (the calculator's inputs, the wanted precision, first answer after)
SearchStart = Callable[[dict[str, Any], Precision, "float | None"], Any]


@dataclass(frozen=True)
class Sharpened:
    """A whole-fight calculator's answers: its cascade for the inputs, and its result
    for a refinement's latest answer. ``compute`` is the settled result (the API's).
    A calculator built on whole fights (a search) gives ``search`` instead of a cascade:
    its start, an object with the refinement's ``step``, ``settle`` and ``done``."""

    cascade: Callable[[dict[str, Any]], Cascade] | None
    result: Callable[[dict[str, Any], Any], dict[str, Any]]
    search: SearchStart | None = None

    @classmethod
    def searching(cls, search: SearchStart, result: Callable[[dict[str, Any], Any], dict[str, Any]]
                  ) -> Sharpened:
        return cls(None, result, search)

    def compute(self, inputs: dict[str, Any], wanted: Precision = DEFAULT) -> dict[str, Any]:
        if self.search is not None:
            return self.result(inputs, self.search(inputs, wanted, None).settle())
        assert self.cascade is not None
        return self.result(inputs, settled(self.cascade(inputs), wanted))

    def begin(self, inputs: dict[str, Any], first_after: float = 0.3) -> Refining:
        """The refinement the browser runs: a first answer after ``first_after`` seconds
        of walking at the latest."""
        if self.search is not None:
            made: Refining = self.search(inputs, DEFAULT, first_after)
            return made
        assert self.cascade is not None
        return Refinement(self.cascade(inputs), first_after=first_after)


def by_steps(parts: Sequence[tuple[Fraction, solver.Fight]], max_rounds: int, *,
             exact: dict[str, int] | None, pruned_work: int, build_work: int = 1,
             untried: str = "", batch: int = 100, max_fights: int = 250_000,
             max_work: int = 500_000, kept: int = 20_000) -> Cascade:
    """The cascade of a fight that has only the one interface (:class:`solver.Fight`), no
    walks or quick player of its own. ``parts``: the fight (weight 1), or the fights a
    roll made once before it chooses between, with their chances. The exact walk of each
    (:func:`solver.walk_exact` within ``exact``'s budgets; None: not tried, ``untried``
    says why), mixed (:func:`solver.mix`); then the pruned walk of each, in floating point
    from the fight's own rounds (:class:`solver.Stepped` within ``pruned_work``, each
    state's round built costing ``build_work``), mixed; then a simulation: the part drawn
    at its exact chance, every round drawn from its exact moves
    (:func:`solver.stepping_player`), ``batch`` fights a step, at most ``max_fights``
    fights and ``max_work`` rounds."""
    def exact_walk() -> solver.Walk[solver.Odds]:
        assert exact is not None
        done = []
        for w, fight in parts:
            done.append((w, (yield from solver.walk_exact(fight, max_rounds=max_rounds,
                                                          **exact))))
        return done[0][1] if len(done) == 1 else solver.mix(done)

    def pruned_walk() -> solver.Walk[solver.Pruned]:
        done = []
        for w, fight in parts:
            stepped = solver.Stepped(fight, pruned_work, build_work)
            done.append((w, (yield from solver.walk_pruned(
                stepped, max_rounds=max_rounds, floor=solver.PRUNE_FLOOR,
                max_pruned=solver.MAX_ERROR))))
        if len(done) == 1:
            return done[0][1]
        mixed = solver.mix(done)  # type: ignore[arg-type]  # float chances mix alike
        return solver.Pruned(**{f.name: getattr(mixed, f.name) for f in dataclasses.fields(mixed)},
                             pruned=sum(float(w) * answer.pruned for w, answer in done))

    walks: tuple[tuple[str, WalkStart], ...] = (("pruned", pruned_walk),)
    if exact is not None:
        walks = (("exact", exact_walk), *walks)
    players = [solver.stepping_player(fight, kept) for _, fight in parts]
    den = math.lcm(*(w.denominator for w, _ in parts))
    cumulative = list(accumulate(w.numerator * (den // w.denominator) for w, _ in parts))

    def play(rng: random.Random) -> tuple[Any, int]:
        which = 0 if len(players) == 1 else bisect_right(cumulative, solver.below(rng, den))
        return players[which](max_rounds, rng)

    return Cascade(parts[0][1], max_rounds, walks, play, batch, max_fights, max_work,
                   untried=untried)
