"""Sustained fire over several combat rounds as an exact Markov chain (source: d10 ranged
combat, "Bursts and Full Auto", "Taking Aim", "Reloading" and "Ranged Combat"): the
system's implementation of the one fight interface, :class:`rules_core.solver.Fight`.

A shooter's weapon is ``(rounds in the magazine, rounds in the magazines still to load,
reload actions still owed)``; the fight's state adds the hits each target has taken.
Each combat round the shooter spends its aim actions, then its firing actions: every
firing action either fires one burst, one d10 roll resolved by
:func:`rules_core.gunplay.burst.burst_hits` (bullet *n* of a burst needs DC + recoil x
(n - 1), the DC lowered by :data:`~rules_core.gunplay.tables.AIM_PER_ACTION` for each
aim action), or, when the magazine cannot fire the next burst, swaps in the next
magazine (:data:`~rules_core.gunplay.tables.RELOAD_ACTIONS` actions unless the weapon
says otherwise). How many rounds the weapon has fired by a given round never depends on
the dice, so each round holds at most one weapon state per shooter.

:class:`Fire` is one shooter against a target that does not shoot back; :class:`Duel` is
two shooters firing at each other, in turns (each shooter's whole round, the first
shooter first) or at the same time (both rounds settled together, so both can go down).

Rulings (see the Rulings page, "Sustained fire over several rounds" and after):

* every burst is a new attack roll, so recoil starts again from the first bullet;
* when fewer rounds are left than a full burst, the shooter fires what is left (the
  ``short_burst`` option); otherwise the leftover rounds stay in the magazine, and a
  swapped magazine's leftovers are lost (magazines are not refilled in a fight);
* full magazines go in first, the part-filled one (the rounds carried past a whole
  number of magazines) last;
* aiming helps the first burst fired in the same round (``aim_every_burst``: every burst
  of that round);
* a burst that finishes the target is fired whole: its rounds count as spent.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from rules_core import solver
from rules_core.gunplay.burst import burst_hits, hit_distribution
from rules_core.gunplay.tables import AIM_PER_ACTION, RELOAD_ACTIONS
from rules_core.messages import count

#: outcome names, in the order the result lists them
TARGET_DOWN = "Target down"
OUT_OF_AMMO = "Out of ammunition"
OUTCOMES = (TARGET_DOWN, OUT_OF_AMMO)
B_DOWN = "Second shooter down"
A_DOWN = "First shooter down"
BOTH_DOWN = "Both down"
BOTH_EMPTY = "Both out of ammunition"
DUEL_OUTCOMES = (B_DOWN, A_DOWN, BOTH_DOWN, BOTH_EMPTY)

#: how a duel is fought: in turns (each shooter's whole round in turn) or at once
TURNS = "turns"
SAME_TIME = "same_time"

Gun = tuple[int, int, int]  # (rounds in the magazine, rounds still to load, reload owed)
State = tuple[Gun, int]  # (the weapon, hits the target has taken)


@dataclass(frozen=True)
class Fire:
    """One shooter: the weapon, how it is fired, and the hits that stop its target."""

    dc: int
    bonus: int
    burst: int  # rounds per burst (1: single shots)
    recoil: int
    ammo: int  # rounds carried in all (one belt, or every magazine together)
    hits_needed: int
    bursts_per_round: int = 1  # firing actions each combat round
    short_burst: bool = True  # fire a short last burst with the rounds left
    magazine: int = 0  # rounds per magazine; 0: every round is in the weapon at once
    reload_actions: int = RELOAD_ACTIONS
    aim: int = 0  # actions spent taking careful aim each combat round
    aim_every_burst: bool = False  # the aim helps every burst of the round, not the first

    @property
    def capacity(self) -> int:
        """Rounds one magazine holds (the whole load when there are no magazines)."""
        return min(self.magazine, self.ammo) if self.magazine else self.ammo

    def next_burst(self, left: int) -> int:
        """Rounds the next burst fires with ``left`` in the magazine (0: cannot fire)."""
        if left >= self.burst:
            return self.burst
        return left if self.short_burst else 0

    def dc_for(self, first: bool) -> int:
        """The DC of a burst: lowered by every aim action if the aim still holds."""
        aimed = self.aim if (first or self.aim_every_burst) else 0
        return self.dc + AIM_PER_ACTION * aimed

    def gun_start(self) -> Gun:
        """The first magazine in, the rest to load."""
        return (self.capacity, self.ammo - self.capacity, 0)

    def can_fire(self, gun: Gun) -> bool:
        """Whether the weapon has a burst left, loaded or in a magazine to come."""
        mag, spare, owed = gun
        if owed or self.next_burst(mag):
            return True
        return spare > 0 and self.next_burst(min(self.capacity, spare)) > 0

    def fired(self, gun: Gun) -> int:
        """Rounds fired so far: gone from the load, less the leftovers of the magazines
        swapped out (only full magazines are swapped; the part-filled one comes last)."""
        gone = self.ammo - gun[0] - gun[1]
        if self.short_burst:
            return gone
        swaps = -(-(self.ammo - self.capacity - gun[1]) // self.capacity)
        return gone - swaps * (self.capacity % self.burst)

    def plan(self) -> tuple[int, int, int]:
        """Bursts the load gives, magazine swaps, and the combat round the weapon is
        empty in when every action goes to firing and reloading (no dice involved)."""
        gun, bursts, reloads, actions = self.gun_start(), 0, 0, 0
        while (act := action(self, gun, False)) is not None:
            what, gun, _, _ = act
            actions += 1
            bursts += what == "fire"
            reloads += what == "reload" and gun[2] == self.reload_actions - 1
        return bursts, reloads, -(-actions // self.bursts_per_round)

    # --- the one-sided fight (the target does not shoot back) ------------------------

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return OUTCOMES

    def start(self) -> State:
        """A full weapon, no hits yet."""
        return (self.gun_start(), 0)

    def outcome(self, state: State) -> str | None:
        """How the fight ended, or None while the shooter can still fire."""
        gun, hits = state
        if hits >= self.hits_needed:
            return TARGET_DOWN
        return None if self.can_fire(gun) else OUT_OF_AMMO

    def losses(self, state: State) -> dict[str, int]:
        """Rounds the shooter spent (``a``) and hits the target took (``b``)."""
        return {"a": self.fired(state[0]), "b": state[1]}

    def step(self, state: State) -> solver.Moves:
        """One combat round of the shooter's actions, stopping once it is over."""
        return volley(self, *state)

    def sample(self, state: State, dice: solver.Dice) -> tuple[State, str]:
        """One round with real dice: each burst's d10 face fed to :func:`burst_hits`."""
        gun, hits, parts = fire_with_dice(self, state[0], state[1], dice)
        return (gun, hits), "; ".join(parts) + " " + self.status(gun, hits)

    def status(self, gun: Gun, hits: int) -> str:
        """The tally after a round, in words."""
        mags = -(-gun[1] // self.capacity) if gun[1] else 0
        more = f", {count(mags, 'magazine')} to load" if self.magazine and mags else ""
        return (f"(target {hits}/{self.hits_needed} hits, {count(gun[0], 'round')} "
                f"loaded{more})")


Action = tuple[str, Gun, int, int]  # (what, the weapon after it, rounds fired, DC)


def action(fire: Fire, gun: Gun, first: bool) -> Action | None:
    """The shooter's next firing action: ``("fire", gun after, rounds, DC)``,
    ``("reload", gun after, 0, 0)``, or None when the weapon is empty for good
    (source: "Reloading": swapping the magazine is one action unless noted otherwise)."""
    mag, spare, owed = gun
    if owed:
        return ("reload", (mag, spare, owed - 1), 0, 0)
    shots = fire.next_burst(mag)
    if shots:
        return ("fire", (mag - shots, spare, 0), shots, fire.dc_for(first))
    if spare and fire.next_burst(min(fire.capacity, spare)):
        new = min(fire.capacity, spare)
        return ("reload", (new, spare - new, fire.reload_actions - 1), 0, 0)
    return None


def volley(fire: Fire, gun: Gun, hits: int) -> tuple[int, tuple[tuple[State, int], ...]]:
    """Exact odds of one shooter's combat round, in whole numbers: ``(denominator,
    ((weapon and hits on the target after it, ways), ...))`` (every d10 face one way)."""
    # the branches still going all hold the same weapon state (rounds fired never depend
    # on the dice), so they are kept as hits -> ways; a branch that downs the target stops
    # there, its last burst fired whole, and counts 10 ways for each later burst's face
    return _volley(fire, gun, hits)


@lru_cache(maxsize=4096)
def _volley(fire: Fire, gun: Gun, hits: int) -> tuple[int, tuple[tuple[State, int], ...]]:
    going: dict[int, int] = {hits: 1}
    down: dict[Gun, int] = {}  # the weapon when the target went down -> ways
    den = 1
    first = True
    for _ in range(fire.bursts_per_round):
        act = action(fire, gun, first) if going else None
        if act is None:
            break
        what, after, shots, dc = act
        if what == "reload":
            gun = after
            continue
        first = False
        down = {g: w * 10 for g, w in down.items()}
        nxt: dict[int, int] = {}
        for h, w in going.items():
            for k, q in _burst_ways(dc, fire.bonus, shots, fire.recoil):
                if h + k >= fire.hits_needed:
                    down[after] = down.get(after, 0) + w * q
                else:
                    nxt[h + k] = nxt.get(h + k, 0) + w * q
        going, den, gun = nxt, den * 10, after
    return den, (tuple(((gun, h), w) for h, w in going.items())
                 + tuple(((g, fire.hits_needed), w) for g, w in down.items()))


def fire_with_dice(fire: Fire, gun: Gun, hits: int, dice: solver.Dice
                   ) -> tuple[Gun, int, list[str]]:
    """One shooter's combat round with real dice, through the same actions."""
    parts: list[str] = []
    first = True
    for _ in range(fire.bursts_per_round):
        if hits >= fire.hits_needed:
            break
        act = action(fire, gun, first)
        if act is None:
            break
        what, gun, shots, dc = act
        if what == "reload":
            parts.append("reloads" if not gun[2] else "reloading")
            continue
        first = False
        face = dice.randint(1, 10)
        total = face + fire.bonus
        k = burst_hits(total, dc, shots, fire.recoil)
        hits = min(hits + k, fire.hits_needed)
        kind = "shot" if shots == 1 else f"{shots}-round burst"
        parts.append(f"{kind} at DC {dc}, d10 {face} {'+' if fire.bonus >= 0 else '-'} "
                     f"{abs(fire.bonus)} = {total}: {count(k, 'hit')}")
    return gun, hits, parts or ["no shot"]


DuelState = tuple[Gun, int, Gun, int]  # (A's weapon, hits on B, B's weapon, hits on A)


@dataclass(frozen=True)
class Duel:
    """Two shooters firing at each other: ``a.hits_needed`` hits stop B and
    ``b.hits_needed`` hits stop A. ``order`` is :data:`TURNS` (A's whole round, then
    B's if B still stands; ``b_first`` swaps them) or :data:`SAME_TIME`."""

    a: Fire
    b: Fire
    order: str = TURNS
    b_first: bool = False

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
        if self.order == SAME_TIME:  # each fires from where the round began
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


@lru_cache(maxsize=512)
def _burst_ways(dc: int, bonus: int, rounds: int, recoil: int) -> tuple[tuple[int, int], ...]:
    """Hits from one burst of ``rounds``: the hit-odds calculator's own distribution, as
    faces of the d10 out of 10."""
    return tuple((k, int(p * 10)) for k, p in hit_distribution(dc, bonus, rounds, recoil).items()
                 if p)
