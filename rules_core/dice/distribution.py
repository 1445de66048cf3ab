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


#: a chance below this reads "1 in N" (tables and charts): "0.4%" and "<0.1%" say less
#: to a reader than "1 in 250" and "1 in 42,000"
RARE = Fraction(1, 100)
_LARGE = ((12, "trillion"), (9, "billion"), (6, "million"))
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def one_in(p: Fraction | float) -> str:
    """A chance ``0 < p < 1`` as "1 in N", N = 1/p to two significant figures:
    ``"1 in 250"``, ``"1 in 42,000"``, ``"1 in 3.2 million"`` (then billion, trillion),
    ``"1 in 4.5 × 10¹⁸"``: never a long run of digits, however small the chance."""
    n = 1 / Fraction(p)
    # the decimal exponent k, 10**k <= n < 10**(k+1), without printing a huge integer
    k = max(0, int((n.numerator.bit_length() - n.denominator.bit_length()) * 0.30103) - 1)
    while 10 ** (k + 1) <= n:
        k += 1
    if k < 2:  # 1 < n < 100: a whole number
        return f"1 in {round(n)}"
    m = round(n / 10 ** (k - 1))  # two significant figures, 10..100
    if m == 100:
        m, k = 10, k + 1
    if k < 6:
        return f"1 in {m * 10 ** (k - 1):,}"
    for power, word in _LARGE:
        if power <= k < power + 3:
            scaled = Fraction(m * 10 ** (k - 1), 10 ** power)
            figure = str(scaled.numerator) if scaled.denominator == 1 else f"{float(scaled):.1f}"
            return f"1 in {figure} {word}"
    mantissa = f"{m // 10}" if m % 10 == 0 else f"{m / 10:.1f}"
    power_text = f"10{str(k).translate(_SUPERSCRIPT)}"
    return f"1 in {power_text}" if mantissa == "1" else f"1 in {mantissa} × {power_text}"


def chance(p: Fraction | float) -> str:
    """A chance as the odds tables and charts show it: a percentage (:func:`percent`),
    or "1 in N" (:func:`one_in`) when it is possible but below 1% (:data:`RARE`)."""
    exact = Fraction(p) if isinstance(p, (int, Fraction)) or math.isfinite(p) else None
    if exact is not None and 0 < exact < RARE:
        return one_in(exact)
    return percent(p)
