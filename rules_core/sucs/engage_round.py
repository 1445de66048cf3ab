"""One SUCS turn as a round of the engagement walk: exactly, as whole-number weights
(:func:`make_step`), and with real dice fed to the same resolution function
(:func:`play_round`) (source: SUCS, "Order of Play", the attack paragraph)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

from rules_core.sucs.attack import resolve
from rules_core.sucs.engage import (
    Fight,
    Resolved,
    Resolver,
    Round,
    Rules,
    exact_resolver,
    initiative,
    turn,
)


def dice_resolver(rng: random.Random) -> Resolver:
    """Real dice fed to the same resolution function."""
    def roll(fight: Fight, side: str, i: int, t: int, bonus: int) -> list[Resolved]:
        spec = fight.spec(side, i, t, bonus)
        spot = rng.randint(1, 6) + rng.randint(1, 6) if spec.stealthy else None
        total = rng.randint(1, 6) + rng.randint(1, 6)
        d6 = rng.randint(1, 6)
        res = resolve(spec, total, d6, spot)
        words = f"spot {spot}, " if spot is not None else ""
        if res.stage == "not_found":
            words += "not found"
        else:
            words += f"rolled {total}{f' {spec.roll_bonus:+d}' if spec.roll_bonus else ''}, " \
                     f"needed {spec.needed}" + (f", d6 {d6}" if res.d6_used else "") + \
                     f": {res.outcome.replace('_', ' ')}"
        return [((res.outcome, res.stage != "not_found"), 1, 0, words)]
    return roll


def make_step(fight: Fight) -> Callable[[Round], tuple[int, list[tuple[Round, int]]]]:
    """``step`` for :func:`rules_core.engagement.solve` with ``whole=True``: one turn, exactly, as
    whole-number weights over one denominator. A melee starts with side A charging (it
    moved into contact, so it acts first)."""
    def step(rnd: Round) -> tuple[int, list[tuple[Round, int]]]:
        n, state = rnd
        charge = fight.rules.melee and n == 1
        firsts = [("a", Fraction(1))] if charge else initiative(fight.rules)
        parts: list[tuple[Round, int, int]] = []
        for first, pf in firsts:
            for s, (w, sx, _) in turn(fight, state, first, charge, exact_resolver).items():
                parts.append(((2, fight.canonical(s)), pf.numerator * w, pf.denominator * 6 ** sx))
        common = math.lcm(*(den for _, _, den in parts))
        out: dict[Round, int] = {}
        for key, num, den in parts:
            out[key] = out.get(key, 0) + num * (common // den)
        return common, list(out.items())
    return step


def fraction_step(fight: Fight) -> Callable[[Round], list[tuple[Round, Fraction]]]:
    """The same step with fractions, for :func:`rules_core.engagement.solve`."""
    weighted = make_step(fight)

    def step(rnd: Round) -> list[tuple[Round, Fraction]]:
        den, pairs = weighted(rnd)
        return [(s, Fraction(w, den)) for s, w in pairs]
    return step


def play_round(fight: Fight, rnd: Round, rng: random.Random) -> tuple[Round, str]:
    """One turn with real dice: the initiative roll, then every activation through the
    same code with one dice result per attack. Returns the new state and a log line."""
    n, state = rnd
    charge = fight.rules.melee and n == 1
    if charge:
        first, words = "a", "side A charges into contact"
    else:
        first, words = roll_initiative(fight.rules, rng)
    ((s, (_, _, log)),) = turn(fight, state, first, charge, dice_resolver(rng)).items()
    return (2, s), "; ".join((words, *log)) + "."


def roll_initiative(rules: Rules, rng: random.Random) -> tuple[str, str]:
    """2d6 each until one is higher, or the tie rule decides."""
    rolls = []
    while True:
        ra, rb = rng.randint(1, 6) + rng.randint(1, 6), rng.randint(1, 6) + rng.randint(1, 6)
        rolls.append(f"{ra} to {rb}")
        if ra != rb:
            first = "a" if ra > rb else "b"
            break
        if rules.ties != "reroll":
            first = rules.ties
            break
    return first, f"initiative {', '.join(rolls)}: side {first.upper()} acts first"
