"""Make it a fair fight: the search for the value of one input of a whole fight that gives
an outcome the chance a GM wants.

Every point of the search is that whole fight's own answer, from its calculator and so
from its one cascade (:mod:`rules_core.cascade`): exact, within a walk's bound or
simulated, as the fight allows, and said as such. The search is a sequence of ever
better answers with the same protocol as a fight's :class:`rules_core.cascade.Refinement`
(``step``, ``settle``, ``done``), so the browser's worker runs it the same way: a first
curve across the range, then bisection near the wanted chance, then the value found
settled at the fight's own precision, the figures :func:`check` holds to.

How it searches: a first curve of a few values spread over the range (every value of a
short range); where two neighbouring points lie on either side of the wanted chance, the
gap is halved until the two are next to each other. A curve that does not move one way
(a fall past both points' error) is filled in between every point first, so that every
crossing of the wanted line is found and reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import Any

from rules_core import cascade
from rules_core.calculator import Calculator
from rules_core.errors import InputError
from rules_core.fields import validate_all
from rules_core.fields.nested import in_words
from rules_core.messages import describe

#: the named levels of a wanted chance (the chance of the outcome chosen): the one list,
#: which the Rulings page describes
LEVELS: dict[str, tuple[float, str]] = {
    "even": (0.5, "the outcome comes one fight in two: a coin toss"),
    "hard": (0.75, "the outcome comes three fights in four: for the players' side winning, "
                   "a fight they should win but can lose"),
    "deadly": (0.25, "the outcome comes one fight in four: for the players' side winning, "
                     "a fight they will more likely lose"),
}
#: the points of the first curve (every value when the range has at most FULL values)
FIRST_CURVE, FULL = 5, 9
#: the most fights the search asks about (a range is refused past its input's own limit)
MAX_POINTS = 40
#: how precise a point of the curve is (a simulation's 95% half-width); the value found
#: is settled at the whole fight's own precision
CURVE_PRECISION = cascade.Precision(0.02)
#: the first curve of a fight that can be simulated: a quick simulation of each point (a
#: few hundred fights), worked out properly once it lies next to the wanted line
SKETCH_PRECISION = cascade.Precision(0.08)


@dataclass(frozen=True)
class Variable:
    """An input of a whole fight the search may vary: the fight's raw inputs (as its
    calculator takes them) with a whole number put in."""

    key: str
    label: str
    minimum: int
    maximum: int
    read: Callable[[dict[str, Any]], int]
    put: Callable[[dict[str, Any], int], dict[str, Any]]
    #: the widest range a search may cover, in values (its points are whole fights)
    most_values: int = 40
    #: the values it takes go up by this much (die sizes: 2)
    step: int = 1


def field_variable(fields: tuple[Any, ...], name: str, most_values: int = 40,
                   step: int = 1) -> Variable:
    """A variable that is a whole-number field of the fight, as the fight declares it (a
    choice of whole numbers, such as a die size, from its first to its last choice)."""
    f = next(f for f in fields if f.name == name)
    low, high = ((f.minimum, f.maximum) if hasattr(f, "minimum") else
                 (min(v for v, _ in f.choices), max(v for v, _ in f.choices)))
    return Variable(name, f.label, low, high,
                    lambda raw: int(raw[name]) if raw.get(name) is not None else
                    (f.start if isinstance(f.start, int) else low),
                    lambda raw, v: {**raw, name: v}, most_values, step)


@dataclass(frozen=True)
class Outcome:
    """An outcome the GM may want a chance of: the whole fight's outcomes it adds up,
    named for the fight's inputs (a side's win is its foe wiped out or broken)."""

    key: str
    label: str
    names: Callable[[dict[str, Any]], tuple[str, ...]]


@dataclass(frozen=True)
class Point:
    """One value tried: the chance it gives, its largest error (a probability) and how it
    was found ("exact", "pruned", "simulation"); ``why`` the step of the search."""

    value: int
    chance: float
    error: float
    method: str
    why: str
    inputs: dict[str, Any] = field(default_factory=dict)
    #: a quick simulation of the first curve, not yet worked out properly
    sketch: bool = False


def wanted_chance(raw: Any) -> float:
    """A wanted chance: a named level, a number from 0 to 1, or a percentage ("40%")."""
    allowed = (f"a named level ({', '.join(LEVELS)}), a number from 0 to 1 (0.4) or a "
               f"percentage (40%)")
    if isinstance(raw, str) and raw.strip().lower() in LEVELS:
        return LEVELS[raw.strip().lower()][0]
    value: float | None = None
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        value = float(raw)
    elif isinstance(raw, str):
        text = raw.strip().rstrip("%").strip()
        try:
            value = float(text) / (100 if raw.strip().endswith("%") else 1)
        except ValueError:
            value = None
    if value is None or value != value:
        raise InputError("wanted", f"must be {allowed}; received {str(raw)[:40]!r}.")
    if not 0 <= value <= 1:
        raise InputError("wanted", f"must be a chance from 0 to 1 (0% to 100%); received "
                                   f"{str(raw)[:40]}. Give 0.3 or 30% for three fights in ten.")
    return value


def chance_of(result: dict[str, Any], names: tuple[str, ...]) -> tuple[float, float, str]:
    """The chance of any of ``names`` in a whole fight's result (its own outcomes, or the
    outcomes it adds up, ``summed``), its largest error and its method: 0 for an exact
    answer, the dropped chance of a pruned walk, the sum of each share's 95% half-width for
    a simulation."""
    outcomes = {**result["outcomes"], **result.get("summed", {})}
    chance = sum(outcomes.get(n, 0.0) for n in names)
    method = result.get("method", "exact")
    if method == "simulation":
        intervals = {**result["intervals"], **result.get("summed_intervals", {})}
        error = sum(max(chance_n - low, high - chance_n) for n in names
                    for chance_n, (low, high) in [(outcomes.get(n, 0.0),
                                                   intervals.get(n, (0.0, 0.0)))])
        return chance, error, method
    bound = float(result.get("error_bound") or 0.0)
    return chance, bound, "pruned" if bound else "exact"


def fight_inputs(calc: Calculator, raw: dict[str, Any], where: str) -> dict[str, Any]:
    """The clean inputs of the whole fight ``raw``; its first problem as an InputError of
    field ``where`` that names the fight's own field in words."""
    clean, errors = validate_all(calc.fields, raw)
    if errors:
        if errors[0].field not in {f.name for f in calc.fields}:
            unknown = errors[0].field if errors[0].field != "inputs" else "what was given"
            raise InputError(where, f"holds {describe(unknown)}, which is not an input of "
                                    f"{calc.title.lower()}; hand the fight on with its own "
                                    f"button rather than typing it.")
        said = in_words(calc.fields, errors[0])
        raise InputError(where, said.message)
    assert clean is not None
    if calc.check is not None:
        try:
            calc.check(clean)
        except InputError as err:
            raise InputError(where, in_words(calc.fields, err).message) from None
    return clean


@dataclass
class Search:
    """The search as ever better answers (see the module's text): ``points`` are the
    values tried, in the order tried; ``found`` the value settled at the end."""

    calc: Calculator
    fight: dict[str, Any]
    variable: Variable
    names: tuple[str, ...]
    wanted: float
    low: int
    high: int
    #: the precision the value found is settled to (the whole fight's own by default)
    final: cascade.Precision = cascade.DEFAULT
    clock: Callable[[], float] = time.perf_counter
    points: list[Point] = field(default_factory=list)
    found: Point | None = None
    done: bool = False
    stopped: str = ""

    def __post_init__(self) -> None:
        self._work = self._search()
        #: points added, worked out or settled so far (a new answer each)
        self._changes = 0

    # ---- the protocol of a refinement ------------------------------------------------

    def step(self, seconds: float = 0.05) -> bool:
        """About ``seconds`` of work; True when a point was added or worked out (a new
        answer)."""
        start, before = self.clock(), self._changes
        while not self.done and self.clock() - start < seconds:
            try:
                next(self._work)
            except StopIteration:
                self.done, self.stopped = True, "found"
            if self._changes != before:
                return True
        return self._changes != before or self.done

    def settle(self) -> Search:
        while not self.done:
            self.step(1.0)
        return self

    # ---- the work --------------------------------------------------------------------

    def _sketchable(self) -> bool:
        sharpen = self.calc.sharpen
        return sharpen is not None and sharpen.cascade is not None

    def _point(self, value: int, why: str, wanted: cascade.Precision, sketch: bool = False
               ) -> Generator[None, None, Point]:
        """One whole fight's answer for ``value``, through its cascade, a piece a step (a
        sketch: its simulation alone, to :data:`SKETCH_PRECISION`)."""
        raw = self.variable.put(self.fight, value)
        clean = fight_inputs(self.calc, raw, "high")
        sharpen = self.calc.sharpen
        if sharpen is None or sharpen.cascade is None:
            result = self.calc.compute(clean)
            yield  # one exact answer, one piece of work
        else:
            made = sharpen.cascade(clean)
            sketch = sketch and made.play_once is not None
            if sketch:
                made, wanted = replace(made, walks=()), SKETCH_PRECISION
            refined = cascade.Refinement(made, wanted)
            while not refined.done:
                refined.step(0.05)
                yield
            if refined.answer is None:  # refused: no walk fits and nothing to simulate
                raise InputError("high", f"{self.variable.label} {value}: this fight cannot be "
                                         f"worked out ({refined.why_not_exact}); narrow the range.")
            result = sharpen.result(clean, refined)
        chance, error, method = chance_of(result, self.names)
        return Point(value, chance, error, method, why, raw, sketch)

    def _add(self, value: int, why: str, sketch: bool = False) -> Generator[None, None, None]:
        if any(p.value == value for p in self.points):
            return
        self.points.append((yield from self._point(value, why, CURVE_PRECISION, sketch)))
        self._changes += 1

    def _work_out(self, point: Point) -> Generator[None, None, None]:
        """A sketched point worked out properly (it lies next to the wanted line)."""
        proper = yield from self._point(point.value, point.why + ", then worked out near the line",
                                        CURVE_PRECISION)
        self.points = [proper if p.value == point.value else p for p in self.points]
        self._changes += 1

    def _could_be_nearest(self) -> list[Point]:
        """The sketched points that, within their error, could be nearer the wanted line
        than every point worked out properly (all of them while none is): each is worked
        out before the nearest is chosen, so that a rough figure never hides it."""
        w = self.wanted
        proper = [p for p in self.points if not p.sketch]
        bound = min((abs(p.chance - w) + p.error for p in proper), default=float("inf"))
        rough = sorted((p for p in self.points if p.sketch and abs(p.chance - w) - p.error < bound),
                       key=lambda p: abs(p.chance - w))
        return rough[:1] if not proper else rough

    def curve(self) -> list[Point]:
        """The points tried, by value."""
        return sorted(self.points, key=lambda p: p.value)

    def steady(self) -> bool:
        """Whether the chance moves one way only over the points tried (a change smaller
        than the two points' errors is no change)."""
        signs = set()
        pts = self.curve()
        for a, b in zip(pts, pts[1:]):
            if abs(b.chance - a.chance) > a.error + b.error + 1e-12:
                signs.add(b.chance > a.chance)
        return len(signs) <= 1

    def crossings(self) -> list[tuple[Point, Point]]:
        """Each pair of neighbouring points tried on either side of the wanted line (or one
        of them on it)."""
        pts, w = self.curve(), self.wanted
        return [(a, b) for a, b in zip(pts, pts[1:])
                if (a.chance - w) * (b.chance - w) < 0 or (a.chance == w and a is pts[0])
                or b.chance == w]

    def nearest(self) -> Point:
        """The point tried nearest the wanted chance (the lower value on a tie)."""
        return min(self.curve(), key=lambda p: (abs(p.chance - self.wanted), p.value))

    def neighbours(self, value: int) -> list[Point]:
        """The points tried just below and just above ``value``."""
        pts = self.curve()
        below = [p for p in pts if p.value < value][-1:]
        above = [p for p in pts if p.value > value][:1]
        return below + above

    def _search(self) -> Generator[None, None, None]:
        step = self.variable.step
        n = (self.high - self.low) // step + 1
        at = lambda i: self.low + i * step  # noqa: E731 - the i-th value of the range
        first = (range(n) if n <= FULL else
                 sorted({round((n - 1) * i / (FIRST_CURVE - 1)) for i in range(FIRST_CURVE)}))
        sketch = self._sketchable()
        for i in first:
            yield from self._add(at(i), "first curve" + (" (quick simulation)" if sketch else ""),
                                 sketch)
        if not self.steady():
            # not one way: fill in between every point, so that no crossing hides there
            for a, b in list(zip(self.curve(), self.curve()[1:])):
                if b.value - a.value > step and len(self.points) < MAX_POINTS:
                    yield from self._add(self._between(a.value, b.value), "filled in (the curve turns)",
                                         sketch)
        while len(self.points) < MAX_POINTS:
            rough = [p for pair in self.crossings() for p in pair if p.sketch] or \
                self._could_be_nearest()
            if rough:
                yield from self._work_out(rough[0])
                continue
            wide = [(a, b) for a, b in self.crossings() if b.value - a.value > step]
            if not wide:
                break
            a, b = wide[0]
            yield from self._add(self._between(a.value, b.value), "halving the gap")
        best = self.nearest()
        yield from self._settle(best)
        # the value settled may have moved away from the line: a neighbour that could be
        # nearer (within its error) is settled too, and the nearer of the two kept
        assert self.found is not None
        for other in self.neighbours(best.value):
            if abs(other.chance - self.wanted) - other.error < abs(self.found.chance - self.wanted):
                previous = self.found
                yield from self._settle(other)
                if abs(previous.chance - self.wanted) <= abs(self.found.chance - self.wanted):
                    self.found = previous
                    self._changes += 1

    def _between(self, a: int, b: int) -> int:
        """The value of the range halfway between ``a`` and ``b`` (rounded down)."""
        step = self.variable.step
        return a + ((b - a) // step // 2) * step

    def _settle(self, point: Point) -> Generator[None, None, None]:
        """``point``'s value at the whole fight's own precision (its answer for the API)."""
        if point.method == "exact" or point.error == 0:
            self.found = point
            self._changes += 1
            return
        settled = yield from self._point(point.value, "settled at the fight's own precision",
                                         self.final)
        self.points = [settled if p.value == point.value else p for p in self.points]
        self.found = settled
        self._changes += 1

    # ---- what it found ---------------------------------------------------------------

    def check(self) -> dict[str, Any] | None:
        """What anyone can check: the whole fight's inputs of the value found, its outcome,
        the chance claimed and the largest error allowed (None until settled)."""
        if self.found is None:
            return None
        outcome: str | list[str] = self.names[0] if len(self.names) == 1 else list(self.names)
        return {"inputs": self.found.inputs, "outcome": outcome, "chance": self.found.chance,
                "precision": self.found.error}
