"""The one JSON entry point: ``run(name, inputs) -> dict`` (and ``roll`` for real dice).

Success: ``{"ok": true, "result": {...}, "explanation": "markdown", "display": {...}}``.
Bad input: ``{"ok": false, "error": {"field": "...", "message": "..."}}``. Nothing a
caller sends makes these functions raise.
"""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator
from rules_core.catalog import calculators
from rules_core.errors import InputError
from rules_core.fields import describe, initial_inputs, validate

_SYSTEM_RANDOM = random.SystemRandom()


def names() -> list[str]:
    """Every calculator name, in site order."""
    return list(calculators())


def spec(name: str) -> dict[str, Any]:
    """The calculator's public description: title, summary and its form fields."""
    calc = _find(name)
    return {
        "name": calc.name,
        "title": calc.title,
        "summary": calc.summary,
        "page": calc.page,
        "fields": [f.form() for f in calc.fields],
        "initial": initial_inputs(calc.fields),
        "can_roll": calc.roll is not None,
        "roll_label": calc.roll_label,
    }


def _find(name: Any) -> Calculator:
    table = calculators()
    if not isinstance(name, str) or name not in table:
        raise InputError(
            "name", f"no calculator is called {describe(name)}; known: {', '.join(table)}."
        )
    return table[name]


def _error(err: InputError) -> dict[str, Any]:
    return {"ok": False, "error": {"field": err.field, "message": err.message}}


def _prepare(name: Any, inputs: Any) -> tuple[Calculator, dict[str, Any]]:
    calc = _find(name)
    clean = validate(calc.fields, inputs)
    if calc.check is not None:
        calc.check(clean)
    return calc, clean


def _display(calc: Calculator, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": calc.title,
        "headline": [[label, value] for label, value in calc.headline(result)],
        "charts": [
            {"key": c.key, "title": c.title, "outcome_label": c.outcome_label,
             "ordered": c.ordered}
            for c in calc.charts
            if c.key in result
        ],
    }


def run(name: str, inputs: Any) -> dict[str, Any]:
    """Compute calculator ``name`` for ``inputs`` (a JSON object)."""
    try:
        calc, clean = _prepare(name, inputs)
        result = calc.compute(clean)
    except InputError as err:
        return _error(err)
    return {
        "ok": True,
        "result": result,
        "explanation": calc.explain(clean, result),
        "display": _display(calc, result),
    }


def roll(name: str, inputs: Any, rng: random.Random | None = None) -> dict[str, Any]:
    """Roll real dice for calculator ``name``: the same rule fed with random faces."""
    try:
        calc, clean = _prepare(name, inputs)
        if calc.roll is None:
            raise InputError("name", f"{calc.title} has nothing to roll.")
        result = calc.roll(clean, rng or _SYSTEM_RANDOM)
    except InputError as err:
        return _error(err)
    return {"ok": True, "result": result, "explanation": "", "display": {"roll": True}}
