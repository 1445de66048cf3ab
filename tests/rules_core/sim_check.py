"""Checks shared by the tests of the quick simulations (tests/rules_core/test_*_quick.py):
a simulated fight's states after a few rounds against the exact walk's (:meth:`step`
composed round by round), and the coverage of a simulation's 95% intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from rules_core import solver

#: one fight played: (rounds at most, generator) -> (the end state, rounds played)
Play = Callable[[int, random.Random], tuple[Any, int]]


def exact_after(fight: Any, rounds: int) -> dict[Any, Fraction]:
    """Every state the fight can be in after ``rounds`` rounds (or ended before), with its
    exact chance, from the exact walk's moves."""
    dist: dict[Any, Fraction] = {fight.start(): Fraction(1)}
    for _ in range(rounds):
        nxt: dict[Any, Fraction] = {}
        for state, p in dist.items():
            if fight.outcome(state) is not None:
                nxt[state] = nxt.get(state, Fraction(0)) + p
                continue
            den, moves = fight.step(state)
            for after, w in moves:
                nxt[after] = nxt.get(after, Fraction(0)) + p * Fraction(w, den)
        dist = nxt
    return dist


def chi_square_limit(df: int, z: float = 3.72) -> float:
    """The chi-square value a fit with ``df`` degrees of freedom passes with a chance of
    1 - 1e-4 (z = 3.72; the Wilson-Hilferty approximation)."""
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def sampled_fits(exact: dict[Hashable, Fraction], counts: dict[Hashable, int]) -> str:
    """What is wrong with ``counts`` (states drawn) as a sample of ``exact``: a state the
    exact walk never reaches, or a chi-square past :func:`chi_square_limit` (the states
    expected fewer than 5 times pooled into one); "" when it fits."""
    n = sum(counts.values())
    never = [s for s in counts if s not in exact]
    if never:
        return f"{len(never)} states the exact walk never reaches, such as {never[0]}"
    chi, df, rare_e, rare_o = 0.0, -1, 0.0, 0
    for state, p in exact.items():
        expected, seen = float(p) * n, counts.get(state, 0)
        if expected < 5:
            rare_e, rare_o = rare_e + expected, rare_o + seen
            continue
        chi, df = chi + (seen - expected) ** 2 / expected, df + 1
    if rare_e >= 1:
        chi, df = chi + (rare_o - rare_e) ** 2 / rare_e, df + 1
    elif rare_o > 2:
        return f"{rare_o} draws of states expected {rare_e:.2f} times in all"
    df = max(df, 1)
    limit = chi_square_limit(df)
    return "" if chi <= limit else f"chi-square {chi:.1f} on {df} degrees of freedom " \
                                   f"(limit {limit:.1f})"


def drawn(play: Play, rounds: int, n: int, seed: int,
          key: Callable[[Any, int], Hashable]) -> dict[Hashable, int]:
    """``n`` fights of at most ``rounds`` rounds, counted by ``key(state, rounds played)``."""
    rng = random.Random(seed)
    counts: dict[Hashable, int] = {}
    for _ in range(n):
        k = key(*play(rounds, rng))
        counts[k] = counts.get(k, 0) + 1
    return counts


def covered(play: Play, outcome: Callable[[Any], str | None], exact: dict[str, float],
            rounds: int, runs: int, battles: int) -> dict[str, int]:
    """For each outcome, how many of ``runs`` simulations (seeds 0, 1, ...) of ``battles``
    fights have the exact chance inside their 95% Wilson interval
    (:func:`rules_core.solver.wilson`)."""
    hits = {name: 0 for name in exact}
    for seed in range(runs):
        rng = random.Random(seed)
        seen: dict[str | None, int] = {}
        for _ in range(battles):
            name = outcome(play(rounds, rng)[0])
            seen[name] = seen.get(name, 0) + 1
        for name, p in exact.items():
            est = solver.wilson(seen.get(name, 0), battles)
            hits[name] += est.low <= p <= est.high
    return hits
