"""Exact distributions and their JSON form.

A distribution is a mapping outcome -> Fraction. Its JSON form is two objects with the
same keys in outcome order: probabilities as floats (for charts) and as exact fraction
strings (for anyone who wants the exact figure).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only named in a signature: the formatters here work without icepool
    import icepool


def from_icepool(die: icepool.Die) -> dict[Any, Fraction]:
    """An icepool Die as outcome -> exact probability, in outcome order."""
    total = die.denominator()
    return {outcome: Fraction(quantity, total) for outcome, quantity in die.items()}


def to_json(key: str, dist: Mapping[Any, Fraction]) -> dict[str, dict[str, Any]]:
    """``{key: {outcome: float}, key + "_exact": {outcome: "p/q"}}``."""
    return {
        key: {str(k): float(p) for k, p in dist.items()},
        key + "_exact": {str(k): str(p) for k, p in dist.items()},
    }


def at_least(dist: Mapping[int, Fraction], threshold: int) -> Fraction:
    """P(outcome >= threshold)."""
    return sum((p for k, p in dist.items() if k >= threshold), Fraction(0))


def percent(p: Fraction | float, places: int = 1) -> str:
    """A probability as a percentage for display, e.g. ``"45.0%"``: the one formatter of
    the headline, the explanation, the charts and the tables. A chance that is possible
    is never shown as 0% nor one that can fail as 100%: below half the last place it
    reads ``"<0.1%"``, above 100% less that, ``">99.9%"``."""
    half = Fraction(1, 2 * 10 ** (places + 2))
    exact = Fraction(p) if isinstance(p, (int, Fraction)) or math.isfinite(p) else None
    if exact is not None and 0 < exact < half:
        return f"<{1 / 10 ** places:.{places}f}%"
    if exact is not None and 1 - half < exact < 1:
        return f">{100 - 1 / 10 ** places:.{places}f}%"
    return f"{float(p) * 100:.{places}f}%"
