"""Two shooters firing at each other (source: d10 ranged combat, "Bursts and Full Auto",
"Taking Aim", "Reloading"; the source has no turn order, Rulings: a duel of two
shooters): the one fight interface, :class:`rules_core.solver.Fight`, over both weapons
and both tallies, each shooter's actions as :mod:`rules_core.gunplay.fight` plays them.

In turns, each shooter's whole round, the first shooter first; at the same time, both
rounds settled together from where the round began (the whole round, so both can go
down), or action by action: the shooters' k-th firing actions land together and the
round stops at the first pair that downs someone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from rules_core import solver
from rules_core.gunplay.fight import (
    A_DOWN,
    B_DOWN,
    BOTH_DOWN,
    BOTH_EMPTY,
    DUEL_OUTCOMES,
    SAME_TIME,
    TURNS,
    Fire,
    Gun,
    act_with_dice,
    fire_with_dice,
    one_action,
    volley,
)

DuelState = tuple[Gun, int, Gun, int]  # (A's weapon, hits on B, B's weapon, hits on A)


@dataclass(frozen=True)
class Duel:
    """Two shooters firing at each other: ``a.hits_needed`` hits stop B and
    ``b.hits_needed`` hits stop A. ``order`` is :data:`TURNS` (A's whole round, then
    B's if B still stands; ``b_first`` swaps them) or :data:`SAME_TIME`: the whole round
    from where it began, or (``by_action``) pair of firing actions by pair, stopping at
    the first pair that downs someone (Rulings: a duel of two shooters)."""

    a: Fire
    b: Fire
    order: str = TURNS
    b_first: bool = False
    by_action: bool = False

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return DUEL_OUTCOMES if self.order == SAME_TIME else (B_DOWN, A_DOWN, BOTH_EMPTY)

    def start(self) -> DuelState:
        return (self.a.gun_start(), 0, self.b.gun_start(), 0)

    def outcome(self, state: DuelState) -> str | None:
        gun_a, on_b, gun_b, on_a = state
        a_down, b_down = on_a >= self.b.hits_needed, on_b >= self.a.hits_needed
        if a_down and b_down:
            return BOTH_DOWN
        if b_down:
            return B_DOWN
        if a_down:
            return A_DOWN
        if not self.a.can_fire(gun_a) and not self.b.can_fire(gun_b):
            return BOTH_EMPTY
        return None

    def losses(self, state: DuelState) -> dict[str, int]:
        """Rounds A fired (``a``), hits on B (``b``) and hits on A (``c``)."""
        return {"a": self.a.fired(state[0]), "b": state[1], "c": state[3]}

    def step(self, state: DuelState) -> solver.Moves:
        gun_a, on_b, gun_b, on_a = state
        moves: dict[DuelState, int] = {}
        if self.order == SAME_TIME and self.by_action:
            return _pairs(self, state)
        if self.order == SAME_TIME:  # both from where the round began
            den_a, by_a = volley(self.a, gun_a, on_b)
            den_b, by_b = volley(self.b, gun_b, on_a)
            for (ga, hb), p in by_a:
                for (gb, ha), q in by_b:
                    key = (ga, hb, gb, ha)
                    moves[key] = moves.get(key, 0) + p * q
            return den_a * den_b, tuple(moves.items())
        den1, mids = self._turn(state, self.b_first)
        seconds = {mid: self._turn(mid, not self.b_first) for mid, _ in mids
                   if self.outcome(mid) in (None, BOTH_EMPTY)}
        den2 = math.lcm(*(den for den, _ in seconds.values())) if seconds else 1
        for mid, p in mids:
            if mid not in seconds:
                moves[mid] = moves.get(mid, 0) + p * den2
                continue
            den, ends = seconds[mid]
            for end, q in ends:
                moves[end] = moves.get(end, 0) + p * q * (den2 // den)
        return den1 * den2, tuple(moves.items())

    def _turn(self, state: DuelState, b_fires: bool
              ) -> tuple[int, tuple[tuple[DuelState, int], ...]]:
        """One shooter's whole round, the other standing still."""
        gun_a, on_b, gun_b, on_a = state
        if b_fires:
            den, moves = volley(self.b, gun_b, on_a)
            return den, tuple(((gun_a, on_b, gb, ha), w) for (gb, ha), w in moves)
        den, moves = volley(self.a, gun_a, on_b)
        return den, tuple(((ga, hb, gun_b, on_a), w) for (ga, hb), w in moves)

    def sample(self, state: DuelState, dice: solver.Dice) -> tuple[DuelState, str]:
        gun_a, on_b, gun_b, on_a = state
        lines: list[str] = []

        def a_fires() -> None:
            nonlocal gun_a, on_b
            dice.label = "A"
            gun_a, on_b, parts = fire_with_dice(self.a, gun_a, on_b, dice)
            lines.append("first shooter: " + "; ".join(parts))

        def b_fires() -> None:
            nonlocal gun_b, on_a
            dice.label = "B"
            gun_b, on_a, parts = fire_with_dice(self.b, gun_b, on_a, dice)
            lines.append("second shooter: " + "; ".join(parts))

        shooters: list[Callable[[], None]] = [b_fires, a_fires] if self.b_first else \
            [a_fires, b_fires]
        if self.order == SAME_TIME and self.by_action:
            gun_a, on_b, gun_b, on_a, line = _pairs_with_dice(self, state, dice)
            lines.append(line)
        elif self.order == SAME_TIME:  # each fires from where the round began
            a_fires()
            b_fires()
        else:
            for fires in shooters:
                if self.outcome((gun_a, on_b, gun_b, on_a)) in (A_DOWN, B_DOWN):
                    break
                fires()
        dice.label = ""
        tally = (f"(hits: second shooter {on_b}/{self.a.hits_needed}, first shooter "
                 f"{on_a}/{self.b.hits_needed})")
        return (gun_a, on_b, gun_b, on_a), "; ".join(lines) + " " + tally


def _pairs(duel: Duel, state: DuelState) -> solver.Moves:
    """One combat round action by action, exactly: the k-th firing actions of both
    shooters land together; a pair that downs someone ends the round (both can go down in
    one pair). The weapons never depend on the dice while the round goes on."""
    gun_a, on_b, gun_b, on_a = state
    need_a, need_b = duel.a.hits_needed, duel.b.hits_needed  # on B, on A
    going: dict[tuple[int, int], int] = {(on_b, on_a): 1}
    ended: dict[DuelState, int] = {}
    den, first_a, first_b = 1, True, True
    for k in range(max(duel.a.bursts_per_round, duel.b.bursts_per_round)):
        gun_a, first_a, den_a, ways_a = one_action(duel.a, gun_a, first_a,
                                                   k < duel.a.bursts_per_round)
        gun_b, first_b, den_b, ways_b = one_action(duel.b, gun_b, first_b,
                                                   k < duel.b.bursts_per_round)
        scale = den_a * den_b
        ended = {s: w * scale for s, w in ended.items()}
        nxt: dict[tuple[int, int], int] = {}
        for (hb, ha), w in going.items():
            for ka, qa in ways_a:
                for kb, qb in ways_b:
                    hits = (min(hb + ka, need_a), min(ha + kb, need_b))
                    if hits[0] >= need_a or hits[1] >= need_b:
                        end = (gun_a, hits[0], gun_b, hits[1])
                        ended[end] = ended.get(end, 0) + w * qa * qb
                    else:
                        nxt[hits] = nxt.get(hits, 0) + w * qa * qb
        going, den = nxt, den * scale
    moves = [((gun_a, hb, gun_b, ha), w) for (hb, ha), w in going.items()]
    return den, tuple(moves) + tuple(ended.items())


def _pairs_with_dice(duel: Duel, state: DuelState, dice: solver.Dice
                     ) -> tuple[Gun, int, Gun, int, str]:
    """:func:`_pairs` with real dice: the actions pair by pair, each pair's line."""
    gun_a, on_b, gun_b, on_a = state
    first_a = first_b = True
    pairs: list[str] = []
    for k in range(max(duel.a.bursts_per_round, duel.b.bursts_per_round)):
        if on_b >= duel.a.hits_needed or on_a >= duel.b.hits_needed:
            break
        said = []
        dice.label = "A"
        done = act_with_dice(duel.a, gun_a, on_b, first_a, dice) \
            if k < duel.a.bursts_per_round else None
        if done:  # B's action does not depend on the hits on B: both land together
            gun_a, on_b, first_a, part = done
            said.append(f"first shooter {part}")
        dice.label = "B"
        done = act_with_dice(duel.b, gun_b, on_a, first_b, dice) \
            if k < duel.b.bursts_per_round else None
        if done:
            gun_b, on_a, first_b, part = done
            said.append(f"second shooter {part}")
        pairs.append(f"action {k + 1}: " + (" and ".join(said) or "nobody fires"))
    return gun_a, on_b, gun_b, on_a, "at the same time, " + "; ".join(pairs)
