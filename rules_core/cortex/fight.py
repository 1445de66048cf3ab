"""A whole firefight between two units, round by round, as an exact Markov chain.

Sources: Part II, "Initiative" (activations alternate between the sides, one character or
unit at a time; the situation or a roll-off decides who starts), "Zones" (range dice,
cover), "Attack and Defense" (pools from the members still fighting; several effect dice
against a unit, one non-lethal); Part I, "Inflicting Harm - NPCs" (lowest quality first,
complications that step up) and "Other Fireteam Factors" (an injury die goes to the
opposing pool).

Reading (Rulings: a firefight round): with one unit a side, a round is the first side's
activation (an attack on the other unit) and then the other side's, made only by the
members still standing after the first attack. Members always fall lowest quality first,
so a side is fully described by the members it has lost and the injury die it
carries: the state is ``(lost_a, injury_a, lost_b, injury_b, spent_a, spent_b)``, each
``lost`` the quality dice of the members out, smallest first (injury 0: none). Members
fall lowest quality first, or (a variant) each effect die takes out the best member it
reaches, so which members are out is kept, not only how many. Each
attack's odds come from :func:`rules_core.cortex.odds.effect_weights` (the exact contest)
and :func:`rules_core.cortex.effect.after_attack` (the effect dice assigned), both cached
per pair of pools, so six members a side is answered in well under a second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules_core import solver
from rules_core.cascade import Cascade, by_steps
from rules_core.cortex.contest import MAX_EFFECT_DICE, EffectLimit, effect_dice, roll_pool
from rules_core.cortex.dice import names
from rules_core.cortex.effect import Rules, after_attack, assign
from rules_core.cortex.odds import effect_dice_pairs, effect_dice_weights, pool_totals
from rules_core.cortex.pools import InjuryRule, Side, attack_terms, defence_terms
from rules_core.cortex.tables import Range

#: (lost_a, injury_a, lost_b, injury_b, plot points A has spent, plot points B has spent);
#: lost: the quality dice of the members out, smallest first; injury 0 = none
Lost = tuple[int, ...]
State = tuple[Lost, int, Lost, int, int, int]
A_WINS, B_WINS, BOTH_FALL = "Side A wins", "Side B wins", "Both sides fall"
OUTCOMES = (A_WINS, B_WINS)
#: ``first`` for the variant where both units shoot at once from the round's start
AT_ONCE = "both"
#: when a side spends a plot point on one more effect die (Rulings: plot points in a
#: firefight): as soon as a die is left to add, only when it takes out one more member, or
#: on every winning attack while points are left (paid even when no die is left to add)
SPEND_FIRST, SPEND_TAKES_OUT, SPEND_EVERY_WIN = "first", "takes_out", "every_win"
START: State = ((), 0, (), 0, 0, 0)
SIDE_NAMES = {"a": "Side A", "b": "Side B"}


@dataclass(frozen=True)
class Unit:
    """One side: quality dice (lowest first, the order members fall), the assets it rolls
    when attacking and defending, its armor asset and the Cover Rating of its zone."""

    quality: tuple[int, ...]
    assets: tuple[int, ...] = ()
    armor: int | None = None
    cover: int | None = None
    plot_points: int = 0  # plot points to spend, each on one more effect die
    #: each effect die takes out the best member it reaches (not the lowest first)
    highest_first: bool = False

    def standing(self, lost: Lost) -> tuple[int, ...]:
        """The members still fighting once those ``lost`` are out, in falling order."""
        return _standing(self, lost)


@lru_cache(maxsize=4096)
def _standing(unit: Unit, lost: Lost) -> tuple[int, ...]:
    left = sorted(unit.quality, reverse=unit.highest_first)
    for q in lost:
        left.remove(q)
    return tuple(left)


def _out(lost: Lost, more: tuple[int, ...]) -> Lost:
    """The members out once ``more`` fall too, smallest first."""
    return tuple(sorted(lost + more)) if more else lost


@dataclass(frozen=True)
class Fight:
    """Both units and the rules the fight is played under."""

    a: Unit
    b: Unit
    distance: Range = Range.ADJACENT
    rules: Rules = Rules.PART2
    carry_surplus: bool = False
    limit: EffectLimit = EffectLimit.MARGIN
    spend: str = SPEND_FIRST

    def unit(self, side: str) -> Unit:
        return self.a if side == "a" else self.b

    def pools(self, side: str, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The attack pool of ``side`` and the defence pool of the other side, built by the
        firefight pool builder from the members still standing and the injuries."""
        other = "b" if side == "a" else "a"
        my_lost, my_injury = _side_state(side, state)
        their_lost, their_injury = _side_state(other, state)
        return (_attack_pool(self, side, my_lost, their_injury),
                _defence_pool(self, other, their_lost, my_injury))


@lru_cache(maxsize=1024)
def _attack_pool(fight: Fight, side: str, lost: Lost, injury: int) -> tuple[int, ...]:
    """``side``'s attack pool with ``lost`` members down, against a target carrying
    ``injury`` (0: none); cached, as each pool serves many states of the fight."""
    me = fight.unit(side)
    attack = attack_terms(Side(False, quality=me.standing(lost), other=me.assets),
                          [injury] if injury else [], InjuryRule.EVERY)
    return tuple(sorted((t.die for t in attack), reverse=True))


@lru_cache(maxsize=1024)
def _defence_pool(fight: Fight, side: str, lost: Lost, injury: int) -> tuple[int, ...]:
    """``side``'s defence pool with ``lost`` members down, against an attacker carrying
    ``injury`` (0: none); cached as :func:`_attack_pool` is."""
    them = fight.unit(side)
    defence = defence_terms(Side(False, quality=them.standing(lost), other=them.assets),
                            fight.distance, them.cover, False, them.armor, False,
                            [injury] if injury else [], InjuryRule.EVERY)
    return tuple(sorted((t.die for t in defence), reverse=True))


def _side_state(side: str, state: State) -> tuple[Lost, int]:
    return (state[0], state[1]) if side == "a" else (state[2], state[3])


def _with_side(side: str, state: State, lost: Lost, injury: int) -> State:
    if side == "a":
        return (lost, injury) + state[2:]  # type: ignore[return-value]
    return state[:2] + (lost, injury) + state[4:]  # type: ignore[return-value]


def _spent(side: str, state: State) -> int:
    return state[4] if side == "a" else state[5]


def _spend_one(side: str, state: State) -> State:
    return state[:4] + ((state[4] + 1, state[5]) if side == "a" else (state[4], state[5] + 1))  # type: ignore[return-value]


def spends(fight: Fight, side: str, state: State, without: tuple[int, ...],
           with_point: tuple[int, ...]) -> bool:
    """Whether ``side`` pays a plot point on this winning attack (source: Part I, Extra
    Effect Dice): it has one left and (``SPEND_EVERY_WIN``) it always pays, or the point
    adds a die and (``SPEND_TAKES_OUT``) that die takes out one more member."""
    if _spent(side, state) >= fight.unit(side).plot_points:
        return False
    if fight.spend == SPEND_EVERY_WIN:
        return True
    if with_point == without:
        return False
    if fight.spend == SPEND_FIRST:
        return True
    other = "b" if side == "a" else "a"
    target = fight.unit(other)
    lost, injury = _side_state(other, state)
    args = (target.standing(lost), injury or None, fight.rules, fight.carry_surplus,
            target.highest_first)
    return len(after_attack(with_point, *args)[0]) > len(after_attack(without, *args)[0])


def attack(fight: Fight, side: str, state: State) -> dict[State, Fraction]:
    """Exact next states after ``side`` attacks the other unit once."""
    den, counts = _attack(fight, side, state)
    return {s: Fraction(w, den) for s, w in counts.items()}


@lru_cache(maxsize=8192)
def _attack(fight: Fight, side: str, state: State) -> tuple[int, dict[State, int]]:
    """:func:`attack` as integer counts of equally likely rolls and their number."""
    other = "b" if side == "a" else "a"
    target = fight.unit(other)
    lost, injury = _side_state(other, state)
    standing = target.standing(lost)
    attack_pool, defence_pool = fight.pools(side, state)
    keep = len(standing) if fight.rules is Rules.PART2 else MAX_EFFECT_DICE
    counts: dict[State, int] = {}
    if _spent(side, state) < fight.unit(side).plot_points and (
            fight.limit is EffectLimit.MARGIN or fight.spend == SPEND_EVERY_WIN):
        pairs, denominator = _effect_pairs(attack_pool, defence_pool, keep, fight.limit)
        wins: dict[tuple[int, ...], int] = {}
        for (without, with_point), weight in pairs.items():
            if spends(fight, side, state, without, with_point):
                out, left = after_attack(with_point, standing, injury or None, fight.rules,
                                         fight.carry_surplus, target.highest_first)
                nxt = _spend_one(side, _with_side(other, state, _out(lost, out), left or 0))
                counts[nxt] = counts.get(nxt, 0) + weight
            else:
                wins[without] = wins.get(without, 0) + weight
        settled = sum(counts.values())
    else:
        wins, denominator = _effect_dist(attack_pool, defence_pool, keep, fight.limit)
        settled = 0
    for dice, weight in wins.items():
        out, left = after_attack(dice, standing, injury or None, fight.rules, fight.carry_surplus,
                                 target.highest_first)
        nxt = _with_side(other, state, _out(lost, out), left or 0)
        counts[nxt] = counts.get(nxt, 0) + weight
    settled += sum(wins.values())
    counts[state] = counts.get(state, 0) + denominator - settled
    return denominator, {s: w for s, w in counts.items() if w}


@lru_cache(maxsize=8192)
def _effect_pairs(attack_pool: tuple[int, ...], defence_pool: tuple[int, ...], keep: int,
                  limit: EffectLimit) -> tuple[dict[tuple[tuple[int, ...], tuple[int, ...]], int], int]:
    """The contest per pair of pools, with and without a plot point's die (cached)."""
    return effect_dice_pairs(attack_pool, defence_pool, keep, limit)


@lru_cache(maxsize=8192)
def _effect_dist(attack_pool: tuple[int, ...], defence_pool: tuple[int, ...], keep: int,
                 limit: EffectLimit) -> tuple[dict[tuple[int, ...], int], int]:
    """The contest per pair of pools: winning effect dice -> count of rolls (cached)."""
    return effect_dice_weights(attack_pool, defence_pool, keep, False, limit)


def outcome(fight: Fight, state: State) -> str | None:
    """Over when one side has nobody left (the other wins)."""
    a_out, b_out = len(state[0]) >= len(fight.a.quality), len(state[2]) >= len(fight.b.quality)
    if a_out and b_out:
        return BOTH_FALL
    if b_out:
        return A_WINS
    if a_out:
        return B_WINS
    return None


def step(fight: Fight, first: str, state: State) -> tuple[int, dict[State, int]]:
    """One round: ``first`` attacks, then the other side with whoever still stands.
    Counted in integers over one common denominator: (denominator, ways of each next
    state). ``first == AT_ONCE``: both attack from the round's starting state (a variant)."""
    if first == AT_ONCE:
        den_a, on_b = _attack(fight, "a", state)
        den_b, on_a = _attack(fight, "b", state)
        both: dict[State, int] = {}
        for sb, p in on_b.items():  # A's attack: B's members and A's plot points
            for sa, q in on_a.items():  # B's attack: A's members and B's plot points
                end = (sa[0], sa[1], sb[2], sb[3], sb[4], sa[5])
                both[end] = both.get(end, 0) + p * q
        return den_a * den_b, both
    second = "b" if first == "a" else "a"
    den1, mids = _attack(fight, first, state)
    seconds = {mid: _attack(fight, second, mid) for mid in mids
               if outcome(fight, mid) is None}
    den2 = math.lcm(*(den for den, _ in seconds.values())) if seconds else 1
    out: dict[State, int] = {}
    for mid, p in mids.items():
        if mid not in seconds:
            out[mid] = out.get(mid, 0) + p * den2
            continue
        den, ends = seconds[mid]
        factor = p * (den2 // den)
        for end, q in ends.items():
            out[end] = out.get(end, 0) + factor * q
    return den1 * den2, out


def losses(state: State) -> dict[str, int]:
    return {"a": len(state[0]), "b": len(state[2])}


def first_chance(fight: Fight, ties: str = "again") -> Fraction:
    """Chance that side A wins the initiative roll-off: each unit rolls its quality dice
    and assets (source: Part II, Initiative). A tie is rolled again (``ties="again"``),
    or goes to Side A or Side B (``"a"``, ``"b"``) (Rulings: initiative ties)."""
    a = pool_totals(tuple(sorted(fight.a.quality + fight.a.assets, reverse=True)))
    b = pool_totals(tuple(sorted(fight.b.quality + fight.b.assets, reverse=True)))
    wins = sum(wa * wb for ta, wa in a.items() for tb, wb in b.items() if ta > tb)
    tied = sum(wa * b.get(ta, 0) for ta, wa in a.items())
    total = sum(a.values()) * sum(b.values())
    if ties == "again":
        return Fraction(wins, total - tied)
    return Fraction(wins + (tied if ties == "a" else 0), total)


@dataclass(frozen=True)
class Firefight:
    """The fight with ``first`` ("a", "b" or :data:`AT_ONCE`) acting first in every round:
    the one fight interface (:class:`rules_core.solver.Fight`). Who goes first is rolled
    once, before the fight, so the whole answer mixes the two (:func:`solver.mix`)."""

    fight: Fight
    first: str
    outcome_order: tuple[str, ...] = OUTCOMES

    def start(self) -> State:
        return START

    def step(self, state: State) -> solver.Moves:
        """The round's moves over their least common denominator (as
        :func:`solver.whole_moves` gives them), reduced once, not move by move."""
        denominator, counts = step(self.fight, self.first, state)
        shared = math.gcd(denominator, *counts.values())
        return denominator // shared, tuple((s, w // shared) for s, w in counts.items() if w)

    def outcome(self, state: State) -> str | None:
        if len(state[0]) < len(self.fight.a.quality) and len(state[2]) < len(self.fight.b.quality):
            return None  # the common case, checked first: called for every move
        return outcome(self.fight, state)

    def losses(self, state: State) -> dict[str, int]:
        return losses(state)

    def sample(self, state: State, dice: solver.Dice) -> tuple[State, str]:
        state, line = play_round(self.fight, self.first, state, dice)
        return state, f"{line} {standing_words(self.fight, state)}"


def standing_words(fight: Fight, state: State) -> str:
    """Each side's members still standing (their quality dice) and its injury."""
    parts = []
    for side in "ab":
        lost, injury = _side_state(side, state)
        left = fight.unit(side).standing(lost)
        words = f"{SIDE_NAMES[side]} {names(list(left))}" if left else f"{SIDE_NAMES[side]} nobody"
        parts.append(words + (f" (d{injury} injury)" if injury else ""))
    return "Standing: " + "; ".join(parts) + "."


# ---- real dice ------------------------------------------------------------------------

def play_attack(fight: Fight, side: str, state: State, dice: solver.Dice) -> tuple[State, str]:
    """One attack with real dice: both pools rolled, the effect dice assigned by
    :func:`rules_core.cortex.effect.assign` (the rule the odds count)."""
    other = "b" if side == "a" else "a"
    attack_pool, defence_pool = fight.pools(side, state)
    dice.label = f"R{dice.round} {SIDE_NAMES[side]}"
    att = roll_pool(attack_pool, dice)  # type: ignore[arg-type]  # Dice rolls as Random does
    dice.label = f"R{dice.round} {SIDE_NAMES[other]}"
    dfn = roll_pool(defence_pool, dice)  # type: ignore[arg-type]
    margin = att.total - dfn.total
    effect = effect_dice(att.remaining, margin, False, fight.limit)
    head = (f"{SIDE_NAMES[side]} rolls {names(list(attack_pool))} for {att.total} against "
            f"{names(list(defence_pool))} for {dfn.total}")
    if not effect:
        return state, head + ": no harm."
    lost, injury = _side_state(other, state)
    target = fight.unit(other)
    keep = len(target.standing(lost)) if fight.rules is Rules.PART2 else MAX_EFFECT_DICE
    with_point = effect_dice(att.remaining, margin, True, fight.limit)
    paid = spends(fight, side, state, effect[:keep], with_point[:keep])
    without = effect
    if paid:
        effect, state = with_point, _spend_one(side, state)
    done = assign(effect, target.standing(lost), injury or None, fight.rules,
                  fight.carry_surplus, target.highest_first)
    nxt = _with_side(other, state, _out(lost, done.taken_out), done.injury or 0)
    what = (f"takes out {len(done.taken_out)} ({names(list(done.taken_out))})"
            if done.taken_out else "takes out nobody")
    if done.injury:
        what += f", {SIDE_NAMES[other]} carries a d{done.injury} injury"
    point = ("" if not paid else " (one bought with a plot point)" if effect != without
             else " (a plot point paid, with no die left to add)")
    return nxt, (f"{head}: wins by {margin}, effect dice {names(list(effect))}{point}, "
                 f"{what}.")


def play_round(fight: Fight, first: str, state: State, dice: solver.Dice) -> tuple[State, str]:
    """One round with real dice, in the same order as :func:`step`."""
    if first == AT_ONCE:
        on_b, one = play_attack(fight, "a", state, dice)
        on_a, two = play_attack(fight, "b", state, dice)
        both = (on_a[0], on_a[1], on_b[2], on_b[3], on_b[4], on_a[5])
        return both, f"{one} At the same time: {two}"
    second = "b" if first == "a" else "a"
    state, one = play_attack(fight, first, state, dice)
    if outcome(fight, state) is not None:
        return state, one
    state, two = play_attack(fight, second, state, dice)
    return state, f"{one} {two}"


# ---- how a fight is answered (rules_core.cascade) ------------------------------------

#: with plot points, (ways A can stand x ways B can stand, see :func:`standings`) x (A's
#: points + 1) x (B's points + 1) past this and the exact walk is not tried: the states,
#: and the attacks worked out for each before the work budget below is counted, grow with
#: each factor; 80 lets the page's starting fight (4 v 5) take a point a side exactly
PLOT_BUDGET = 80
#: the ways both units can stand (:func:`standings`) past which the exact walk is not
#: tried: lowest first gives at most 6 x 6; highest first up to 47 x 47 for six mixed
#: dice a side, each way its own pools to work out (d8 d8 d6 d6 against d10 d8 d6 d6 d6
#: is 8 x 15: walked exactly)
STANDING_BUDGET = 120
#: the exact walk's work budget per round of the cap (moves x 64-bit words of the exact
#: masses, which grow round by round): the page's starting fight needs about 4.1 million
#: at a cap of 100 and is exact; 6 d12 members a side with assets, armor and cover need
#: 14.6 million by round 20 (benchmarks/site_speed.py)
COST_PER_ROUND = 120_000
#: the pruned walk's budget at a round cap of 20 (moves followed, and the states whose
#: round is built, each counted as BUILD_WORK moves: building one works out its pools'
#: contests), about half a second of CPython; three times it at 100
MAX_PRUNED_WORK, BUILD_WORK = 120_000, 10
#: fights one simulation step plays (a short run, so that the first answer comes soon
#: while each state's round is still being built the first time it is met), the most a
#: simulation plays, and the most rounds
SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS = 10, 250_000, 500_000


def standings(unit: Unit) -> int:
    """The ways ``unit`` can stand with someone left: how many members it has lost when
    they fall lowest first, which of them (dice of one size alike) when each die takes
    the best member it reaches."""
    quality = list(unit.quality)
    if not unit.highest_first:
        return len(quality)
    return math.prod(quality.count(q) + 1 for q in set(quality)) - 1


def past_exact(fight: Fight) -> str:
    """Why the exact walk is not tried for this fight ("" when it is)."""
    ways = (standings(fight.a), standings(fight.b))
    points = (fight.a.plot_points, fight.b.plot_points)
    load = ways[0] * ways[1] * (points[0] + 1) * (points[1] + 1)
    if any(points) and load > PLOT_BUDGET:
        return (f"With plot points, the ways the units can stand ({ways[0]} x {ways[1]}) "
                f"times each side's plot points plus one ({points[0] + 1} x {points[1] + 1}) "
                f"come to {load}, past the {PLOT_BUDGET} the exact walk follows in time")
    if load > STANDING_BUDGET:
        return (f"When each die takes the best member it reaches, the ways the units can "
                f"stand ({ways[0]} x {ways[1]}) come to {load}, past the {STANDING_BUDGET} "
                "the exact walk follows in time")
    return ""


def cascade(fight: Fight, orders: list[tuple[str, Fraction]], max_rounds: int) -> Cascade:
    """How a firefight is answered (``orders``: who acts first in every round, with its
    chance: one order, or the two a roll-off chooses between): the exact walk within
    :data:`COST_PER_ROUND` unless :func:`past_exact` says otherwise, the pruned walk
    within :data:`MAX_PRUNED_WORK`, then a simulation
    (:func:`rules_core.cascade.by_steps`)."""
    untried = past_exact(fight)
    exact = None if untried else {"max_cost": COST_PER_ROUND * max_rounds}
    parts = [(w, Firefight(fight, first)) for first, w in orders]
    return by_steps(parts, max_rounds, exact=exact,
                    pruned_work=solver.scaled_budget(MAX_PRUNED_WORK, max_rounds),
                    build_work=BUILD_WORK, untried=untried, batch=SIM_BATCH,
                    max_fights=SIM_MAX_FIGHTS, max_work=SIM_MAX_ROUNDS)
