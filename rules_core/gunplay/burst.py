"""Hits from one attack roll (source: d10 ranged combat, "Bursts and Full Auto").

One roll of 1d10 + modifiers is made for the whole burst; bullet i (counting from 1)
hits when the total meets DC + recoil x (i - 1).
"""

from __future__ import annotations

from fractions import Fraction

import icepool

from rules_core.dice.distribution import from_icepool


def burst_hits(total: int, dc: int, rounds: int = 1, recoil: int = 0) -> int:
    """How many of ``rounds`` bullets hit for a roll ``total`` (face + bonus)."""
    if total < dc:
        return 0
    if recoil == 0:
        return rounds
    return min(rounds, (total - dc) // recoil + 1)


def hit_distribution(dc: int, bonus: int, rounds: int = 1, recoil: int = 0) -> dict[int, Fraction]:
    """Exact distribution of hits: the d10 face run through :func:`burst_hits`."""
    die = icepool.d10.map(lambda face: burst_hits(face + bonus, dc, rounds, recoil))
    dist = from_icepool(die)
    return {hits: dist.get(hits, Fraction(0)) for hits in range(rounds + 1)}


def bullet_needs(dc: int, rounds: int = 1, recoil: int = 0) -> list[int]:
    """The total each bullet needs, first to last: DC, DC + recoil, DC + 2 x recoil, ..."""
    return [dc + recoil * i for i in range(rounds)]


def total_distribution(bonus: int) -> dict[int, Fraction]:
    """Exact distribution of an attack total, 1d10 + ``bonus``."""
    return from_icepool(icepool.d10 + bonus)


def chance_to_hit(dc: int, bonus: int) -> Fraction:
    """Chance that one shot hits: the same resolution as a burst of one round."""
    return 1 - hit_distribution(dc, bonus)[0]
