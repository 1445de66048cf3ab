"""Sustained fire over several combat rounds as an exact Markov chain (source: d10 ranged
combat, "Bursts and Full Auto" and "Ranged Combat"): the system's implementation of the
one fight interface, :class:`rules_core.solver.Fight`.

The state is ``(rounds left in the weapon, hits the target has taken)``. Each combat
round the shooter fires one or more bursts; every burst is one d10 roll resolved by
:func:`rules_core.gunplay.burst.burst_hits` (bullet *n* of a burst needs DC + recoil x
(n - 1)), so the odds of one burst are :func:`~rules_core.gunplay.burst.hit_distribution`.
The fight ends when the target has taken the hits it can stand or the weapon is empty.

Rulings (see the Rulings page, "Sustained fire over several rounds"):

* every burst is a new attack roll, so recoil starts again from the first bullet;
* when fewer rounds are left than a full burst, the shooter fires what is left (the
  ``short_burst`` option); otherwise the leftover rounds stay in the weapon unused;
* a burst that finishes the target is fired whole: its rounds count as spent.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules_core import solver
from rules_core.gunplay.burst import burst_hits, hit_distribution
from rules_core.messages import count

#: outcome names, in the order the result lists them
TARGET_DOWN = "Target down"
OUT_OF_AMMO = "Out of ammunition"
OUTCOMES = (TARGET_DOWN, OUT_OF_AMMO)

State = tuple[int, int]  # (rounds left, hits taken)


@dataclass(frozen=True)
class Fire:
    """What the shooter does and what it takes to stop the target."""

    dc: int
    bonus: int
    burst: int  # rounds per burst (1: single shots)
    recoil: int
    ammo: int  # rounds loaded at the start
    hits_needed: int
    bursts_per_round: int = 1
    short_burst: bool = True  # fire a short last burst with the rounds left

    def next_burst(self, left: int) -> int:
        """Rounds the next burst fires with ``left`` in the weapon (0: cannot fire)."""
        if left >= self.burst:
            return self.burst
        return left if self.short_burst else 0

    def outcome(self, state: State) -> str | None:
        """How the fight ended, or None while the shooter can still fire."""
        left, hits = state
        if hits >= self.hits_needed:
            return TARGET_DOWN
        if self.next_burst(left) == 0:
            return OUT_OF_AMMO
        return None

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return OUTCOMES

    def start(self) -> State:
        """A full weapon, no hits yet."""
        return (self.ammo, 0)

    def losses(self, state: State) -> dict[str, int]:
        """Rounds the shooter spent (``a``) and hits the target took (``b``)."""
        return {"a": self.ammo - state[0], "b": state[1]}

    def step(self, state: State) -> solver.Moves:
        """One combat round: up to ``bursts_per_round`` bursts, stopping once it is over."""
        current: dict[State, Fraction] = {state: Fraction(1)}
        for _ in range(self.bursts_per_round):
            nxt: dict[State, Fraction] = {}
            for (left, hits), p in current.items():
                shots = 0 if self.outcome((left, hits)) else self.next_burst(left)
                if not shots:
                    nxt[(left, hits)] = nxt.get((left, hits), Fraction(0)) + p
                    continue
                for k, q in _burst_odds(self.dc, self.bonus, shots, self.recoil):
                    target = (left - shots, min(hits + k, self.hits_needed))
                    nxt[target] = nxt.get(target, Fraction(0)) + p * q
            current = nxt
        return solver.whole_moves(current.items())

    def sample(self, state: State, dice: solver.Dice) -> tuple[State, str]:
        """One round with real dice: each burst's d10 face fed to :func:`burst_hits`."""
        left, hits = state
        parts = []
        for _ in range(self.bursts_per_round):
            if self.outcome((left, hits)):
                break
            shots = self.next_burst(left)
            face = dice.randint(1, 10)
            total = face + self.bonus
            k = burst_hits(total, self.dc, shots, self.recoil)
            left, hits = left - shots, min(hits + k, self.hits_needed)
            what = "shot" if shots == 1 else f"{shots}-round burst"
            parts.append(f"{what}, d10 {face} {'+' if self.bonus >= 0 else '-'} "
                         f"{abs(self.bonus)} = {total}: {count(k, 'hit')}")
        line = "; ".join(parts) + (f" (target {hits}/{self.hits_needed} hits, "
                                   f"{count(left, 'round')} left)")
        return (left, hits), line


@lru_cache(maxsize=256)
def _burst_odds(dc: int, bonus: int, rounds: int, recoil: int) -> tuple[tuple[int, Fraction], ...]:
    """Hits from one burst of ``rounds``: the hit-odds calculator's own distribution."""
    return tuple((k, p) for k, p in hit_distribution(dc, bonus, rounds, recoil).items() if p)
