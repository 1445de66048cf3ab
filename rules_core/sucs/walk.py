"""The shared engine's round-by-round walk with whole-number weights.

:func:`rules_core.engagement.solve` keeps every live state's chance as a
:class:`~fractions.Fraction`; after twenty SUCS turns of six attacks each the
denominators run to hundreds of digits and every addition pays for a greatest common
divisor. Here ``step`` gives each state's transitions as whole-number weights over one
denominator, the live states share one denominator per round, and fractions are formed
only for the figures reported. Same contract, same limits, same
:class:`~rules_core.engagement.Engagement` (tested equal to ``solve``), so every shared
result, chart and table works unchanged. It belongs in the engine; it lives here until
the engine's owner takes it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules_core import engagement as eng

#: one state's transitions: (denominator, [(next state, whole-number weight), ...])
Weighted = tuple[int, Iterable[tuple[Hashable, int]]]


def solve_weighted(
    start: Hashable,
    step: Callable[[Any], Weighted],
    outcome: Callable[[Any], str | None],
    *,
    max_rounds: int,
    losses: Callable[[Any], Mapping[str, int]] | None = None,
    outcome_order: Sequence[str] = (),
    max_states: int = eng.MAX_STATES,
    max_work: int = eng.MAX_WORK,
) -> eng.Engagement:
    """:func:`rules_core.engagement.solve` for a ``step`` that returns whole-number
    weights (their sum is the denominator)."""
    #: state -> (denominator, ((next state, weight, its outcome), ...))
    transitions: dict[Any, tuple[int, tuple[tuple[Any, int, str | None], ...]]] = {}
    finals: dict[Any, Fraction] = {}
    totals: dict[str, Fraction] = {name: Fraction(0) for name in outcome_order}
    ends_in: dict[int, Fraction] = {}
    by_round: list[dict[str, Fraction]] = []
    work, peak = 0, 1
    live: dict[Any, int] = {}
    scale = 1  # every live weight is over this denominator
    first = outcome(start)
    if first is None:
        live[start] = 1
    else:
        totals[first] = totals.get(first, Fraction(0)) + 1
        finals[start] = Fraction(1)
        ends_in[0] = Fraction(1)

    for round_no in range(1, max_rounds + 1):
        if not live:
            by_round.append(dict(totals))
            continue
        dens = []
        for state in live:
            moves = transitions.get(state)
            if moves is None:
                den, pairs = step(state)
                moves = (den, tuple((t, w, outcome(t)) for t, w in pairs if w))
                transitions[state] = moves
            dens.append(moves[0])
        common = math.lcm(*dens)
        scale *= common
        nxt: dict[Any, int] = {}
        ended_w: dict[str, int] = {}
        final_w: dict[Any, int] = {}
        for state, n in live.items():
            den, moves = transitions[state]
            work += len(moves)
            if work > max_work:
                raise eng.TooLarge("The work this fight needs", max_work)
            mult = n * (common // den)
            for target, w, result in moves:
                mass = mult * w
                if result is None:
                    nxt[target] = nxt.get(target, 0) + mass
                else:
                    ended_w[result] = ended_w.get(result, 0) + mass
                    final_w[target] = final_w.get(target, 0) + mass
        ended = Fraction(sum(ended_w.values()), scale)
        if ended:
            ends_in[round_no] = ended
        for name, w in ended_w.items():
            totals[name] = totals.get(name, Fraction(0)) + Fraction(w, scale)
        for state, w in final_w.items():
            finals[state] = finals.get(state, Fraction(0)) + Fraction(w, scale)
        live = nxt
        peak = max(peak, len(live))
        if len(live) > max_states:
            raise eng.TooLarge("The number of ways this fight can stand after one round",
                               max_states)
        if live:  # keep the numbers small: divide out what every weight shares
            g = math.gcd(scale, *live.values())
            if g > 1:
                scale //= g
                live = {s: w // g for s, w in live.items()}
        by_round.append(dict(totals))

    still = Fraction(sum(live.values()), scale)
    if still:
        totals[eng.STILL_FIGHTING] = still
        for state, w in live.items():
            finals[state] = finals.get(state, Fraction(0)) + Fraction(w, scale)
    expected = sum((r * p for r, p in ends_in.items()), Fraction(0)) + max_rounds * still
    ordered = {name: totals.get(name, Fraction(0)) for name in outcome_order}
    ordered.update({k: v for k, v in totals.items()
                    if k not in ordered and k != eng.STILL_FIGHTING})
    if eng.STILL_FIGHTING in totals:
        ordered[eng.STILL_FIGHTING] = totals[eng.STILL_FIGHTING]
    loss_dists: dict[str, dict[int, Fraction]] = {}
    if losses is not None:
        for state, p in finals.items():
            for side, lost in losses(state).items():
                dist = loss_dists.setdefault(side, {})
                dist[lost] = dist.get(lost, Fraction(0)) + p
        loss_dists = {side: dict(sorted(d.items())) for side, d in loss_dists.items()}
    if sum(ordered.values(), Fraction(0)) != 1:  # pragma: no cover - a broken step()
        raise ValueError("the fight's transitions do not sum to 1")
    return eng.Engagement(ordered, by_round, dict(sorted(ends_in.items())), expected,
                          loss_dists, peak, max_rounds)
