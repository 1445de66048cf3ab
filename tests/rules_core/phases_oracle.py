"""The 2d6 combat phases rules written out once more, independently of ``rules_core``, for
the tests' oracles: the chance of each outcome by brute force over every ordered roll,
how many dice an action takes and leaves (as the Rulings page states them), and a whole
fight played from those rules (a party, hit points, the enemy's damage track)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from rules_core import solver
from rules_core.phases.fight import ENEMY_DOWN, GOAL, WORN_DOWN, Fight
from rules_core.phases.tables import Outcome, Phase


@cache
def counts(phase: Phase, dice: int) -> dict[Outcome, Fraction]:
    """Every ordered roll classified from the rules text (best two on offense, worst two
    on defence; two sixes ultra; 6- failure, 7-9 partial, 10+ success)."""
    tally = dict.fromkeys(Outcome, 0)
    for faces in itertools.product(range(1, 7), repeat=dice):
        a, b = sorted(faces, reverse=phase is Phase.OFFENSE)[:2]
        key = (Outcome.ULTRA if a == b == 6 else Outcome.FAILURE if a + b <= 6
               else Outcome.PARTIAL if a + b <= 9 else Outcome.SUCCESS)
        tally[key] += 1
    return {o: Fraction(n, 6 ** dice) for o, n in tally.items() if n}


def spent(left: int, always: bool) -> int:
    """Dice one action takes: 2, or 3 when exactly 3 are left or the side always takes the
    extra die and has 3 or more."""
    return 3 if left == 3 or (always and left >= 3) else 2


def dice_after(phase: Phase, outcome: Outcome, left: int, spend: int) -> int:
    """Dice left after an action: a failed offense or a successful defence removes one more
    if any is left."""
    rest = left - spend
    if (phase is Phase.OFFENSE and outcome is Outcome.FAILURE) or \
            (phase is Phase.DEFENCE and outcome is Outcome.SUCCESS):
        rest = max(0, rest - 1)
    return rest


def down_after(hits: int, party: int, each: int, spread: bool) -> int:
    """Characters down after ``hits`` failed defences, each hit handed out one by one:
    to the first character still standing (focus) or to the least hurt one (spread)."""
    taken = [0] * party
    for _ in range(hits):
        standing = [i for i in range(party) if taken[i] < each]
        if not standing:
            break
        who = min(standing, key=lambda i: taken[i]) if spread else standing[0]
        taken[who] += 1
    return sum(t >= each for t in taken)


#: a fight between rounds: (momentum marks, failed defences, damaging attacks on the enemy)
Tally = tuple[int, int, int]


def fight_oracle(fight: Fight, rounds: int
                 ) -> tuple[dict[str, Fraction], list[dict[str, Fraction]], dict[Tally, Fraction]]:
    """The fight from the rules text: an action spends 2 dice (3 with exactly 3 left, or
    always with the extra die), a failed offense or a successful defence removes a die,
    a phase ends below 2 dice or on a defence ultra, and, with a party, an offense phase
    also ends once every character still standing has attacked; successes mark the
    tracker; an attack's partial success, success or ultra success hits the enemy (with
    the dice left going to other tasks once all have attacked, those deal no damage); the
    fight ends at the goal, then the enemy down, then the side worn down, checked after
    every action. (outcome chances, the chance of each outcome by the end of each round,
    the chance of each final tally)."""
    order = (fight.first_phase, fight.first_phase.other)
    limit, enemy = fight.damage_limit, fight.enemy_hits

    def acting(t: int) -> int | None:
        if fight.party_size is None:
            return None
        if fight.hits_each is None:
            return fight.party_size
        return fight.party_size - down_after(t, fight.party_size, fight.hits_each,
                                             fight.spread)

    def ended(m: int, t: int, d: int) -> str | None:
        return (GOAL if m >= fight.goal_spaces else
                ENEMY_DOWN if enemy is not None and d >= enemy else
                WORN_DOWN if limit is not None and t >= limit else None)

    @cache
    def go(index: int, left: int, acted: int, m: int, t: int, d: int
           ) -> dict[Tally, Fraction]:
        if index == 2:
            return {(m, t, d): Fraction(1)}
        phase = order[index]
        cap = acting(t) if phase is Phase.OFFENSE else None
        if left < 2 or (cap is not None and acted >= cap and not fight.other_tasks):
            nxt = index + 1
            return go(nxt, fight.pool(order[nxt]) if nxt < 2 else 0, 0, m, t, d)
        spend = spent(left, fight.extra(phase) == "always")
        out: dict[Tally, Fraction] = {}
        for outcome, p in counts(phase, spend).items():
            m2 = m + (outcome in (Outcome.SUCCESS, Outcome.ULTRA))
            t2 = t + (limit is not None and phase is Phase.DEFENCE
                      and outcome is Outcome.FAILURE)
            d2 = d + (enemy is not None and phase is Phase.OFFENSE  # an attack, not a task
                      and (cap is None or acted < cap) and outcome is not Outcome.FAILURE)
            if ended(m2, t2, d2):
                tail = {(m2, t2, d2): Fraction(1)}
            elif phase is Phase.DEFENCE and outcome is Outcome.ULTRA:
                tail = go(index + 1, fight.pool(order[1]) if index == 0 else 0, 0, m2, t2, d2)
            else:
                tail = go(index, dice_after(phase, outcome, left, spend), acted + 1, m2, t2, d2)
            for key, q in tail.items():
                out[key] = out.get(key, Fraction(0)) + p * q
        return out

    live: dict[Tally, Fraction] = {(0, 0, 0): Fraction(1)}
    totals: dict[str, Fraction] = {}
    by_round: list[dict[str, Fraction]] = []
    final: dict[Tally, Fraction] = {}
    for _ in range(rounds):
        nxt: dict[Tally, Fraction] = {}
        for (m, t, d), p in live.items():
            for key, q in go(0, fight.pool(order[0]), 0, m, t, d).items():
                end = ended(*key)
                if end:
                    totals[end] = totals.get(end, Fraction(0)) + p * q
                    final[key] = final.get(key, Fraction(0)) + p * q
                else:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        live = nxt
        by_round.append(dict(totals))
    if live:
        totals[solver.STILL_FIGHTING] = sum(live.values(), Fraction(0))
        for key, p in live.items():
            final[key] = final.get(key, Fraction(0)) + p
    return totals, by_round, final


def oracle(fight: Fight, rounds: int) -> dict[str, Fraction]:
    """The chance of each outcome by :func:`fight_oracle`."""
    return fight_oracle(fight, rounds)[0]
