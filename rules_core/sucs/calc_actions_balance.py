"""The actions page's fair-fight finder, ``sucs.balance``: how many units, of what quality,
in what cover, or with how many suppression markers, give the outcome the chance the GM
wants; each point the whole engagement's own answer (:mod:`rules_core.sucs.calc_actions_fight`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, Variable, field_variable
from rules_core.calculator import Result
from rules_core.sucs.calc_actions_fight import ENGAGEMENT, FIELDS, LIMITS, MAX_UNITS, PAGE
from rules_core.sucs.turn import A_WINS, B_WINS


def _units(text: str) -> list[str]:
    """A side's units as written, one text each (the engagement's own separators)."""
    return [p.strip() for p in re.split(r"[,;\n]", text) if p.strip()]


def _each(side: str, change: Callable[[str, int], str]) -> Callable[[dict[str, Any], int], dict[str, Any]]:
    """Put a value into every unit of ``side``'s text."""
    key = f"side_{side}"

    def put(raw: dict[str, Any], value: int) -> dict[str, Any]:
        text = raw.get(key, _start(key))
        return {**raw, key: ", ".join(change(u, value) for u in _units(text))}
    return put


def _start(key: str) -> str:
    return str(next(f for f in FIELDS if f.name == key).start)


def _quality(unit: str, value: int) -> str:
    return re.sub(r"^\d+", str(value), unit)


def _cover(unit: str, value: int) -> str:
    kept = " ".join(t for t in unit.split() if not re.fullmatch(r"[cC]\d+", t))
    return kept + (f" c{value}" if value else "")


def _count(side: str) -> Variable:
    """The units of a side: its units in order, from the first again once all are used,
    up to the number given (fewer: the first ones)."""
    key = f"side_{side}"

    def put(raw: dict[str, Any], value: int) -> dict[str, Any]:
        units = _units(raw.get(key, _start(key)))
        return {**raw, key: ", ".join(units[i % len(units)] for i in range(value))}
    return Variable(f"{side}_units", f"Side {side.upper()}: number of units", 1, MAX_UNITS,
                    lambda raw: len(_units(raw.get(key, _start(key)))), put)


def _first(side: str, what: str) -> Callable[[dict[str, Any]], int]:
    """The value of ``what`` of the side's first unit (where a search starts around)."""
    key = f"side_{side}"

    def read(raw: dict[str, Any]) -> int:
        unit = (_units(str(raw.get(key, _start(key)))) or ["0"])[0]
        found = (re.match(r"\d+", unit) if what == "quality" else re.search(r"\b[cC](\d+)", unit))
        return int(found.group(1 if what == "cover" else 0)) if found else 0
    return read


def _per_unit(side: str, what: str, change: Callable[[str, int], str]) -> Variable:
    low, high = LIMITS[what]
    return Variable(f"{side}_{what}", f"Side {side.upper()}: {what} of every unit", low, high,
                    _first(side, what), _each(side, change))


SPEC = Balance(
    name="sucs.balance",
    fight=ENGAGEMENT,
    variables=(_count("a"), _count("b"), _per_unit("a", "quality", _quality),
               _per_unit("b", "quality", _quality), _per_unit("a", "cover", _cover),
               _per_unit("b", "cover", _cover),
               field_variable(FIELDS, "a_markers"), field_variable(FIELDS, "b_markers")),
    outcomes=(Outcome("a", A_WINS, lambda fight: (A_WINS,)),
              Outcome("b", B_WINS, lambda fight: (B_WINS,))),
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, PAGE)
