"""One Cortex roll and the exact odds of a contest between two pools.

Source: the Cortex Prime rules the small unit rules build on, as Part I and Part II use
them: every die rolled; 1s are hitches and count for nothing; the total is the best two
other dice; one more die is the effect die (a d4 when none is left); the defender wins
ties. Part I, "Extra Effect Dice": one more effect die per 3 full points of margin, one
more for a plot point, "assuming an effect die is available".

Choice of dice (see the odds page): the attacker rolls before the defender, so it
cannot aim at a known total. It takes the **highest total** and then keeps the largest
dice for effect: among dice showing equal faces, the smaller ones go into the total.
:func:`resolve` is the one resolution rule; the roller feeds it random faces and the
odds (:func:`outcome_weights`) count the same rule exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from math import factorial
from typing import Any

from rules_core.cortex.dice import name

#: The most effect dice one roll can yield: 1 + 24 // 3 extra + 1 for a plot point.
MAX_EFFECT_DICE = 10


@dataclass(frozen=True)
class Roll:
    """A resolved pool: faces in the order given, and what the roller keeps."""

    dice: tuple[tuple[int, int], ...]  # (size, face)
    hitches: tuple[int, ...]  # indices of dice that rolled 1
    total_dice: tuple[int, ...]  # indices of the (at most two) dice in the total
    total: int
    remaining: tuple[int, ...]  # sizes of the other non-hitch dice, largest first

    @property
    def effect_die(self) -> int:
        """The largest remaining die, or d4 when no die is left (Cortex Prime)."""
        return self.remaining[0] if self.remaining else 4


def resolve(dice: Sequence[tuple[int, int]]) -> Roll:
    """Resolve ``(size, face)`` pairs: hitches, the best total, the dice left for effect."""
    hitches = tuple(i for i, (_, face) in enumerate(dice) if face == 1)
    usable = sorted((i for i, (_, face) in enumerate(dice) if face != 1),
                    key=lambda i: (-dice[i][1], dice[i][0], i))
    chosen = tuple(usable[:2])
    rest = sorted((dice[i][0] for i in usable[2:]), reverse=True)
    return Roll(tuple(dice), hitches, chosen, sum(dice[i][1] for i in chosen), tuple(rest))


def roll_pool(sizes: Sequence[int], rng: random.Random) -> Roll:
    """Roll real dice and resolve them with :func:`resolve`."""
    return resolve([(size, rng.randint(1, size)) for size in sizes])


def contest_roll(attacker: Sequence[int], defender: Sequence[int], rng: random.Random,
                 who: str, against: str) -> tuple[int, list[dict[str, Any]], str]:
    """Roll one contest with real dice (Cortex Prime: the defender wins ties; the winner's
    effect die is the largest die left over, a d4 when none is).

    Returns the attacker's effect die (0 for a failure), the dice rolled labelled
    ``"<who> d8"`` / ``"<against> d6"``, and a sentence saying who rolled what and who won.
    Every Cortex helper that rolls a contest (medic, flanking, cover, fire) uses it.
    """
    att, dfn = roll_pool(attacker, rng), roll_pool(defender, rng)
    dice: list[dict[str, Any]] = [{"die": f"{who} {name(s)}", "face": f} for s, f in att.dice]
    dice += [{"die": f"{against} {name(s)}", "face": f} for s, f in dfn.dice]
    won = effect_dice(att.remaining, att.total - dfn.total)
    text = f"{who} {att.total} against {against} {dfn.total}"
    if not won:
        return 0, dice, text + ": fails (ties go to the defence)."
    return won[0], dice, text + f": wins with a {name(won[0])} effect die"


def reach_roll(attacker: list[int], defender: list[int], rng: random.Random, who: str,
               against: str, needed: int, reached: str, short: str
               ) -> tuple[bool, list[dict[str, Any]], str]:
    """Roll a contest that must win with an effect die of ``needed`` or larger (Part II:
    the medic's test, flanking): whether it did, the dice, and a sentence ending with
    ``reached`` or ``short`` when the contest is won."""
    die, dice, text = contest_roll(attacker, defender, rng, who, against)
    done = die >= needed
    if die:
        text += f", {reached if done else short}."
    return done, dice, text


def dice_json(roll: Roll, label: str = "") -> list[dict[str, Any]]:
    """The dice of ``roll`` as a result's ``dice`` list, each labelled "<label> d8"."""
    prefix = f"{label} " if label else ""
    return [{"die": f"{prefix}{name(size)}", "face": face} for size, face in roll.dice]


def describe_roll(roll: Roll) -> str:
    """'total 11 (6 + 5), effect die d8, 1 hitch'."""
    faces = " + ".join(str(roll.dice[i][1]) for i in roll.total_dice) or "no usable die"
    hitches = len(roll.hitches)
    hitch = f", {hitches} hitch{'es' if hitches != 1 else ''}" if hitches else ""
    effect = name(roll.effect_die) + ("" if roll.remaining else " (none left: d4)")
    return f"total {roll.total} ({faces}), effect die {effect}{hitch}"


class EffectLimit(str, Enum):
    """How many effect dice a winning roll may use (Rulings: how many effect dice)."""

    MARGIN = "margin"  # Part I: one, plus one per 3 full points of margin (+1 plot point)
    EVERY = "every"  # Part II's worked example: every die left over


def effect_count(margin: int, plot_point: bool = False,
                 limit: EffectLimit = EffectLimit.MARGIN) -> int:
    """How many effect dice a win by ``margin`` asks for (0 when it does not win);
    :data:`MAX_EFFECT_DICE` stands for "all of them" under ``EffectLimit.EVERY``."""
    if margin <= 0:
        return 0
    if limit is EffectLimit.EVERY:
        return MAX_EFFECT_DICE
    return 1 + margin // 3 + (1 if plot_point else 0)


def effect_dice(remaining: Sequence[int], margin: int, plot_point: bool = False,
                limit: EffectLimit = EffectLimit.MARGIN) -> tuple[int, ...]:
    """The effect dice a winning roll gets (empty when it does not win).

    Part I (``MARGIN``, the default): one die, plus one per 3 full points of margin, plus
    one for a plot point. Part II's example (``EVERY``): every die left over. Either way
    they are taken largest first from the dice left over; with no die left, a single d4
    and no extras (ruling: extra effect dice need dice to be available, source Part I).
    """
    wanted = effect_count(margin, plot_point, limit)
    if not wanted:
        return ()
    if not remaining:
        return (4,)
    return tuple(remaining[:wanted])


Key = tuple[int, tuple[int, ...], int]  # (total, largest remaining dice, how many remain)


def _groups(sizes: Sequence[int]) -> list[tuple[int, int]]:
    """(size, count) from largest to smallest."""
    return [(s, sizes.count(s)) for s in sorted(set(sizes), reverse=True)]


def _multinomial(m: int, parts: Sequence[int]) -> int:
    out = factorial(m)
    for p in parts:
        out //= factorial(p)
    return out


def _category_weights(n: int, t2: int, s2: int) -> tuple[int, int, int]:
    """For a d``n`` and the second total die showing ``t2`` on a d``s2``: how many faces
    rank above it (A), tie it exactly (E: same face, same size), or rank below without
    being a hitch (R). Ranking: higher face first, then the smaller die first."""
    above = max(0, n - t2) + (1 if t2 <= n and n < s2 else 0)
    equal = 1 if n == s2 and t2 <= n else 0
    below = max(0, min(n, t2 - 1) - 1) + (1 if t2 <= n and n > s2 else 0)
    return above, equal, below


def outcome_weights(sizes: Sequence[int], keep: int, cap: int) -> dict[Key, int]:
    """Exact counts of (total, the ``keep`` largest leftover dice, leftover count capped
    at ``cap``) over all ``prod(sizes)`` equally likely rolls.

    Conditioning on the second die of the total (face ``t2`` on a d``s2``), every other
    die independently ranks above it, ties it, ranks below it or is a hitch; dice of one
    size are interchangeable, so each size is a multinomial. Exactly one die may rank
    above (it is the first total die) with at least one tie, or none with two ties.
    """
    groups = _groups(list(sizes))
    out: dict[Key, int] = {}

    def add(key: Key, weight: int) -> None:
        out[key] = out.get(key, 0) + weight

    # Fewer than two usable dice: all hitches, or exactly one die above 1.
    add((0, (), 0), 1)
    for size, count in groups:
        for face in range(2, size + 1):
            add((face, (), 0), count)
    for s2 in {s for s, _ in groups}:
        for t2 in range(2, s2 + 1):
            for one_above in (True, False):
                _threshold(groups, t2, s2, one_above, keep, cap, add)
    return out


def _threshold(groups: list[tuple[int, int]], t2: int, s2: int, one_above: bool,
               keep: int, cap: int, add) -> None:  # type: ignore[no-untyped-def]
    """Add the rolls whose second total die is face ``t2`` on a d``s2``."""
    # state: (size of the die above or 0, leftover dice kept, leftover count) -> weight
    states: dict[tuple[int, tuple[int, ...], int], int] = {(0, (), 0): 1}
    for n, m in groups:
        above, equal, below = _category_weights(n, t2, s2)
        options: list[tuple[int, int, int]] = []  # (a, leftovers of this size, weight)
        for a in ((0, 1) if one_above and above else (0,)):
            for e in range(m - a + 1) if equal else (0,):
                if e and n != s2:
                    continue
                for r in range(m - a - e + 1):
                    h = m - a - e - r
                    weight = _multinomial(m, (a, e, r, h)) * below ** r
                    if weight == 0:
                        continue
                    extras = 0
                    if n == s2:
                        need = 1 if one_above else 2
                        if e < need:
                            continue
                        extras = e - need
                    options.append((a, r + extras, weight))
        if n == s2 and not options:
            return
        new: dict[tuple[int, tuple[int, ...], int], int] = {}
        for (a_size, kept, left), w in states.items():
            for a, k, weight in options:
                if a and a_size:
                    continue
                key = (n if a else a_size, (kept + (n,) * k)[:keep], min(left + k, cap))
                new[key] = new.get(key, 0) + w * weight
        states = new
    for (a_size, kept, left), w in states.items():
        if one_above:
            if not a_size:
                continue
            faces = list(range(t2 + 1, a_size + 1)) + ([t2] if a_size < s2 else [])
            for face in faces:
                add((t2 + face, kept, left), w)
        elif not a_size:
            add((2 * t2, kept, left), w)


def ways(sizes: Sequence[int]) -> int:
    """How many equally likely rolls a pool has."""
    out = 1
    for s in sizes:
        out *= s
    return out

