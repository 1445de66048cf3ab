"""Two groups fighting it out, round by round (source: Heroic Combat, the round sequence,
Melee Attacks, Multiple Attackers, Morale; the engagement calculator's model).

Each round: side initiative (1d each), the winner's group attacks, then the loser's
group attacks with whoever is still standing; each attack is one Quick Contest with the
skill bonus and hit multiplier of the current numbers, and its hits' damage is pooled
against the defenders' HP (DR once per hit, times the wounding multiplier). At the end of
the round each side that is due a morale check rolls it. The fight ends when a side is
wiped out or breaks.

The state is the two groups' pooled HP. With ``carry_wounds`` every point of injury stays
in the pool (the source's group-HP method, exact but with a state for every pair of HP
totals); without it, the injury left over after whole members have fallen is dropped at
the end of the attack, so the state is just the members standing on each side.

Every chance comes from the same resolution functions the other calculators use:
:func:`rules_core.heroic.contest.resolve` (through ``hit_distribution``),
:func:`rules_core.heroic.groups.injury_from` and :func:`rules_core.heroic.morale.breaks`.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, wraps
from typing import Any, Literal, TypeVar

from rules_core import solver
from rules_core.cascade import Cascade
from rules_core.heroic import contest, morale
from rules_core.heroic.damage import Damage, hit_damage, pooled_injury_counts
from rules_core.heroic.groups import hit_multiplier, injury_from, skill_bonus, standing
from rules_core.heroic.tables import MAX_REACH_PER_DEFENDER, TACTIC_BY_KEY

#: the outcomes, in the order a reader expects them (A and B stand for the sides' names)
WIPED, BREAKS, BOTH_BREAK = "{} wiped out", "{} broken", "Both sides break"
#: both sides down in the same round (only when ties are played as blows struck at once)
BOTH_WIPED = "Both sides wiped out"
#: a side wiped out or broken, the other still standing (the two outcomes summed)
BEATEN = "{} beaten"
SIDES = ("a", "b")
Moves = tuple[int, tuple[tuple[Any, int], ...]]  # solver.Moves, kept as tuples (cached)
State = tuple  # ("fight", pool_a, pool_b) or ("end", outcome, pool_a, pool_b)


@dataclass(frozen=True)
class Side:
    """One group of identical fighters and the choices it fights with."""

    name: str
    members: int
    skill: int  # attack and defence skill, before the tactic and numbers
    tactic: str
    speed_factor: int
    hp: int  # per member
    dr: int
    damage: Damage  # per hit
    wounding: Fraction
    frontage: int | None  # most members able to attack at once (None: all)
    checks_morale: bool
    fearlessness: int = 0
    cornered: bool = False
    cowardice: int = 0  # Cowardice's Fright Check penalty, added to the morale roll
    attack_modifier: int = 0  # other modifiers to this side's attack skill
    defence: int | None = None  # contest defence before the tactic (None: the skill)

    @property
    def full_hp(self) -> int:
        return self.members * self.hp


#: the readings' words (mypy sees a misspelled one; the form's choices are these:
#: tests/rules_core/test_fight_identity.py)
Ties = Literal["reroll", "simultaneous"]
OnBreak = Literal["flee", "surrender"]


@dataclass(frozen=True)
class Rules:
    """The readings the fight is played under (see the Rulings page)."""

    carry_wounds: bool = False
    ties: Ties = "reroll"  # initiative ties: "reroll" or "simultaneous"
    on_break: OnBreak = "flee"  # "flee": the winners get the free attack; "surrender": it ends
    reach: int = MAX_REACH_PER_DEFENDER  # most attackers around one defender


@dataclass(frozen=True)
class Fight:
    a: Side
    b: Side
    rules: Rules
    #: what :func:`per_fight` functions have worked out for this fight, by function: kept
    #: with the fight, so that it goes when the fight does (a browser tab works out one
    #: fight after another for as long as it is open)
    memo: dict[str, dict[Any, Any]] = field(default_factory=dict, compare=False, repr=False)

    def side(self, key: str) -> Side:
        return self.a if key == "a" else self.b

    # the one fight interface (rules_core.solver.Fight)

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return (WIPED.format(self.b.name), BREAKS.format(self.b.name),
                WIPED.format(self.a.name), BREAKS.format(self.a.name), BOTH_BREAK,
                *((BOTH_WIPED,) if self.rules.ties == "simultaneous" else ()))

    def start(self) -> State:
        return ("fight", self.a.full_hp, self.b.full_hp)

    def step(self, state: State) -> Moves:
        return round_moves(self, state)

    def outcome(self, state: State) -> str | None:
        return state[1] if state[0] == "end" else None

    def losses(self, state: State) -> dict[str, int]:
        """Members each side has lost (down, not merely wounded)."""
        pools = state[-2:]
        return {k: self.side(k).members - up(self, k, pools[i]) for i, k in enumerate(SIDES)}

    def sample(self, state: State, dice: solver.Dice) -> tuple[State, str]:
        return play_round(self, state, dice)


R = TypeVar("R")


def per_fight(fn: Callable[..., R]) -> Callable[..., R]:
    """Cache ``fn(fight, *args)`` in the fight's own :attr:`Fight.memo`: the same steps
    recur many times in one walk, and none is wanted once the fight is done."""
    name = fn.__qualname__

    @wraps(fn)
    def cached(fight: Fight, *args: Any) -> R:
        memo = fight.memo.get(name)
        if memo is None:
            memo = fight.memo[name] = {}
        try:
            return memo[args]  # type: ignore[no-any-return]
        except KeyError:
            memo[args] = out = fn(fight, *args)
            return out
    return cached


# --- one attack ---------------------------------------------------------------------

def attackers(side: Side, up: int, foes: int, reach: int = MAX_REACH_PER_DEFENDER) -> int:
    """Members who can strike: those standing, at most the frontage, and at most
    ``reach`` around each foe still standing (the extra ones wait)."""
    cap = reach * foes
    return min(up, cap) if side.frontage is None else min(up, side.frontage, cap)


def contest_skills(att: Side, dfd: Side, att_up: int, dfd_up: int, free_attack: bool,
                   reach: int = MAX_REACH_PER_DEFENDER) -> tuple[int, int, int]:
    """(attack skill, defence skill, hit multiplier) for one group attack: the
    attackers' skill, other modifiers, tactic and numbers bonus against the defenders'
    contest defence (their skill, or a Dodge, Shield or Cloak defence) and tactic.

    A free attack on a fleeing side is made against its Retreat defence (-4); the
    attackers keep their own tactic's melee modifier, and both sides are taken to have
    the same Basic Move (so the -1 per level of Move, at worst
    FREE_ATTACK_MAX_PENALTY, does not arise).
    """
    n = attackers(att, att_up, dfd_up, reach)
    a_tactic, d_tactic = TACTIC_BY_KEY[att.tactic], TACTIC_BY_KEY[dfd.tactic]
    attack = att.skill + att.attack_modifier + (a_tactic.melee or 0) + skill_bonus(n, dfd_up)
    base = dfd.skill if dfd.defence is None else dfd.defence
    defence = base + (TACTIC_BY_KEY["retreat"].defense if free_attack else d_tactic.defense)
    return attack, defence, hit_multiplier(n)


@per_fight
def injury_kernel(fight: Fight, att_key: str, att_up: int, dfd_up: int,
                  free_attack: bool = False) -> Moves:
    """Exact distribution of the injury one group attack does to the other group's pool."""
    att = fight.side(att_key)
    dfd = fight.side("b" if att_key == "a" else "a")
    attack, defence, mult = contest_skills(att, dfd, att_up, dfd_up, free_attack,
                                           fight.rules.reach)
    return attack_injury(attack - defence, att.speed_factor, mult, att.damage, dfd.dr,
                         att.wounding)


@lru_cache(maxsize=4096)
def attack_injury(skill_difference: int, speed_factor: int, multiplier: int, damage: Damage,
                  dr: int, wounding: Fraction) -> Moves:
    """Injury from one contest: the hits it scores, then their pooled damage past DR, as
    ``(denominator, ((injury, ways), ...))`` over 46,656 x 6 ** (dice x most hits)."""
    hits = contest.hit_counts(skill_difference, speed_factor, multiplier=multiplier)
    most = max(h for h, _ in hits)
    weights: dict[int, int] = {}
    for h, ways in hits:
        scale = ways * 6 ** (damage.dice * (most - h))
        for injury, n in pooled_injury_counts(h, damage, dr, wounding).items():
            weights[injury] = weights.get(injury, 0) + scale * n
    return 46_656 * 6 ** (damage.dice * most), tuple(sorted(weights.items()))


def after_injury(pool: int, injury: int, hp: int, carry: bool) -> int:
    """The pool after an attack: every point kept, or only whole members' shares."""
    left = max(0, pool - injury)
    return left if carry else standing(left, hp) * hp


# --- the round ----------------------------------------------------------------------

def initiative_orders(rules: Rules) -> tuple[tuple[tuple[str, ...], Fraction], ...]:
    """Who acts first, from 1d each: each side wins 15 of 36; the 6 ties are rerolled
    (so each side leads half the time) or both sides act at once."""
    if rules.ties == "reroll":
        return ((("a", "b"), Fraction(1, 2)), (("b", "a"), Fraction(1, 2)))
    return ((("a", "b"), Fraction(15, 36)), (("b", "a"), Fraction(15, 36)),
            (("ab",), Fraction(6, 36)))


def up(fight: Fight, key: str, pool: int) -> int:
    return standing(pool, fight.side(key).hp)


DICE_WAYS = 216  # 3d6


def morale_modifier(fight: Fight, key: str, before: int, after: int, foe_after: int
                    ) -> int | None:
    """This side's morale modifier at the end of the round, or None when no check is due."""
    side = fight.side(key)
    if not side.checks_morale or after <= 0:
        return None
    if side.members == 1:  # a solitary creature counts HP (source: Morale)
        start, now, was = side.hp, after, before
    else:
        start, now, was = side.members, up(fight, key, after), up(fight, key, before)
    if not morale.is_due(start, start - now, was - now):
        return None
    foes = up(fight, "b" if key == "a" else "a", foe_after)
    mods = morale.modifiers(solitary=side.members == 1, start=start, now=now, opponents=foes,
                            cornered=side.cornered, fearlessness=side.fearlessness,
                            cowardice=side.cowardice)
    return sum(m.value for m in mods)


def break_ways(fight: Fight, key: str, before: int, after: int, foe_after: int) -> int:
    """Ways out of 216 this side breaks at the end of the round (0 when no check is due)."""
    modifier = morale_modifier(fight, key, before, after, foe_after)
    return 0 if modifier is None else _break_ways(modifier)


@lru_cache(maxsize=256)
def _break_ways(modifier: int) -> int:
    p = morale.p_break(modifier)
    return p.numerator * (DICE_WAYS // p.denominator)




def _attacks(fight: Fight, order: tuple[str, ...], pools: dict[str, int]
             ) -> tuple[int, dict[tuple[int, int], int]]:
    """Every way the round's attacks can leave the two pools: (denominator, pair -> ways)."""
    denominator, branches = 1, {(pools["a"], pools["b"]): 1}
    for turn in order:
        movers = ("a", "b") if turn == "ab" else (turn,)
        for key in movers:
            moves = []
            for pair, w in branches.items():
                # simultaneous blows are struck with the numbers at the start of the turn
                ups = pools if turn == "ab" else dict(zip(SIDES, pair))
                moves.append((pair, w, attack_outcomes(fight, key, ups, pair)))
            scale = math.lcm(*(m[2][0] for m in moves))
            nxt: dict[tuple[int, int], int] = {}
            for _pair, w, (own, outcomes) in moves:
                w *= scale // own
                for after, q in outcomes:
                    nxt[after] = nxt.get(after, 0) + w * q
            denominator *= scale
            branches = nxt
    return denominator, branches


def attack_outcomes(fight: Fight, key: str, numbers: dict[str, int], pair: tuple[int, int]
                    ) -> Moves:
    """The pools after side ``key`` attacks, its numbers read from ``numbers``' pools."""
    foe = "b" if key == "a" else "a"
    a_up, d_up = up(fight, key, numbers[key]), up(fight, foe, numbers[foe])
    i = SIDES.index(foe)
    if a_up == 0 or d_up == 0 or pair[i] == 0:
        return 1, ((pair, 1),)
    own, moves = pool_after(fight, key, a_up, d_up, pair[i])
    return own, tuple(((left, pair[1]) if i == 0 else (pair[0], left), w) for left, w in moves)


@per_fight
def pool_after(fight: Fight, key: str, a_up: int, d_up: int, pool: int,
               free_attack: bool = False) -> Moves:
    """The defenders' pool after side ``key`` attacks it: (denominator, ((pool, ways), ...))."""
    hp = fight.side("b" if key == "a" else "a").hp
    common, kernel = injury_kernel(fight, key, a_up, d_up, free_attack)
    out: dict[int, int] = {}
    for inj, w in kernel:
        left = after_injury(pool, inj, hp, fight.rules.carry_wounds)
        out[left] = out.get(left, 0) + w
    shared = math.gcd(common, *out.values())
    return common // shared, tuple((k, w // shared) for k, w in out.items())


def round_moves(fight: Fight, state: State) -> Moves:
    """One round, exactly (:meth:`Fight.step`): initiative, both attacks, then morale, as
    ``(denominator, ((next state, ways), ...))``."""
    _, pool_a, pool_b = state
    start = {"a": pool_a, "b": pool_b}
    parts = []
    for order, p_order in initiative_orders(fight.rules):
        denominator, branches = _attacks(fight, order, start)
        ends = [(w, end_of_round(fight, (pool_a, pool_b), pa, pb)) for (pa, pb), w in branches.items()]
        parts.append((p_order, denominator, ends))
    common = math.lcm(*(p.denominator * d * math.lcm(*(own for _, (own, _) in ends))
                        for p, d, ends in parts))
    weights: dict[State, int] = {}
    for p_order, denominator, ends in parts:
        unit = common // (p_order.denominator * denominator) * p_order.numerator
        scale = math.lcm(*(own for _, (own, _) in ends))
        for w, (own, moves) in ends:
            factor = unit * w * (scale // own) // scale
            for nxt, q in moves:
                weights[nxt] = weights.get(nxt, 0) + factor * q
    shared = math.gcd(common, *weights.values())
    return common // shared, tuple((s, w // shared) for s, w in weights.items())


@per_fight
def end_of_round(fight: Fight, before: tuple[int, int], pool_a: int, pool_b: int) -> Moves:
    """Wipe-outs, then the morale checks due, then the free attack on a side that flees."""
    pools = {"a": pool_a, "b": pool_b}
    if up(fight, "a", pool_a) == 0 and up(fight, "b", pool_b) == 0:
        return 1, ((("end", BOTH_WIPED, pool_a, pool_b), 1),)
    if up(fight, "a", pool_a) == 0:
        return 1, ((("end", WIPED.format(fight.a.name), pool_a, pool_b), 1),)
    if up(fight, "b", pool_b) == 0:
        return 1, ((("end", WIPED.format(fight.b.name), pool_a, pool_b), 1),)
    ka = break_ways(fight, "a", before[0], pool_a, pool_b)
    kb = break_ways(fight, "b", before[1], pool_b, pool_a)
    flee = {key: broken(fight, key, pools) for key, k in (("a", ka), ("b", kb)) if k}
    room = math.lcm(*(m[0] for m in flee.values()))
    common = DICE_WAYS * DICE_WAYS * room
    out: list[tuple[Any, int]] = []
    if (DICE_WAYS - ka) * (DICE_WAYS - kb):
        out.append((("fight", pool_a, pool_b), (DICE_WAYS - ka) * (DICE_WAYS - kb) * room))
    if ka * kb:
        out.append((("end", BOTH_BREAK, pool_a, pool_b), ka * kb * room))
    for key, ways in (("a", ka * (DICE_WAYS - kb)), ("b", kb * (DICE_WAYS - ka))):
        if ways:
            own, moves = flee[key]
            out.extend((s, ways * (room // own) * w) for s, w in moves)
    return common, tuple(out)


def broken(fight: Fight, key: str, pools: dict[str, int]) -> Moves:
    """A side breaks: it surrenders, or flees and takes the free attack as it goes."""
    name = BREAKS.format(fight.side(key).name)
    if fight.rules.on_break != "flee":
        return 1, ((("end", name, pools["a"], pools["b"]), 1),)
    foe = "b" if key == "a" else "a"
    own, moves = pool_after(fight, foe, up(fight, foe, pools[foe]), up(fight, key, pools[key]),
                            pools[key], True)
    return own, tuple((("end", name, *(left if k == key else pools[k] for k in SIDES)), w)
                      for left, w in moves)


# --- the same round with real dice ----------------------------------------------------

#: what the played round rolls with: the dice player's :class:`rules_core.solver.Dice`, or a
#: plain generator for a simulation (:func:`rules_core.heroic.quick.play_quickly`)
Rng = solver.Dice | random.Random


def roll_d6(rng: Rng, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def play_attack(fight: Fight, key: str, pools: dict[str, int], rng: Rng,
                free_attack: bool = False) -> tuple[int, str]:
    """One group attack with real dice; returns the injury and a phrase for the log."""
    att, foe = fight.side(key), "b" if key == "a" else "a"
    dfd = fight.side(foe)
    a_up, d_up = up(fight, key, pools[key]), up(fight, foe, pools[foe])
    attack, defence, mult = contest_skills(att, dfd, a_up, d_up, free_attack, fight.rules.reach)
    ra, rd = sum(roll_d6(rng, 3)), sum(roll_d6(rng, 3))
    c = contest.resolve(attack, defence, ra, rd, att.speed_factor, multiplier=mult)
    head = (f"{att.name} ({attackers(att, a_up, d_up, fight.rules.reach)} striking, skill {attack}) roll {ra} vs "
            f"{dfd.name} ({defence}) roll {rd}")
    if not c.hits:
        return 0, head + ": no hits"
    damage = sum(hit_damage(roll_d6(rng, att.damage.dice), att.damage) for _ in range(c.hits))
    injury = injury_from(max(0, damage - dfd.dr * c.hits), att.wounding)
    return injury, (f"{head}: {c.hits} hits, {damage} damage, {injury} injury")


def drawn_attack(fight: Fight, key: str, pools: dict[str, int], rng: random.Random,
                 free_attack: bool = False) -> tuple[int, str]:
    """:func:`play_attack` with one random number: the injury drawn from its exact
    distribution (:func:`injury_kernel`), without the dice or the words, for a simulation
    of many fights."""
    foe = "b" if key == "a" else "a"
    den, injuries, cumulative = drawable(fight, key, up(fight, key, pools[key]),
                                         up(fight, foe, pools[foe]), free_attack)
    return injuries[bisect.bisect_right(cumulative, rng.randrange(den))], ""


@per_fight
def drawable(fight: Fight, key: str, a_up: int, d_up: int, free_attack: bool
              ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """(denominator, each injury, the ways of it and every smaller one) of an attack."""
    den, kernel = injury_kernel(fight, key, a_up, d_up, free_attack)
    return den, tuple(i for i, _ in kernel), tuple(itertools.accumulate(w for _, w in kernel))


def play_round(fight: Fight, state: State, rng: Rng,
               attack: Callable[..., tuple[int, str]] | None = None) -> tuple[State, str]:
    """One round with real dice, through the same rules as :func:`step`; ``attack``
    resolves each group attack (:func:`play_attack` unless told)."""
    attack = attack or play_attack
    _, pool_a, pool_b = state
    before = {"a": pool_a, "b": pool_b}
    pools = dict(before)
    ia, ib = rng.randint(1, 6), rng.randint(1, 6)
    if ia == ib and fight.rules.ties == "reroll":
        while ia == ib:
            ia, ib = rng.randint(1, 6), rng.randint(1, 6)
    order = ("a", "b") if ia > ib else ("b", "a") if ib > ia else ("ab",)
    parts = [f"initiative {ia} vs {ib}"]
    carry = fight.rules.carry_wounds
    for turn in order:
        movers = ("a", "b") if turn == "ab" else (turn,)
        snapshot = dict(pools)
        for key in movers:
            foe = "b" if key == "a" else "a"
            # as the odds count it: blows struck at once use the numbers of the turn's start
            if (up(fight, key, snapshot[key]) == 0 or up(fight, foe, snapshot[foe]) == 0
                    or pools[foe] == 0):
                continue
            injury, text = attack(fight, key, snapshot, rng)
            pools[foe] = after_injury(pools[foe], injury, fight.side(foe).hp, carry)
            parts.append(text)
    for key in SIDES:
        parts.append(f"{fight.side(key).name} {up(fight, key, pools[key])} standing "
                     f"({pools[key]} HP)")
    return _play_end(fight, before, pools, rng, parts, attack)


def _play_end(fight: Fight, before: dict[str, int], pools: dict[str, int],
              rng: Rng, parts: list[str],
              attack: Callable[..., tuple[int, str]]) -> tuple[State, str]:
    if all(up(fight, key, pools[key]) == 0 for key in SIDES):
        return ("end", BOTH_WIPED, pools["a"], pools["b"]), "; ".join(parts)
    for key in SIDES:
        if up(fight, key, pools[key]) == 0:
            return ("end", WIPED.format(fight.side(key).name), pools["a"], pools["b"]), \
                "; ".join(parts)
    broke = []
    for key in SIDES:
        foe = "b" if key == "a" else "a"
        total = morale_modifier(fight, key, before[key], pools[key], pools[foe])
        if total is None:
            continue
        side = fight.side(key)
        dice = sum(roll_d6(rng, 3))
        verdict = morale.breaks(dice, total)
        parts.append(f"{side.name} morale {dice}{total:+d}: {'breaks' if verdict else 'holds'}")
        if verdict:
            broke.append(key)
    if len(broke) == 2:
        return ("end", BOTH_BREAK, pools["a"], pools["b"]), "; ".join(parts)
    if broke:
        key = broke[0]
        foe = "b" if key == "a" else "a"
        if fight.rules.on_break == "flee":
            injury, text = attack(fight, foe, pools, rng, free_attack=True)
            pools[key] = after_injury(pools[key], injury, fight.side(key).hp,
                                      fight.rules.carry_wounds)
            parts.append("free attack on the fleeing side: " + text)
        return ("end", BREAKS.format(fight.side(key).name), pools["a"], pools["b"]), \
            "; ".join(parts)
    return ("fight", pools["a"], pools["b"]), "; ".join(parts)


# --- the same rounds, pruned, for pools too many to follow exactly --------------------

#: a cell of one round's walk: (pool A, pool B, A lost this round, B lost this round, B's
#: standing at the round's start: kept only for blows struck at once, else 0)
Cell = tuple[int, int, bool, bool, int]


#: :class:`Pruned`'s packed attacks: each chance a whole number of 2^-60, each pool's
#: slot 128 bits wide (a chance times a chance is under 2^120, and a slot adds at most a
#: hundred of them); a slot read back is a multiple of UNIT
FRACTION_BITS = 60
ONE = 1 << FRACTION_BITS
SLOT_BITS, SLOT_BYTES = 128, 16
SLOT_SUM = (1 << SLOT_BITS) - 1  # the sum of a packed integer's slots, modulo this
UNIT = 2.0 ** (-2 * FRACTION_BITS)

#: the work of one cell's end of round in :class:`Pruned`'s budget, beside its results:
#: about as long as following forty injuries (measured: the morale checks and flights)
END_WORK = 40


class Pruned:
    """The fight walked in floating point (fixed point within an attack) with its least
    likely pools dropped (:class:`rules_core.solver.Spreads`), for carried wounds past
    what the exact walk follows: each round moves every live pair of pools at once, and
    pairs reached by different paths are merged after every attack. ``max_work`` bounds
    the pools struck and read back (and the ends of rounds worked out), and
    :data:`MAX_ROUND_WORK` one round's, so a fight too large is refused as the walk
    goes."""

    def __init__(self, fight: Fight, max_work: int) -> None:
        if not fight.rules.carry_wounds:
            raise ValueError("the pruned walk follows carried wounds; whole members only "
                             "are walked exactly")
        self.fight = fight
        self.max_work = max_work
        self.work = 0
        #: the work done when the round under way began
        self.round_began = 0
        self.outcome_order = fight.outcome_order
        self.start, self.outcome, self.losses = fight.start, fight.outcome, fight.losses
        self.step, self.sample = fight.step, fight.sample
        #: members standing, by pool, per side
        self.ups = {k: [up(fight, k, p) for p in range(fight.side(k).full_hp + 1)]
                    for k in SIDES}
        self._ends: dict[tuple[int, int, bool, bool], tuple[tuple[State, float], ...]] = {}
        self._flight: dict[tuple[str, int, int], tuple[tuple[int, float], ...]] = {}
        self._kernels: dict[tuple[str, int, int, bool], tuple[list[float], list[float]]] = {}
        self._morale: dict[tuple[str, int, bool, int], int] = {}
        self._packs: dict[tuple[str, int, int], tuple[int, int, int]] = {}

    def spend(self, work: int) -> None:
        if self.work + work > self.max_work:
            raise solver.TooLarge("The work of following the injuries pool by pool",
                                  self.max_work)
        if self.work + work - self.round_began > MAX_ROUND_WORK:
            raise solver.TooLarge("The work of one round following the injuries pool by "
                                  "pool", MAX_ROUND_WORK)
        self.work += work

    def spread(self, live: dict[State, float], floor: float) -> tuple[dict[State, float], float]:
        self.round_began = self.work
        # the round's attacks under each initiative order, their cells merged before the
        # end of the round (which reads nothing of the order)
        merged: dict[tuple[int, int, bool, bool], float] = {}
        for order, p_order in initiative_orders(self.fight.rules):
            share = float(p_order)
            cells: dict[Cell, float] = {}
            for (_, pa, pb), mass in live.items():
                u0 = self.ups["b"][pb] if order == ("ab",) else 0
                cells[pa, pb, False, False, u0] = mass * share
            for turn in order:
                for key in (("a", "b") if turn == "ab" else (turn,)):
                    cells = self._attack(cells, key, at_once=turn == "ab")
            for (pa, pb, la, lb, _), mass in cells.items():
                merged[pa, pb, la, lb] = merged.get((pa, pb, la, lb), 0.0) + mass
        out: dict[State, float] = {}
        for cell, mass in merged.items():
            ends = self._ends.get(cell)
            if ends is None:
                ends = self._ends[cell] = self._round_end(*cell)
                self.spend(END_WORK + len(ends))
            for state, p in ends:
                out[state] = out.get(state, 0.0) + mass * p
        dropped = 0.0
        for state in [s for s, m in out.items() if s[0] == "fight" and m < floor]:
            dropped += out.pop(state)
        return out, dropped

    def _attack(self, cells: dict[Cell, float], key: str, at_once: bool) -> dict[Cell, float]:
        """Side ``key`` strikes on every cell; blows struck at once use the numbers of the
        round's start (B's kept in the cell; A's pool is not hit before B strikes).

        The cells that differ only in the defenders' pool are a row, and a row's pools
        with as many defenders standing take the same injury distribution: each such run
        is packed into one integer (a slot of :data:`SLOT_BITS` per pool, the chances in
        fixed point, rounded down by less than 2^-60 each) and multiplied by the
        distribution packed the same way, which adds up every pool after every injury at
        once. The slots past pool 1 are the defenders wiped out; those past the run's own
        members standing, a member lost (for a lone creature, any injury)."""
        foe = "b" if key == "a" else "a"
        ups_key, ups_foe = self.ups[key], self.ups[foe]
        hp = self.fight.side(foe).hp
        alone = self.fight.side(foe).members == 1
        rows: dict[tuple[int, bool, bool, int], dict[int, list[tuple[int, float]]]] = {}
        for (pa, pb, la, lb, u0), mass in cells.items():
            own, theirs = (pa, pb) if key == "a" else (pb, pa)
            runs = rows.setdefault((own, la, lb, u0), {})
            runs.setdefault(ups_foe[theirs], []).append((theirs, mass))
        out: dict[Cell, float] = {}
        get = out.get
        for (own, la, lb, u0), runs in rows.items():
            a_up = u0 if at_once and key == "b" else ups_key[own]
            struck = []
            for d_up, pools in runs.items():
                if a_up == 0 or d_up == 0:  # no blow struck: the cells stay as they are
                    for pool, mass in pools:
                        cell = (own, pool, la, lb, u0) if key == "a" else (pool, own, la, lb, u0)
                        out[cell] = get(cell, 0.0) + mass
                else:
                    struck.append((d_up, pools))
            if not struck:
                continue
            # slot 0 is the row's highest pool struck, and pool p is in slot top - p: the
            # slots from top on are the defenders wiped out
            top = max(pool for _, pools in struck for pool, _ in pools)
            kept = hit = 0
            for d_up, pools in struck:
                packed, unhurt, hurt = self._packed(key, a_up, d_up)
                self.spend(len(pools))
                x = 0
                for pool, mass in pools:
                    x |= int(mass * ONE) << (SLOT_BITS * (top - pool))
                if alone:
                    kept += x * unhurt
                    hit += x * hurt
                else:
                    y = x * packed
                    # a pool above (d_up - 1) x hp still has d_up standing: nobody lost
                    cut = SLOT_BITS * (top - (d_up - 1) * hp)
                    stay = y - (y >> cut << cut)
                    kept += stay
                    hit += y - stay
            wiped_slots = hit >> (SLOT_BITS * top)
            hit -= wiped_slots << (SLOT_BITS * top)
            wiped = wiped_slots % SLOT_SUM
            for lost, acc in ((False, kept), (True, hit)):
                if not acc:
                    continue
                width = SLOT_BYTES * (-(-acc.bit_length() // SLOT_BITS))
                self.spend(width // SLOT_BYTES)
                data = acc.to_bytes(width, "little")
                slots = [int.from_bytes(data[i:i + SLOT_BYTES], "little")
                         for i in range(0, width, SLOT_BYTES)]
                for r, v in enumerate(slots):
                    if v:
                        cell = (own, top - r, la, lb or lost, u0) if key == "a" else \
                            (top - r, own, la or lost, lb, u0)
                        out[cell] = get(cell, 0.0) + v * UNIT
            if wiped:
                cell = (own, 0, la, True, u0) if key == "a" else (0, own, True, lb, u0)
                out[cell] = get(cell, 0.0) + wiped * UNIT
        return out

    def _packed(self, key: str, a_up: int, d_up: int) -> tuple[int, int, int]:
        """The injury distribution in fixed point, packed a slot per injury: all of it,
        no injury alone, and every injury but none."""
        k = (key, a_up, d_up)
        known = self._packs.get(k)
        if known is None:
            own, kernel = injury_kernel(self.fight, key, a_up, d_up, False)
            self.spend(len(kernel))
            slots = {injury: (w << FRACTION_BITS) // own for injury, w in kernel}
            packed = sum(v << (SLOT_BITS * i) for i, v in slots.items())
            unhurt = slots.get(0, 0)
            known = self._packs[k] = (packed, unhurt, packed - unhurt)
        return known

    def _kernel(self, key: str, a_up: int, d_up: int, free_attack: bool
                ) -> tuple[list[float], list[float]]:
        """:func:`injury_kernel` in floating point: the chance of each injury 0, 1, 2...,
        and of each injury or more."""
        k = (key, a_up, d_up, free_attack)
        known = self._kernels.get(k)
        if known is None:
            own, kernel = injury_kernel(self.fight, key, a_up, d_up, free_attack)
            self.spend(len(kernel))
            chances = [0.0] * (kernel[-1][0] + 1)
            for injury, w in kernel:
                chances[injury] = w / own
            tails = chances + [0.0]
            for i in range(len(chances) - 1, -1, -1):
                tails[i] += tails[i + 1]
            known = self._kernels[k] = (chances, tails)
        return known

    def _shown(self, key: str, pool: int) -> int:
        """The pool an ended fight is kept under: the members standing are all its losses
        need, so every pool with as many standing is one."""
        return self.ups[key][pool] * self.fight.side(key).hp

    def _round_end(self, pa: int, pb: int, la: bool, lb: bool
                   ) -> tuple[tuple[State, float], ...]:
        """:func:`end_of_round` for a cell: the same wipe-outs, morale checks and free
        attack, a check due when the side lost what calls for one this round (recorded
        in the cell in place of the pools the round started from)."""
        fight = self.fight
        ends = self._shown("a", pa), self._shown("b", pb)
        if pa == 0 or pb == 0:
            name = BOTH_WIPED if pa == pb == 0 else \
                WIPED.format((fight.a if pa == 0 else fight.b).name)
            return ((("end", name, *ends), 1.0),)
        ka, kb = self._breaks("a", pa, la, pb), self._breaks("b", pb, lb, pa)
        whole = float(DICE_WAYS * DICE_WAYS)
        out: dict[State, float] = {}
        if (DICE_WAYS - ka) * (DICE_WAYS - kb):
            out["fight", pa, pb] = (DICE_WAYS - ka) * (DICE_WAYS - kb) / whole
        if ka * kb:
            out["end", BOTH_BREAK, *ends] = ka * kb / whole
        for key, ways in (("a", ka * (DICE_WAYS - kb)), ("b", kb * (DICE_WAYS - ka))):
            if not ways:
                continue
            name = BREAKS.format(fight.side(key).name)
            if fight.rules.on_break != "flee":
                out["end", name, *ends] = ways / whole
                continue
            foe = "b" if key == "a" else "a"
            pools = {"a": pa, "b": pb}
            for left, p in self._fled(key, self.ups[foe][pools[foe]], pools[key]):
                state = ("end", name, left, ends[1]) if key == "a" else \
                    ("end", name, ends[0], left)
                out[state] = out.get(state, 0.0) + ways / whole * p
        return tuple(out.items())

    def _fled(self, key: str, foe_up: int, pool: int) -> tuple[tuple[int, float], ...]:
        """Side ``key`` flees with ``pool`` and takes the free attack: its pool after, by
        members standing (:meth:`_shown`)."""
        k = (key, foe_up, pool)
        known = self._flight.get(k)
        if known is None:
            foe = "b" if key == "a" else "a"
            chances, tails = self._kernel(foe, foe_up, self.ups[key][pool], True)
            # an injury short of the pool leaves the rest; any larger one leaves none
            shown = {0: tails[pool]} if pool < len(chances) else {}
            for i, q in enumerate(chances[:pool]):
                s = self._shown(key, pool - i)
                shown[s] = shown.get(s, 0.0) + q
            self.spend(min(pool, len(chances)))
            known = self._flight[k] = tuple((s, q) for s, q in shown.items() if q)
        return known

    def _breaks(self, key: str, pool: int, lost: bool, foe_pool: int) -> int:
        """:func:`break_ways` for a side left with ``pool`` that lost what calls for a
        check this round when ``lost``: :func:`morale_modifier` reads nothing else of the
        round's start, so a pool one member (one HP for a lone creature) above stands in
        for it; and only the members standing count, save a lone creature's HP."""
        side = self.fight.side(key)
        own = pool if side.members == 1 else self.ups[key][pool] * side.hp
        foe = "b" if key == "a" else "a"
        k = (key, own, lost, self.ups[foe][foe_pool])
        known = self._morale.get(k)
        if known is None:
            before = own + (1 if side.members == 1 else side.hp) if lost else own
            foe_shown = self._shown(foe, foe_pool)
            known = self._morale[k] = break_ways(self.fight, key, before, own, foe_shown)
        return known


# ---- how a fight is answered (rules_core.cascade) ------------------------------------

#: pairs of HP totals the carried-wounds model may follow exactly, and pairs of member
#: counts the default model may: past these an exact answer takes more than about a
#: second in CPython (the work grows with the square of the pairs)
MAX_CARRY_STATES = 250
#: past MAX_MEMBER_PAIRS no walk is tried, whatever the wounds: even the pruned walk
#: would be refused; the fight is simulated
MAX_MEMBER_PAIRS = 160
#: carried wounds past MAX_CARRY_STATES are followed pool by pool with the least likely
#: pools dropped (:class:`Pruned`): the steps it may take, about 0.7 s of CPython at a
#: round cap of 20 (three times that at 100: :func:`solver.scaled_budget`); five orcs
#: against four knights need 830,000
MAX_PRUNED_WORK = 850_000
#: the most work one round of that walk may take. A round is one piece of work that
#: the browser's worker cannot break, and the second round is the largest (every pool
#: is struck for the first time there): the whole walk takes two to three times it.
#: Eight against eight, the largest second round of the orcs and knights answered at a
#: cap of 100, takes 943,463; every one past this limit went over the walk's budget
#: after several more seconds (twelve against eight: 1,559,393, then 3 s of CPython)
MAX_ROUND_WORK = 1_000_000
#: the exact walk's budget per round of the cap (moves x 64-bit words of the exact
#: masses, which grow round by round): about 1 s of CPython at a cap of 20 and 3 s at 100
COST_PER_ROUND = 500_000
#: fights one simulation step plays (a few hundredths of a second of CPython for the
#: largest groups), the most a simulation plays, and the most rounds (its work cap:
#: about 20 s of CPython)
SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS = 100, 250_000, 500_000


def carry_pairs(fight: Fight) -> int:
    """The pairs of HP totals carried wounds may have to follow."""
    return fight.a.members * fight.a.hp * fight.b.members * fight.b.hp


def cascade(fight: Fight, max_rounds: int,
            play_quickly: Callable[[Fight, int, random.Random], tuple[State, int]]) -> Cascade:
    """How this fight is answered: the exact walk within :data:`COST_PER_ROUND`, or for
    carried wounds past :data:`MAX_CARRY_STATES` the pruned walk within
    :data:`MAX_PRUNED_WORK`; past :data:`MAX_MEMBER_PAIRS` no walk; a simulation after."""
    members = fight.a.members * fight.b.members
    play = functools.partial(play_quickly, fight, max_rounds)
    if members > MAX_MEMBER_PAIRS:
        return Cascade(fight, max_rounds, (), play, SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS,
                       untried=f"{fight.a.members} x {fight.b.members} = {members} pairs of "
                               f"member counts, more than the {MAX_MEMBER_PAIRS} an exact "
                               "answer can follow in time")

    def pruned() -> solver.Walk[solver.Pruned]:
        budget = solver.scaled_budget(MAX_PRUNED_WORK, max_rounds)
        return solver.walk_pruned(Pruned(fight, budget), max_rounds=max_rounds,
                                  floor=solver.PRUNE_FLOOR, max_pruned=solver.MAX_ERROR)

    def exact() -> solver.Walk[solver.Odds]:
        return solver.walk_exact(fight, max_rounds=max_rounds,
                                 max_cost=COST_PER_ROUND * max_rounds)

    if fight.rules.carry_wounds and carry_pairs(fight) > MAX_CARRY_STATES:
        return Cascade(fight, max_rounds, (("pruned", pruned),), play, SIM_BATCH,
                       SIM_MAX_FIGHTS, SIM_MAX_ROUNDS,
                       untried=f"Carrying every point means following up to "
                               f"{carry_pairs(fight):,} pairs of HP totals, more than the "
                               f"{MAX_CARRY_STATES:,} followed exactly")
    walks = (("exact", exact), ("pruned", pruned)) if fight.rules.carry_wounds else \
        (("exact", exact),)
    return Cascade(fight, max_rounds, walks, play, SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS)
