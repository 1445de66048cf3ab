"""One SUCS turn (source: SUCS, "Order of Play", "Actions", the attack paragraph,
"Suppressed Units", "Close Combat (melee)"): the units and the readings, and the walk
through a turn's activations that :mod:`rules_core.sucs.fight` makes one round of the
whole fight.

A turn: the initiative winner activates a unit, then the sides alternate; a side with
more units activates its surplus at the end. An activated unit first deals with its
suppression markers (as the chosen reading says), then attacks the enemy it is most
likely to destroy (an automatic weapon takes the next best too, one roll each).

Suppression markers come from two places: a hit whose damage equals the armor with a d6
of 1-3, and (the rule the single-attack calculator cannot show) every **second** attack
roll the unit survives that might possibly have damaged it. In melee the unit attacked
strikes back if it survives; the return strike is not an attack, so it never counts
towards the two rolls, and it puts a marker on the striker.

Every attack goes through a :data:`Resolver`: :func:`exact_resolver` gives every result
with its weight (the fight's cached odds), a real-dice resolver one result per attack, so
the odds and a played fight walk the same code. Every choice a side makes depends only
on the units' stats and states, never on their place in the list, so identical units in
the same state are interchangeable and the fight may merge them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, Literal, Protocol, get_args, get_type_hints

from rules_core.solver import Action
from rules_core.sucs import account
from rules_core.sucs.attack import AttackSpec
from rules_core.sucs.tables import MELEE_PENALTY, ROLLS_TO_SUPPRESS

#: unit state: None (destroyed) or (suppression markers, threatening rolls survived 0/1)
UnitState = tuple[int, int] | None
Side = tuple[UnitState, ...]
#: the fight between turns: (side A, side B)
State = tuple[Side, Side]
#: an attack event: (outcome, whether an attack roll was made: False when a stealthy
#: target was not found)
Event = tuple[str, bool]
#: one resolved attack for the walk: (event, weight, sixes in the weight's denominator,
#: the dice and words for the account, None when exact)
Resolved = tuple[Event, int, int, "account.Rolled | None"]
#: one attack's odds as the fight caches them: (events as (event, ways, sixes), chance
#: to destroy, can hurt at all, might possibly damage)
AttackOdds = tuple[tuple[tuple[Event, int, int], ...], Fraction, bool, bool]
#: paths through a turn: state -> (weight, sixes in its denominator, the account's actions)
Paths = dict[State, tuple[int, int, tuple[Action, ...]]]

FRESH: tuple[int, int] = (0, 0)
A_WINS = "Side A wins"
B_WINS = "Side B wins"


@dataclass(frozen=True)
class Fighter:
    """One unit's fighting numbers. Every field but the name is part of the unit's
    identity (:attr:`stats`): a field added here is compared with no other edit."""

    #: what the account calls the unit; not part of its identity (``identity`` False)
    name: str = field(metadata={"identity": False})
    quality: int = 3
    attack: int = 1
    targets: int = 1        # automatic fire: units one attack may hit
    armor: int = 0
    cover: int = 0
    dug_in: bool = False
    stealthy: bool = False
    out_of_command: bool = False   # beyond its commanders' range: target number +OUT_OF_COMMAND
    attack_support: bool = False   # +SUPPORT_BONUS attack from a support action
    armor_support: bool = False    # +SUPPORT_BONUS armor from a support action
    one_action: bool = False       # its army has lost every commander: one action a turn
    #: one of its army's commanders: when every one is destroyed, the army's units act
    #: once a turn and out of command (:meth:`Table.leaderless`)
    commander: bool = False
    #: a situational modifier to every 2d6 attack roll (and return strike) it makes
    roll_modifier: int = 0
    #: its other weapons, each (attack, units one attack may hit): one weapon a turn
    #: (source: Actions, attack; Unit Costs), chosen as :attr:`Rules.weapon_choice` says
    alt_weapons: tuple[tuple[int, int], ...] = ()

    @property
    def stats(self) -> tuple[Any, ...]:
        """The unit's identity: every field that is not marked ``identity`` False, in
        declaration order (a flag as 0 or 1). Two units with the same stats fight alike,
        so the fight merges them (:meth:`rules_core.sucs.fight.Fight.canonical`)."""
        return tuple(v if isinstance(v := getattr(self, name), tuple) else int(v)
                     for name in IDENTITY)

    def weapon(self, w: int) -> tuple[int, int]:
        """Weapon ``w`` as (attack, units hit): 0 the main weapon, then the others."""
        return (self.attack, self.targets) if w == 0 else self.alt_weapons[w - 1]

    def weapon_words(self, w: int) -> str:
        """Weapon ``w`` for the account: "main weapon (attack 3)", "weapon 2 (attack 1x2)"."""
        attack, hits = self.weapon(w)
        return (("main weapon" if w == 0 else f"weapon {w + 1}")
                + f" (attack {attack}{f'x{hits}' if hits > 1 else ''})")


#: the readings a table may choose (see the Rulings page): each a closed set of words,
#: shared by :class:`Rules`, the turn walk and every calculator's form (the words of a
#: form's choice are these: tests/rules_core/test_fight_identity.py), so that mypy sees a
#: misspelled one and :class:`Rules` refuses one at run time
Suppression = Literal["reorganize", "penalty"]
Ties = Literal["reroll", "a", "b"]
First = Literal["roll", "a", "b"]
MeleeSuppressed = Literal["attack", "reorganize"]
Targeting = Literal["likeliest", "list"]
NoCommander = Literal["organized", "leaderless"]
Order = Literal["least_suppressed", "list", "likeliest"]
WeaponChoice = Literal["best", "fallback"]


@dataclass(frozen=True)
class Rules:
    """The readings the fight is played under (see the Rulings page)."""

    armor_modifies_roll: bool = True
    bonus_from_target_number: bool = False
    #: "reorganize": markers come off before the unit may attack; "penalty": one comes
    #: off and the unit attacks at -1 per marker left
    suppression: Suppression = "reorganize"
    two_roll_rule: bool = True
    #: initiative ties: "reroll", or the side that wins them ("a" / "b")
    ties: Ties = "reroll"
    #: who acts first each turn: "roll" (the initiative roll), or always side "a" / "b"
    first: First = "roll"
    melee: bool = False
    #: a suppressed unit in melee under the "reorganize" reading: "attack" (as the melee
    #: rule reads: it reorganizes one marker, then attacks at -MELEE_PENALTY while still
    #: suppressed) or "reorganize" (markers first, as outside melee)
    melee_suppressed: MeleeSuppressed = "attack"
    #: a still-suppressed unit whose attack cannot hurt reorganizes again instead of
    #: attacking (the source is silent; off by default)
    hopeless_reorganizes: bool = False
    #: whom a unit fires at: "likeliest" (the enemy it is likeliest to destroy) or "list"
    #: (the first enemy left in the enemy's list order); either way the most suppressed of
    #: identical units first
    targeting: Targeting = "likeliest"
    #: an army that never had a commander (the source expects at least one): "organized"
    #: (two actions, as if its commanders stood) or "leaderless" (from the start as an army
    #: that has lost them all: one action a turn, out of command)
    no_commander: NoCommander = "organized"
    #: the order a side activates its units in each turn (the source lets the player
    #: choose): "least_suppressed" (its kinds in list order, the least suppressed of a
    #: kind first), "list" (list order, whatever the markers) or "likeliest" (the unit
    #: likeliest to destroy the enemy it would attack first; ties as "least_suppressed")
    order: Order = "least_suppressed"
    #: which weapon a unit with more than one uses for its attack (the source: one weapon
    #: a turn, the player's choice): "best" (the weapon whose attack is expected to destroy
    #: the most enemies; ties to the main weapon, then the order listed) or "fallback" (the
    #: main weapon, another only when the main one cannot hurt any enemy standing)
    weapon_choice: WeaponChoice = "best"

    def __post_init__(self) -> None:
        for name, words in READINGS.items():
            value = getattr(self, name)
            if value not in words:
                raise ValueError(f"Rules.{name}: {value!r} is not a reading; one of {words}")


#: every :class:`Rules` field whose type is a set of words -> those words
READINGS: dict[str, tuple[str, ...]] = {
    name: get_args(kind) for name, kind in get_type_hints(Rules).items() if get_args(kind)}
#: the :class:`Fighter` fields that make a unit's identity (:attr:`Fighter.stats`)
IDENTITY: tuple[str, ...] = tuple(f.name for f in fields(Fighter)
                                  if f.metadata.get("identity", True))


class Table(Protocol):
    """What a turn needs of the fight (:class:`rules_core.sucs.fight.Fight`): both sides,
    the readings, each attack's odds and where identical units stand in the order."""

    @property
    def units(self) -> Mapping[str, tuple[Fighter, ...]]: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def memo(self) -> dict[Any, Paths]:
        """The rest of a turn from (state, units to act, side, charge), when exact."""

    @property
    def activations(self) -> Activations:
        """What :func:`spread_turn` keeps between turns."""

    @property
    def target_memo(self) -> dict[Any, Any]:
        """The enemies each unit picks, by (side, unit, modifier, the enemy side's state):
        the choice depends on nothing else."""

    def spec(self, side: str, i: int, t: int, bonus: int, lost: bool = False,
             weapon: int = 0) -> AttackSpec:
        """Unit ``side`` i attacking enemy t with roll modifier ``bonus`` and its weapon
        ``weapon``; ``lost``: its army has lost every commander (out of command)."""

    def odds(self, side: str, i: int, t: int, bonus: int, lost: bool = False,
             weapon: int = 0) -> AttackOdds: ...

    def group_rank(self, side: str, i: int) -> int: ...

    def label(self, side: str, i: int) -> str:
        """Unit ``side`` i's name in the account: its side's and its own, numbered."""

    def leaderless(self, state: State, side: str) -> bool:
        """Whether ``side`` has lost every commander it had in ``state`` (source: Special
        rules for commanders: then one action a turn, and beyond every commander's range)."""

    def spend(self, work: int) -> None:
        """Count ``work`` paths built by the exact walk against the fight's budget (raises
        :class:`rules_core.solver.TooLarge` past it)."""


#: resolves one attack (fight, side, i, target, bonus, leaderless, weapon) -> the
#: possible results
Resolver = Callable[[Table, str, int, int, int, bool, int], list[Resolved]]


def exact_resolver(fight: Table, side: str, i: int, t: int, bonus: int,
                   lost: bool = False, weapon: int = 0) -> list[Resolved]:
    """Every result of the attack with its weight: the fight's cached odds."""
    return [(e, w, s, None) for e, w, s in fight.odds(side, i, t, bonus, lost, weapon)[0]]


def standing_key(unit: UnitState) -> tuple[int, int, int]:
    """Units in order: standing before destroyed, the fewest markers first."""
    return (1, 0, 0) if unit is None else (0, *unit)


def _focus(unit: UnitState) -> tuple[int, int]:
    assert unit is not None
    return (-unit[0], -unit[1])


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


def _set(state: State, side: str, i: int, unit: UnitState) -> State:
    a, b = state
    if side == "a":
        return (a[:i] + (unit,) + a[i + 1:], b)
    return (a, b[:i] + (unit,) + b[i + 1:])


def _unit(state: State, side: str, i: int) -> UnitState:
    return state[0 if side == "a" else 1][i]


def penalty(markers: int, rules: Rules, melee: bool) -> int:
    """The modifier on an attack or return strike by a unit with ``markers`` markers
    (source: Suppressed Units; Close Combat: -1 when suppressed in melee)."""
    if rules.suppression == "penalty":
        return -markers
    return -MELEE_PENALTY if melee and markers else 0


def apply_hit(state: State, side: str, i: int, event: Event, threat: bool, counts: bool,
              rules: Rules) -> State:
    """What one attack's outcome does to the unit hit: destroyed, a marker, or (for a
    roll that might possibly have damaged it) one towards the pair that suppresses."""
    outcome, rolled = event
    unit = _unit(state, side, i)
    assert unit is not None
    if outcome == "destroyed":
        return _set(state, side, i, None)
    markers, near = unit
    if outcome == "suppressed":
        return _set(state, side, i, (markers + 1, near))
    if counts and rolled and threat and rules.two_roll_rule:
        near += 1
        if near == ROLLS_TO_SUPPRESS:
            markers, near = markers + 1, 0
    return _set(state, side, i, (markers, near))


#: 6^k, looked up rather than computed on every merge of two paths
_POW6 = [6 ** k for k in range(64)]


def pow6(k: int) -> int:
    """6^k."""
    return _POW6[k] if k < len(_POW6) else 6 ** k


def _add(out: Paths, state: State, w: int, sixes: int, log: tuple[Action, ...]) -> None:
    old = out.get(state)
    if old is None:
        out[state] = (w, sixes, log)
        return
    w0, s0, log0 = old
    if s0 == sixes:
        out[state] = (w0 + w, s0, log0)
    elif s0 > sixes:
        out[state] = (w0 + w * pow6(s0 - sixes), s0, log0)
    else:
        out[state] = (w0 * pow6(sixes - s0) + w, sixes, log0)


def strike(fight: Table, paths: Paths, side: str, i: int, t: int, counts: bool,
           melee_strike: bool, resolver: Resolver, label: str, weapon: int = 0) -> Paths:
    """Unit ``side`` i rolls against enemy t with its weapon ``weapon`` on every path
    where both still stand."""
    enemy = other_side(side)
    out: Paths = {}
    for s, (w, sx, log) in paths.items():
        me, them = _unit(s, side, i), _unit(s, enemy, t)
        if me is None or them is None:
            _add(out, s, w, sx, log)
            continue
        bonus = penalty(me[0], fight.rules, melee_strike) if melee_strike else \
            _attack_bonus(fight, me[0])
        lost = fight.leaderless(s, side)
        threat = fight.odds(side, i, t, bonus, lost, weapon)[3]
        results = resolver(fight, side, i, t, bonus, lost, weapon)
        fight.spend(len(results))
        unit = fight.units[side][i]
        with_weapon = unit.weapon_words(weapon) if unit.alt_weapons else ""
        for event, ways, sixes, rolled in results:
            s2 = apply_hit(s, enemy, t, event, threat, counts, fight.rules)
            told: tuple[Action, ...] = ()
            if rolled is not None:
                towards = 0
                if event[0] == "no_effect" and _unit(s2, enemy, t) != them:
                    towards = 2 if (_unit(s2, enemy, t) or (0, 1))[1] == 0 else 1
                told = (account.attack(side, fight.label(side, i), label,
                                       fight.label(enemy, t), rolled, towards, with_weapon),)
            _add(out, s2, w * ways, sx + sixes, log + told)
    return out


def _attack_bonus(fight: Table, markers: int) -> int:
    return penalty(markers, fight.rules, fight.rules.melee)


def choose_targets(fight: Table, state: State, side: str, i: int, bonus: int,
                   weapon: int = 0) -> list[int]:
    """The enemies this unit attacks with its weapon ``weapon``: the ones it is most
    likely to destroy, as many as the weapon may hit; ties go to the unit already hurt the
    most (the most markers, then a roll towards the next one), so fire is concentrated."""
    enemy = other_side(side)
    them = state[0 if enemy == "a" else 1]
    lost = fight.leaderless(state, side)
    key = (side, i, bonus, lost, them, weapon)
    known = fight.target_memo.get(key)
    if known is not None:
        return known
    alive = [t for t, u in enumerate(them) if u is not None]
    likeliest = fight.rules.targeting == "likeliest"
    ranked = sorted(alive, key=lambda t: (-fight.odds(side, i, t, bonus, lost, weapon)[1]
                                          if likeliest else 0,
                                          fight.group_rank(enemy, t),
                                          _focus(them[t]), t))
    if len(fight.target_memo) > MEMO_LIMIT:
        fight.target_memo.clear()
    fight.target_memo[key] = chosen = ranked[:fight.units[side][i].weapon(weapon)[1]]
    return chosen


#: what choosing among a unit's weapons counts against the fight's budget, per weapon and
#: enemy weighed (:func:`choose_attack`); and the most choices a fight keeps before it
#: forgets them all (a simulation of thousands of fights meets many enemy sides)
AIM_WORK = 3
MEMO_LIMIT = 200_000


def choose_attack(fight: Table, state: State, side: str, i: int, bonus: int
                  ) -> tuple[int, list[int]]:
    """(the weapon this unit attacks with, its targets: :func:`choose_targets`). A unit
    with one weapon uses it; else as :attr:`Rules.weapon_choice` says: "best", the weapon
    whose targets it is expected to destroy the most of (the sum of each target's chance;
    ties to the weapon listed first), or "fallback", the main weapon unless it cannot hurt
    any enemy standing, then the first other weapon that can."""
    unit = fight.units[side][i]
    if not unit.alt_weapons:
        return 0, choose_targets(fight, state, side, i, bonus)
    them = state[1 if side == "a" else 0]
    lost = fight.leaderless(state, side)
    key = ("weapon", side, i, bonus, lost, them)
    memo = fight.target_memo
    known = memo.get(key)
    if known is not None:
        return known  # type: ignore[no-any-return]
    alive = [t for t, u in enumerate(them) if u is not None]
    weapons = range(len(unit.alt_weapons) + 1)
    fight.spend(AIM_WORK * len(weapons) * len(alive))
    if fight.rules.weapon_choice == "fallback":
        usable = [w for w in weapons
                  if any(fight.odds(side, i, t, bonus, lost, w)[2] for t in alive)]
        best = usable[0] if usable else 0
        best_targets = choose_targets(fight, state, side, i, bonus, best)
    else:
        best, best_targets, most = 0, [], Fraction(-1)
        for w in weapons:
            targets = choose_targets(fight, state, side, i, bonus, w)
            expected = sum((fight.odds(side, i, t, bonus, lost, w)[1] for t in targets),
                           Fraction(0))
            if expected > most:
                best, best_targets, most = w, targets, expected
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    memo[key] = chosen = (best, best_targets)
    return chosen


def reorganized(markers: int, rules: Rules, one_action: bool = False) -> tuple[int, bool]:
    """(markers a unit with ``markers`` reorganizes away first, whether it may attack after)
    under the readings: two actions, one of them the attack (source: Order of Play,
    Suppressed Units; Close Combat: suppressed units in melee attack at -1). A unit with
    one action (its army's commanders all lost) either reorganizes one marker or, with
    none, attacks (source: Special rules for commanders: a suppressed unit's only action
    is to become unsuppressed)."""
    if one_action:
        return min(markers, 1), markers == 0
    if rules.suppression == "penalty" or (rules.melee and rules.melee_suppressed == "attack"):
        return min(markers, 1), True
    return min(markers, 2), markers < 2


def activate(fight: Table, state: State, side: str, i: int, charge: bool,
             resolver: Resolver) -> Paths:
    """One activation of unit ``side`` i from ``state``: reorganize as the reading says,
    then attack; in melee each attack draws return strikes (source: Order of Play,
    Actions, Suppressed Units, Close Combat)."""
    rules = fight.rules
    markers, near = _unit(state, side, i)  # type: ignore[misc]
    lost = fight.leaderless(state, side)
    one_action = fight.units[side][i].one_action or lost
    # a unit with one action that charges has spent it on the move into contact: with no
    # action left its attack fails without a roll, and the enemies it charged strike back
    # (source: Close Combat; see the Rulings page)
    spent = charge and one_action
    removed, attacks = (0, True) if spent else reorganized(markers, rules, one_action)
    markers -= removed
    bonus = _attack_bonus(fight, markers)
    state = _set(state, side, i, (markers, near))
    weapon, targets = choose_attack(fight, state, side, i, bonus) if attacks else (0, [])
    if targets and markers and not spent and rules.hopeless_reorganizes and \
            not fight.odds(side, i, targets[0], bonus, lost, weapon)[2]:
        markers, removed, targets = markers - 1, removed + 1, []  # no hope: reorganize again
        state = _set(state, side, i, (markers, near))
    note = (account.reorganizes(side, fight.label(side, i), removed),) if removed else ()
    if spent and targets:
        targets = targets[:1]  # one failed attack, whatever the weapon
        note = (account.charge_spent(side, fight.label(side, i)),)
    paths: Paths = {state: (1, 0, note)}
    enemy = other_side(side)
    for t in targets:
        after = paths if spent else strike(fight, paths, side, i, t, True, False, resolver,
                                           account.MELEE_ATTACKS if rules.melee
                                           else account.FIRES, weapon)
        if not rules.melee:
            paths = after
            continue
        paths = {}
        for s, (w, sx, log) in after.items():
            back = [e for e, u in enumerate(s[0 if enemy == "a" else 1]) if u is not None] \
                if charge else [t]
            part: Paths = {s: (w, sx, log)}
            for e in back:
                part = return_strike(fight, part, side, i, e, resolver)
            for s2, (w2, sx2, log2) in part.items():
                _add(paths, s2, w2, sx2, log2)
    return paths


def return_strike(fight: Table, paths: Paths, side: str, i: int, e: int,
                  resolver: Resolver) -> Paths:
    """A surviving enemy in contact strikes back and takes a marker for it; the strike
    is not an attack (source: Actions, melee; Close Combat). A strike that cannot hurt
    is not worth the marker and is not made."""
    enemy = other_side(side)
    ready: Paths = {}
    for s, (w, sx, log) in paths.items():
        unit = _unit(s, enemy, e)
        if unit is None or _unit(s, side, i) is None or not fight.odds(
                enemy, e, i, penalty(unit[0], fight.rules, True), fight.leaderless(s, enemy))[2]:
            _add(ready, s, w, sx, log)
            continue
        hit = strike(fight, {s: (w, sx, log)}, enemy, e, i, False, True, resolver,
                     account.STRIKES_BACK)
        for s2, (w2, sx2, log2) in hit.items():
            _add(ready, _set(s2, enemy, e, (unit[0] + 1, unit[1])), w2, sx2, log2)
    return ready


def queues(fight: Table, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's units standing at the start of the turn, in the order they activate
    (:attr:`Rules.order`): list order of their kind, the least suppressed first; or list
    order alone; or the likeliest to destroy an enemy first (:func:`kill_chance`), ties as
    the first."""
    out = []
    order = fight.rules.order
    for side, units in zip(("a", "b"), state):
        alive = [i for i, u in enumerate(units) if u is not None]
        if order == "list":
            out.append(tuple(alive))
            continue
        out.append(tuple(sorted(alive, key=lambda i: (
            -kill_chance(fight, state, side, i) if order == "likeliest" else 0,
            fight.group_rank(side, i), standing_key(units[i]), i))))
    return out[0], out[1]


def kill_chance(fight: Table, state: State, side: str, i: int) -> Fraction:
    """The chance that unit ``side`` i's attack, were it to act first in ``state``,
    destroys the first enemy it would aim at (0 when it would not attack: it must
    reorganize, or no enemy stands)."""
    markers = _unit(state, side, i)[0]  # type: ignore[index]
    lost = fight.leaderless(state, side)
    one_action = fight.units[side][i].one_action or lost
    removed, attacks = reorganized(markers, fight.rules, one_action)
    if not attacks:
        return Fraction(0)
    bonus = _attack_bonus(fight, markers - removed)
    weapon, targets = choose_attack(fight, state, side, i, bonus)
    return fight.odds(side, i, targets[0], bonus, lost, weapon)[1] if targets else Fraction(0)


def turn(fight: Table, state: State, first: str, charge: bool, resolver: Resolver) -> Paths:
    """One whole turn after the initiative: the sides take turns activating a unit that
    has not acted yet, starting with ``first``; a side with none left passes, so the
    side with more units ends with its surplus (source: Order of Play)."""
    memo = fight.memo if resolver is exact_resolver else None
    qa, qb = queues(fight, state)
    return _rest(fight, state, qa, qb, first, charge, resolver, memo)


def _rest(fight: Table, state: State, qa: tuple[int, ...], qb: tuple[int, ...], side: str,
          charge: bool, resolver: Resolver, memo: dict[Any, Paths] | None) -> Paths:
    """The rest of a turn from ``state``, units ``qa`` / ``qb`` still to act, ``side`` to
    move (cached when exact: many turns pass through the same states)."""
    qa = tuple(i for i in qa if state[0][i] is not None)
    qb = tuple(i for i in qb if state[1][i] is not None)
    if not (qa or qb) or winner(state) is not None:
        return {state: (1, 0, ())}
    if not (qa if side == "a" else qb):
        side = other_side(side)
    key = (state, qa, qb, side, charge)
    if memo is not None and key in memo:
        return memo[key]
    i = (qa if side == "a" else qb)[0]
    qa, qb = (qa[1:], qb) if side == "a" else (qa, qb[1:])
    out: Paths = {}
    for s2, (w2, sx2, log2) in activate(fight, state, side, i, charge and side == "a",
                                        resolver).items():
        rest = _rest(fight, s2, qa, qb, other_side(side), charge, resolver, memo)
        fight.spend(len(rest))
        for s3, (w3, sx3, log3) in rest.items():
            _add(out, s3, w2 * w3, sx2 + sx3, log2 + log3)
    if memo is not None:
        memo[key] = out
    return out


#: what :class:`Activations` counts against the fight's budget besides each move the
#: walk follows (one unit, about a microsecond of CPython): each activation walked anew
#: (beyond the paths it builds, counted as it builds them) and each of an activation's
#: results numbered for a state, so that a unit of budget costs about the same time
#: whatever the fight (measured over the heaviest inputs the engagement form takes)
ACTIVATION_WORK = 20
RESULT_WORK = 2


class Activations:
    """What :func:`spread_turn` keeps between calls: every state it has met, numbered (a
    small key hashes faster than the nested tuple), with its destroyed units as bit masks
    and whether a side has won; every queue of units still to act, numbered the same way
    (0 the empty one); and each activation's results in floating point, by (state number,
    side, unit, charge): the same activation recurs on many paths.

    An activation reads and changes only the acting unit and the enemy side (and reads
    whether its own army has lost its commanders, which it cannot change while the unit
    acts: a destroyed unit strikes no more), and identical units act alike, so its results
    are also kept by the acting unit's kind and those alone (:meth:`moves_of`): states that
    differ only in the acting side's other units, or in which of two identical units acts,
    share one walk of the activation."""

    def __init__(self) -> None:
        #: every side met, numbered, with its destroyed units as a bit mask and whether it
        #: has none left; (side A's number, side B's) -> state number
        self.side_ids: dict[Side, int] = {}
        self.sides: list[Side] = []
        self.side_dead: list[int] = []
        self.side_gone: list[bool] = []
        self.ids: dict[tuple[int, int], int] = {}
        #: per state number: (state, side A's destroyed units, side B's, a side has won)
        self.info: list[tuple[State, int, int, bool]] = []
        #: per state number: (side A's number, side B's)
        self.halves: list[tuple[int, int]] = []
        #: (side number, unit, the unit's new state) -> the side's number after
        self.changed: dict[tuple[int, int, UnitState], int] = {}
        #: per state number, once asked: (side A's queue number, side B's) at a turn's start
        self.starts: dict[int, tuple[int, int]] = {}
        #: queue number -> the queue; the queue's numbers by queue; per queue number, its
        #: first unit and the number of the rest (-1, 0 for the empty queue)
        self.queues: list[tuple[int, ...]] = [()]
        self.queue_ids: dict[tuple[int, ...], int] = {(): 0}
        self.pops: list[tuple[int, int]] = [(-1, 0)]
        #: (queue number, destroyed units) -> the number of the queue without them
        self.lefts = _Lefts(self)
        #: (state number, side, unit, charge) -> ((state number, chance, side A's destroyed
        #: units after, side B's), ...)
        self.moves: dict[tuple[int, str, int, bool], tuple[tuple[int, float, int, int], ...]] = {}
        #: (side, the unit's kind, charge, its state, its army leaderless, the enemy side's
        #: number) -> ((its state after, the enemy side's number after, chance), ...)
        self.local: dict[tuple[Any, ...], tuple[tuple[UnitState, int, float], ...]] = {}

    def moves_of(self, fight: Table, sid: int, side: str, i: int, charge: bool
                 ) -> tuple[tuple[int, float, int, int], ...]:
        """The results of unit ``side`` i acting from state ``sid``, numbered, with their
        chances in floating point and the destroyed units after (cached by state and by
        what the activation reads)."""
        key = (sid, side, i, charge)
        moves = self.moves.get(key)
        if moves is not None:
            return moves
        state, info = self.info[sid][0], self.info
        own, them = (0, 1) if side == "a" else (1, 0)
        mine, theirs = self.halves[sid][own], self.halves[sid][them]
        local = (side, fight.group_rank(side, i), charge, state[own][i],
                 fight.leaderless(state, side), theirs)
        results = self.local.get(local)
        if results is None:
            fight.spend(ACTIVATION_WORK)
            results = self.local[local] = tuple(
                (s2[own][i], self.side(s2[them]), w / pow6(sx)) for s2, (w, sx, _) in
                activate(fight, state, side, i, charge, exact_resolver).items())
        out = []
        for unit, enemy, p in results:
            after = self.changed.get((mine, i, unit))
            if after is None:
                units = self.sides[mine]
                after = self.changed[mine, i, unit] = self.side(
                    units[:i] + (unit,) + units[i + 1:])
            sid2 = self.pair(after, enemy) if own == 0 else self.pair(enemy, after)
            out.append((sid2, p, info[sid2][1], info[sid2][2]))
        fight.spend(RESULT_WORK * len(out))
        self.moves[key] = moves = tuple(out)
        return moves

    def side(self, units: Side) -> int:
        """The number of one side's units and their states."""
        n = self.side_ids.get(units)
        if n is None:
            n = self.side_ids[units] = len(self.sides)
            self.sides.append(units)
            self.side_dead.append(_dead(units))
            self.side_gone.append(gone(units))
        return n

    def pair(self, a: int, b: int) -> int:
        """The number of the state of sides numbered ``a`` and ``b``."""
        sid = self.ids.get((a, b))
        if sid is None:
            sid = self.ids[a, b] = len(self.info)
            self.info.append(((self.sides[a], self.sides[b]), self.side_dead[a],
                              self.side_dead[b], self.side_gone[a] or self.side_gone[b]))
            self.halves.append((a, b))
        return sid

    def number(self, state: State) -> int:
        """The number of a state."""
        return self.pair(self.side(state[0]), self.side(state[1]))

    def queue(self, units: tuple[int, ...]) -> int:
        """The number of a queue of units still to act."""
        qid = self.queue_ids.get(units)
        if qid is None:
            rest = self.queue(units[1:])
            qid = self.queue_ids[units] = len(self.queues)
            self.queues.append(units)
            self.pops.append((units[0], rest))
        return qid

    def start(self, fight: Table, sid: int) -> tuple[int, int]:
        """Both sides' queues (numbered) at the start of a turn from state ``sid``."""
        known = self.starts.get(sid)
        if known is None:
            qa, qb = queues(fight, self.info[sid][0])
            known = self.starts[sid] = (self.queue(qa), self.queue(qb))
        return known


class _Lefts(dict[tuple[int, int], int]):
    """(queue number, destroyed units) -> the number of the queue without them, found
    when first asked."""

    def __init__(self, known: Activations) -> None:
        super().__init__()
        self.known = known

    def __missing__(self, key: tuple[int, int]) -> int:
        qid, dead = key
        known = self.known
        self[key] = out = known.queue(tuple(i for i in known.queues[qid] if not dead >> i & 1))
        return out


def _dead(units: Side) -> int:
    return sum(1 << i for i, u in enumerate(units) if u is None)


def spread_turn(fight: Table, starts: Mapping[tuple[State, str], float], charge: bool,
                floor: float) -> tuple[dict[State, float], float]:
    """The breadth-first twin of :func:`turn`, for a whole distribution at once: from each
    (state, side to move first) with its chance, every activation of the turn in step
    (paths that reach the same state with the same units still to act merged), in floating
    point, each way the turn can stand dropped as soon as it is less likely than ``floor``.
    Returns the states at the end of the turn with their chances, and the total dropped
    (the bound on the error of every chance computed from them)."""
    known = fight.activations
    info, cache, pops, lefts = known.info, known.moves, known.pops, known.lefts
    #: (state number, side A's queue number, side B's, side to act)
    Key = tuple[int, int, int, str]
    frontier: dict[Key, float] = {}
    for (state, first), mass in starts.items():
        sid = known.number(state)
        key = (sid, *known.start(fight, sid), first)
        frontier[key] = frontier.get(key, 0.0) + mass
    done: dict[int, float] = {}
    dropped = 0.0
    while frontier:
        nxt: defaultdict[Key, float] = defaultdict(float)
        for (sid, qa, qb, side), mass in frontier.items():
            _, dead_a, dead_b, over = info[sid]
            if over or not (qa or qb):
                done[sid] = done.get(sid, 0.0) + mass
                continue
            if side == "a":
                if qa:
                    (i, qa), after = pops[qa], "b"
                else:
                    (i, qb), after, side = pops[qb], "a", "b"
            elif qb:
                (i, qb), after = pops[qb], "a"
            else:
                (i, qa), after, side = pops[qa], "b", "a"
            strikes = charge and side == "a"
            moves = cache.get((sid, side, i, strikes)) or \
                known.moves_of(fight, sid, side, i, strikes)
            fight.spend(len(moves))
            for sid2, p, da, db in moves:
                if da == dead_a and db == dead_b:
                    nxt[sid2, qa, qb, after] += mass * p
                else:
                    nxt[sid2, lefts[qa, da], lefts[qb, db], after] += mass * p
        frontier = {}
        for k2, mass in nxt.items():
            if mass < floor:
                dropped += mass
            else:
                frontier[k2] = mass
    return {info[sid][0]: mass for sid, mass in done.items()}, dropped


def gone(units: Side) -> bool:
    """Whether a side has no unit left (and so has lost)."""
    return units.count(None) == len(units)


def winner(state: State) -> str | None:
    """A side with no unit left has lost."""
    a, b = state
    if gone(b):
        return A_WINS
    if gone(a):
        return B_WINS
    return None


def units_lost(state: State) -> dict[str, int]:
    """Units each side has lost."""
    return {"a": sum(u is None for u in state[0]), "b": sum(u is None for u in state[1])}
