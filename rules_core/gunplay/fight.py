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

:class:`Fire` is one shooter against a target that does not shoot back; a duel of two
shooters firing at each other is :class:`rules_core.gunplay.duel.Duel`, built on the same
actions.

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

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules_core import solver
from rules_core.cascade import Cascade, by_steps
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
        done = act_with_dice(fire, gun, hits, first, dice)
        if done is None:
            break
        gun, hits, first, part = done
        parts.append(part)
    return gun, hits, parts or ["no shot"]


def act_with_dice(fire: Fire, gun: Gun, hits: int, first: bool, dice: solver.Dice
                  ) -> tuple[Gun, int, bool, str] | None:
    """One firing action with real dice: (weapon, hits on the target, whether the round's
    first burst is still to come, what happened), or None when the weapon is empty."""
    act = action(fire, gun, first)
    if act is None:
        return None
    what, gun, shots, dc = act
    if what == "reload":
        return gun, hits, first, "reloads" if not gun[2] else "reloading"
    face = dice.randint(1, 10)
    total = face + fire.bonus
    k = burst_hits(total, dc, shots, fire.recoil)
    kind = "shot" if shots == 1 else f"{shots}-round burst"
    return gun, min(hits + k, fire.hits_needed), False, (
        f"{kind} at DC {dc}, d10 {face} {'+' if fire.bonus >= 0 else '-'} "
        f"{abs(fire.bonus)} = {total}: {count(k, 'hit')}")


def one_action(fire: Fire, gun: Gun, first: bool, acts: bool
               ) -> tuple[Gun, bool, int, tuple[tuple[int, int], ...]]:
    """One firing action, exactly: (the weapon after it, whether the round's first burst
    is still to come, the denominator, (hits, ways) of it). ``acts`` False, or a weapon
    empty for good: no action (no hits, one way)."""
    act = action(fire, gun, first) if acts else None
    if act is None or act[0] == "reload":
        return (act[1] if act else gun), first, 1, ((0, 1),)
    _, after, shots, dc = act
    return after, False, 10, _burst_ways(dc, fire.bonus, shots, fire.recoil)


@lru_cache(maxsize=512)
def _burst_ways(dc: int, bonus: int, rounds: int, recoil: int) -> tuple[tuple[int, int], ...]:
    """Hits from one burst of ``rounds``: the hit-odds calculator's own distribution, as
    faces of the d10 out of 10."""
    return tuple((k, int(p * 10)) for k, p in hit_distribution(dc, bonus, rounds, recoil).items()
                 if p)


# ---- how a fight is answered (rules_core.cascade) ------------------------------------

#: a duel follows both hit tallies at once: past this many hits needed on either side its
#: exact walk is not tried (a duel of single shots needing 12 a side, five a round, at a
#: cap of 100 already takes seconds of CPython); the pruned walk and a simulation answer it
DUEL_EXACT_HITS = 12
#: the pruned walk's budget at a round cap of 20 (moves followed, and the states whose
#: round is built), about half a second of CPython; three times it at 100
#: (:func:`solver.scaled_budget`)
MAX_PRUNED_WORK = 60_000
#: fights one simulation step plays (a short run, so that the first answer comes soon
#: while each state's round is still being built the first time it is met), the most a
#: simulation plays, and the most rounds (its work cap)
SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS = 10, 250_000, 500_000


def cascade(fight: solver.Fight, max_rounds: int, duel_hits: int = 0) -> Cascade:
    """How sustained fire or a duel (``duel_hits``: the most hits either shooter needs)
    is answered: the exact walk within the solver's own budgets (up to
    :data:`DUEL_EXACT_HITS` hits in a duel), the pruned walk within
    :data:`MAX_PRUNED_WORK`, then a simulation (:func:`rules_core.cascade.by_steps`)."""
    exact: dict[str, int] | None = None if duel_hits > DUEL_EXACT_HITS else {}
    untried = "" if exact is not None else (
        f"A duel needing {duel_hits} hits follows both tallies at once, past the "
        f"{DUEL_EXACT_HITS} hits a side the exact walk can follow in time")
    return by_steps(((Fraction(1), fight),), max_rounds, exact=exact,
                    pruned_work=solver.scaled_budget(MAX_PRUNED_WORK, max_rounds),
                    untried=untried, batch=SIM_BATCH, max_fights=SIM_MAX_FIGHTS,
                    max_work=SIM_MAX_ROUNDS)
