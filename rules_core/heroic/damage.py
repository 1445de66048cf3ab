"""Damage dice and the injury that N hits do to a group (source: Heroic Combat, Melee
Attacks, where each hit's damage is rolled and DR comes off as in the Basic Set, and
Multiple Attackers, the group HP method).

GURPS writes damage as dice of d6 plus or minus a number: "2d", "1d+2", "3d-1".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import icepool

from rules_core.dice.distribution import from_icepool
from rules_core.errors import InputError
from rules_core.heroic.groups import injury_from
from rules_core.messages import describe

MAX_DICE = 10
MAX_ADD = 50


@dataclass(frozen=True)
class Damage:
    """Damage per hit: ``dice`` d6 plus ``add`` (which may be negative)."""

    dice: int
    add: int

    def __str__(self) -> str:
        return f"{self.dice}d" + (f"{self.add:+d}" if self.add else "")


def damage_parser(label: str):
    """A TextField parser for GURPS damage dice, naming the field by ``label``."""

    def parse(field: str, raw: Any) -> Damage:
        if not isinstance(raw, str):
            raise InputError(field, f"{label}: expected GURPS dice such as 2d or 1d+2, "
                                    f"received {describe(raw)}.")
        m = re.fullmatch(r"\s*(\d{1,3})\s*d6?\s*(?:([+-])\s*(\d{1,4}))?\s*", raw, re.IGNORECASE)
        if not m:
            raise InputError(field, f'{label}: "{raw[:20]}" is not GURPS damage; write dice of '
                                    f"d6 and an optional adjustment, such as 2d, 1d+2 or 3d-1.")
        dice = int(m.group(1))
        add = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
        if not 1 <= dice <= MAX_DICE:
            raise InputError(field, f"{label}: {dice} dice; from 1 to {MAX_DICE} are accepted.")
        if abs(add) > MAX_ADD:
            raise InputError(field, f"{label}: an adjustment of {add:+d}; from -{MAX_ADD} to "
                                    f"+{MAX_ADD} is accepted.")
        return Damage(dice, add)

    return parse


def hit_damage(faces: list[int], damage: Damage) -> int:
    """One hit's basic damage from its dice (at least 0: GURPS never rolls below 0 for
    cutting or impaling; the Basic Set's minimum of 1 for crushing is not needed once DR
    comes off)."""
    return max(0, sum(faces) + damage.add)


@cache
def one_hit(damage: Damage) -> tuple[int, ...]:
    """Ways (out of 6 ** dice) for one hit to do 0, 1, 2... damage, from icepool."""
    die = (damage.dice @ icepool.d6 + damage.add).map(lambda t: max(0, t))
    counts = [0] * (int(die.max_outcome()) + 1)
    for value, ways in die.items():
        counts[int(value)] += int(ways) * (6 ** damage.dice // int(die.denominator()))
    return tuple(counts)


@cache
def damage_sum(hits: int, damage: Damage) -> tuple[int, ...]:
    """Ways (out of 6 ** (dice x hits)) for ``hits`` hits to add up to 0, 1, 2... damage.

    The hits are independent, so this is one hit's counts raised to the power ``hits`` as a
    polynomial, done as one integer power with each coefficient in its own wide digit (far
    faster than adding dice one at a time, and checked against icepool in the tests).
    """
    base = one_hit(damage)
    width = (6 ** (damage.dice * hits)).bit_length() + 1
    packed = sum(c << (width * i) for i, c in enumerate(base)) ** hits
    size = (len(base) - 1) * hits + 1
    raw = packed.to_bytes((width * size + 7) // 8 + 1, "little")
    if width % 8 == 0:
        step = width // 8
        return tuple(int.from_bytes(raw[i * step:(i + 1) * step], "little") for i in range(size))
    mask = (1 << width) - 1
    return tuple((packed >> (width * i)) & mask for i in range(size))


@cache
def pooled_injury_counts(hits: int, damage: Damage, dr: int, wounding: Fraction
                         ) -> dict[int, int]:
    """Ways (out of 6 ** (dice x hits)) for ``hits`` pooled hits to do each injury."""
    if hits == 0:
        return {0: 1}
    out: dict[int, int] = {}
    for total, ways in enumerate(damage_sum(hits, damage)):
        if ways:
            injury = injury_from(max(0, total - dr * hits), wounding)
            out[injury] = out.get(injury, 0) + ways
    return out


def pooled_injury(hits: int, damage: Damage, dr: int, wounding: Fraction) -> dict[int, Fraction]:
    """Exact distribution of the pooled injury from ``hits`` hits: every hit's damage
    added up, DR x hits taken off, times the wounding multiplier (the group method)."""
    denominator = 6 ** (damage.dice * hits)
    return {k: Fraction(w, denominator)
            for k, w in sorted(pooled_injury_counts(hits, damage, dr, wounding).items())}


@cache
def per_roll_injury(hits: int, damage: Damage, dr: int, wounding: Fraction
                    ) -> dict[int, Fraction]:
    """The same hits with DR taken off each roll (the variant of heroic.group_injury): the
    damage past DR of every roll added up, then times the wounding multiplier."""
    if hits == 0:
        return {0: Fraction(1)}
    one = (damage.dice @ icepool.d6 + damage.add).map(lambda t: max(0, max(0, t) - dr))
    return from_icepool((hits @ one).map(lambda t: injury_from(t, wounding)))
