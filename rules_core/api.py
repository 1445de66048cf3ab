"""The one JSON entry point: ``run(name, inputs) -> dict`` (and ``roll`` for real dice).

Success: ``{"ok": true, "result": {...}, "explanation": "markdown", "display": {...}}``.
Bad input: ``{"ok": false, "error": {"field": "...", "message": "..."}, "errors": [...]}``:
``error`` is the first problem, ``errors`` lists every problem found (the first
included). ``field`` is the path of the bad value (``attacker.2``); ``message`` is a
sentence that names it in words ("Attacker dice, the 2nd die must be ..."). Nothing a
caller sends makes these functions raise: a value Python itself cannot handle (too deep,
too large) gives an error reply as well.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from rules_core import cascade
from rules_core.calculator import Calculator
from rules_core.catalog import apps, calculators, find
from rules_core.errors import InputError
from rules_core.fields import in_words, validate_all
from rules_core.messages import describe, sentence

_SYSTEM_RANDOM = random.SystemRandom()


def names() -> list[str]:
    """Every calculator name, in site order."""
    return list(calculators())


def spec(name: str) -> dict[str, Any]:
    """The calculator's public description: title, summary and its form fields."""
    return _find(name).spec()


def app_data(name: str) -> dict[str, Any]:
    """Everything app ``name`` (``sucs.roster``, ``phases.tracker``) needs from the core:
    its limits, formats, rule values and prerendered data, so that no template or script
    retypes them (see ``rules_core.catalog.apps``)."""
    made = apps().get(name)
    if made is None:
        raise InputError("name", f"is not known: no app is called {describe(name)}; the apps "
                                 f"are: {', '.join(apps())}.")
    return made()


def _find(name: Any) -> Calculator:
    calc = find(name)
    if calc is None:
        raise InputError(
            "name", f"is not known: no calculator is called {describe(name)}; "
                    f"the calculators are: {', '.join(calculators())}."
        )
    return calc


class _Refused(Exception):
    """Every problem with a request, already in words."""

    def __init__(self, errors: list[InputError]) -> None:
        super().__init__(errors[0].message)
        self.errors = errors


def error_reply(errors: list[InputError]) -> dict[str, Any]:
    """The error response for a list of problems (first one first)."""
    listed = [{"field": e.field, "message": e.message} for e in errors]
    return {"ok": False, "error": listed[0], "errors": listed}


def _prepare(name: Any, inputs: Any) -> tuple[Calculator, dict[str, Any]]:
    try:
        calc = _find(name)
    except InputError as err:
        raise _Refused([InputError(err.field, sentence("the calculator's name", err.message))]) \
            from None
    clean, errors = validate_all(calc.fields, inputs)
    if errors:
        raise _Refused([in_words(calc.fields, e) for e in errors])
    assert clean is not None
    check = calc.check
    if check is not None:
        _guarded(calc, lambda: check(clean))
    return calc, clean


def _guarded(calc: Calculator, step: Callable[[], Any]) -> Any:
    """Run one step of a calculator; its InputError comes back in words."""
    try:
        return step()
    except InputError as err:
        # the wanted precision is not a field of the form: its message names it already
        said = err if err.field == cascade.PRECISION_FIELD else in_words(calc.fields, err)
        raise _Refused([said]) from None


def _display(calc: Calculator, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": calc.title,
        "headline": [[label, value] for label, value in calc.headline(result)],
        "charts": [
            {"key": c.key, "title": str(result.get("chart_titles", {}).get(c.key, c.title)),
             "outcome_label": c.outcome_label,
             "ordered": c.ordered, "zone": list(c.zone) if c.zone else None,
             **({"line": c.line} if c.line else {})}
            for c in calc.charts
            if c.key in result
        ],
    }


def could_not(err: BaseException, subject: str, *, plural: bool, smaller: str, other: str) -> str:
    """In words, why ``subject`` could not be worked through when Python itself failed
    with ``err`` (too deep, too large, a number too big; ``smaller`` follows these) or
    anything else (named, then ``other``). The runtime uses it for a whole request."""
    be, hold = ("are", "hold") if plural else ("is", "holds")
    what = {RecursionError: f"{be} nested too deeply to work through",
            MemoryError: f"{be} too large to work through",
            OverflowError: f"{hold} a number too large to work with"}.get(type(err))  # type: ignore[arg-type]
    return (f"{subject} {what}; {smaller}" if what else
            f"{subject} could not be worked through ({type(err).__name__}); {other}")


def _failure(err: BaseException) -> dict[str, Any]:
    """A reply for what Python itself could not handle (the promise: never raise)."""
    message = could_not(err, "The inputs", plural=True, smaller="send smaller values.",
                        other="check the values and try again.")
    return error_reply([InputError("inputs", message)])


Answered = TypeVar("Answered")


def _answer(work: Callable[[], Answered]) -> Answered | dict[str, Any]:
    try:
        return work()
    except _Refused as refused:
        return error_reply(refused.errors)
    except Exception as err:  # noqa: BLE001 - the contract: a reply, never an exception
        return _failure(err)


def _response(calc: Calculator, clean: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    return {
        "ok": True,
        "result": result,
        "explanation": calc.explain(clean, result),
        "display": _display(calc, result),
    }


def run(name: str, inputs: Any, precision: Any = None) -> dict[str, Any]:
    """Compute calculator ``name`` for ``inputs`` (a JSON object). A whole fight is
    given settled (:mod:`rules_core.cascade`): exact, within its walk's bound, or
    simulated to ``precision`` ("exact", "0.2 points", "3 s"; half a point unless told)."""
    def work() -> dict[str, Any]:
        calc, clean = _prepare(name, inputs)
        sharpen = calc.sharpen
        if sharpen is None:
            if precision is not None:
                raise _Refused([InputError(cascade.PRECISION_FIELD, (
                    f"{cascade.PRECISION_LABEL}: {calc.title} is always exact; a precision "
                    "is only taken by a whole fight."))])
            return _response(calc, clean, _guarded(calc, lambda: calc.compute(clean)))
        wanted = _guarded(calc, lambda: cascade.precision(precision))
        return _response(calc, clean, _guarded(calc, lambda: sharpen.compute(clean, wanted)))
    return _answer(work)


class Sharpening:
    """A whole fight's answers as they sharpen (:func:`begin`): each :meth:`step` does a
    piece of work and gives the newest response, or None when nothing new came of it."""

    def __init__(self, calc: Calculator, clean: dict[str, Any],
                 refinement: cascade.Refining) -> None:
        self.calc, self.clean, self.refinement = calc, clean, refinement
        #: when the last response was given (the refinement's clock), and whether a newer
        #: answer has come since and been held back
        self._given, self._held = -math.inf, False

    @property
    def done(self) -> bool:
        return self.refinement.done

    def step(self, seconds: float = 0.05, hold: float = 0.0) -> dict[str, Any] | None:
        """About ``seconds`` of work (pieces of it, until the time is up or the answer is
        settled); the response for the newest answer, or None when none came of it. A new
        answer within ``hold`` seconds of the last response is held back, and given by the
        first step after that (the settled one never is): a page need not be drawn again
        for every batch of fights."""
        def work() -> dict[str, Any] | None:
            refinement, clock = self.refinement, self.refinement.clock
            start, new = clock(), self._held
            while not refinement.done and clock() - start < seconds:
                piece = max(0.01, seconds - (clock() - start))
                new = _guarded(self.calc, functools.partial(refinement.step, piece)) or new
            if not new:
                return None
            if not refinement.done and clock() - self._given < hold:
                self._held = True
                return None
            self._given, self._held = clock(), False
            sharpen = self.calc.sharpen
            assert sharpen is not None
            result = _guarded(self.calc, lambda: sharpen.result(self.clean, self.refinement))
            return _response(self.calc, self.clean, result)
        try:
            return work()
        except _Refused as refused:
            self.refinement.done = True
            return error_reply(refused.errors)
        except Exception as err:  # noqa: BLE001 - the contract: a reply, never an exception
            self.refinement.done = True
            return _failure(err)


def begin(name: str, inputs: Any, first_after: float = 0.3) -> Sharpening | dict[str, Any]:
    """Start the answers of calculator ``name`` for ``inputs`` as they sharpen: a
    :class:`Sharpening` for a whole fight, else the one response (as :func:`run`)."""
    def work() -> Sharpening | dict[str, Any]:
        calc, clean = _prepare(name, inputs)
        sharpen = calc.sharpen
        if sharpen is None:
            return _response(calc, clean, _guarded(calc, lambda: calc.compute(clean)))
        return Sharpening(calc, clean, _guarded(calc, lambda: sharpen.begin(clean, first_after)))
    return _answer(work)


def roll(name: str, inputs: Any, rng: random.Random | None = None) -> dict[str, Any]:
    """Roll real dice for calculator ``name``: the same rule fed with random faces."""
    def work() -> dict[str, Any]:
        calc, clean = _prepare(name, inputs)
        roller = calc.roll
        if roller is None:
            raise _Refused([InputError("name", f"{calc.title} has nothing to roll.")])
        result = _guarded(calc, lambda: roller(clean, rng or _SYSTEM_RANDOM))
        return {"ok": True, "result": result, "explanation": "", "display": {"roll": True}}
    return _answer(work)
