"""Whole SUCS engagements: units trading attacks turn by turn until one side is gone
(source: SUCS, "Order of Play", "Actions", the attack paragraph, "Suppressed Units",
"Close Combat (melee)"): the system's implementation of the one fight interface,
:class:`rules_core.solver.Fight`.

One turn of the fight is one round of the solver: the initiative roll, then the walk
through the turn's activations (:mod:`rules_core.sucs.turn`). Between turns the state is
each unit's markers and whether one roll towards the next marker has landed.

Every attack is resolved by :func:`rules_core.sucs.attack.resolve`: exactly (every face
of 2d6, the d6 and the spotting 2d6, cached per attacker, target and modifier) for the
odds (:meth:`Fight.step`), and with real dice for a played fight (:meth:`Fight.sample`).
Identical units in the same state are interchangeable (every choice depends on the
units' stats and states only), so the exact walk merges them (:meth:`Fight.canonical`).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from rules_core import solver
from rules_core.cascade import Cascade
from rules_core.sucs import account
from rules_core.sucs.attack import AttackSpec, can_damage, resolve
from rules_core.sucs.turn import (
    A_WINS,
    B_WINS,
    Activations,
    AttackOdds,
    Event,
    Fighter,
    Paths,
    Resolved,
    Resolver,
    Rules,
    State,
    Table,
    exact_resolver,
    other_side,
    pow6,
    spread_turn,
    standing_key,
    turn,
    units_lost,
    winner,
)

#: the round state the solver walks: (turn number, capped at 2: turn 1 may be a charge)
Round = tuple[int, State]
OUTCOMES = (A_WINS, B_WINS)
#: the readings a fight is played under unless told otherwise
DEFAULT_RULES = Rules()
#: paths the exact turn walk may build (each attack result on each path, each way a turn
#: goes on) before the fight is refused, at a round cap of 20 or less: under a second of
#: CPython with the solver's share (:func:`limits` scales it for higher caps)
MAX_TURN_WORK = 75_000
#: the solver's work one fight may need, in transitions weighted by the size of the
#: numbers (:func:`plan`), at a round cap of 20 or less
MAX_SOLVER_WORK = 300_000
#: live states one round may hold
MAX_STATES = 8_000
#: a turn the exact walk builds is tried first within these fractions of the budget left
#: (an eighth), so that a long build (a large side's first turn: up to a second and a half)
#: gives way to a first simulated answer when that share is not enough (:func:`built`):
#: at most an eighth more work, where a turn does not fit
TURN_SHARES = (8,)
#: a fight past the exact walk's limits is walked again with the least likely branches
#: pruned (:func:`pruned`), at the solver's floor and answered within its error
PRUNE_FLOOR, MAX_ERROR = solver.PRUNE_FLOOR, solver.MAX_ERROR
#: the pruned walk's budget up to a round cap of 20, in units of about a microsecond of
#: CPython (each move it follows, each result of each attack it walks anew, and more for
#: the costlier steps: :data:`rules_core.sucs.turn.ACTIVATION_WORK`): about 0.5 s, which
#: leaves the exact walk's try before it and a simulation after it within the second; it
#: grows to two and a half times that at 100 (:func:`pruned_limit`)
MAX_PRUNED_WORK = 400_000
#: the turn walk's budget for a fight played with dice, one result per attack (one fight,
#: or a simulation's thousands, whose own budget bounds the time): never reached
UNCOUNTED = 10 ** 15


def pruned_limit(max_rounds: int) -> int:
    """The pruned walk's budget at this round cap: :data:`MAX_PRUNED_WORK` up to
    :data:`solver.BUDGET_ROUNDS`, growing linearly to 2.5 times as much at 100 rounds (one
    unit a side in close combat for 100 turns needs about 490,000, half a second)."""
    return solver.scaled_budget(MAX_PRUNED_WORK, max_rounds, 2.5)


def limits(max_rounds: int) -> tuple[int, int]:
    """(turn walk work, solver work) allowed at this round cap: the base limits up to
    :data:`solver.BUDGET_ROUNDS`, growing linearly to three times as much at 100 rounds."""
    return (solver.scaled_budget(MAX_TURN_WORK, max_rounds),
            solver.scaled_budget(MAX_SOLVER_WORK, max_rounds))


def prunable(found: Plan) -> bool:
    """Whether :func:`pruned` tries the walk, after the exact walk's ``found``: only when
    the exact walk could build at least the first turn."""
    return found.rounds >= 1


def pruned(fight: Fight, max_rounds: int, budget: int, found: Plan
           ) -> tuple[solver.Pruned | None, int]:
    """The fight walked with its least likely branches pruned
    (:func:`solver.solve_pruned`, at :data:`PRUNE_FLOOR`), under a budget of its own, or
    None when it does not fit the budget or drops more than :data:`MAX_ERROR`; and the
    rounds it could give within both (0 when not tried). Not tried when the exact walk's
    plan (``found``) could not build even the first turn: the pruned walk must build every
    turn, and would spend its whole budget to be refused."""
    if not prunable(found):
        return None, 0
    fight.work, fight.max_work = 0, budget
    try:
        odds = solver.solve_pruned(fight, max_rounds=max_rounds, floor=PRUNE_FLOOR,
                                   max_pruned=MAX_ERROR)
    except solver.TooLarge as err:  # past the budget, or dropping more than MAX_ERROR
        return None, err.rounds  # the rounds before stayed within both
    return odds, max_rounds


class Fight:
    """Both sides, the rules, and the per-fight caches of every attack's odds."""

    def __init__(self, a: tuple[Fighter, ...], b: tuple[Fighter, ...],
                 rules: Rules = DEFAULT_RULES, max_work: int = MAX_TURN_WORK,
                 markers: tuple[int, int] = (0, 0),
                 kinds: dict[str, list[Any]] | None = None,
                 names: tuple[str, str] = ("Side A", "Side B")) -> None:
        self.units = {"a": a, "b": b}
        #: each side's name, and each unit's name in the account (:func:`account.labels`)
        self.names = dict(zip("ab", account.sides(*names)))
        self._labels = {s: account.labels(self.names[s], [u.name for u in units])
                        for s, units in self.units.items()}
        #: suppression markers every unit of each side has when the fight starts
        self.markers = markers
        self.rules = rules
        # units of one kind are interchangeable: by default those with the same numbers
        self._groups = {s: _groups(kinds[s] if kinds else [u.stats for u in units])
                        for s, units in self.units.items()}
        # under list order a unit's place decides when it acts: identical units are not
        # interchangeable then
        self._merge = rules.order != "list" and any(
            len(g) > 1 for gs in self._groups.values() for g in gs)
        self._rank = {(s, i): r for s, gs in self._groups.items()
                      for r, g in enumerate(gs) for i in g}
        self._odds: dict[tuple[str, int, int, int, bool, int], AttackOdds] = {}
        #: each side's commanders (:meth:`leaderless`)
        self._leaders = {s: tuple(i for i, u in enumerate(units) if u.commander)
                         for s, units in self.units.items()}
        #: the rest of a turn from (state, activations left, charge), when exact
        self.memo: dict[Any, Paths] = {}
        #: each unit's targets by the enemy side's state (:func:`turn.choose_targets`)
        self.target_memo: dict[Any, Any] = {}
        #: what the pruned walk keeps between turns (:func:`turn.spread_turn`)
        self.activations = Activations()
        #: each round's exact moves, once built (:func:`plan` and the solver share them)
        self._steps: dict[Round, tuple[int, list[tuple[Round, int]]]] = {}
        #: each round's successors that are not over, once found (:func:`plan`)
        self._going_on: dict[Round, frozenset[Round]] = {}
        self._canon: dict[State, State] = {}
        #: paths the exact turn walk has built, and the most it may build
        self.work = 0
        self.max_work = max_work

    # ---- the fight interface ---------------------------------------------------------

    #: the source's unit of time, which the played account uses (:func:`solver.play`)
    round_word = account.TURN

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return OUTCOMES

    def label(self, side: str, i: int) -> str:
        """Unit ``side`` i as the account names it: "Red platoon Rifle squad 2"."""
        return self._labels[side][i]

    def start(self) -> Round:
        """Turn 1, every unit fresh."""
        ma, mb = self.markers
        return (1, (tuple((ma, 0) for _ in self.units["a"]),
                    tuple((mb, 0) for _ in self.units["b"])))

    def outcome(self, rnd: Round) -> str | None:
        """A side with no unit left has lost."""
        return winner(rnd[1])

    def losses(self, rnd: Round) -> dict[str, int]:
        """Units each side has lost."""
        return units_lost(rnd[1])

    def openings(self, n: int) -> tuple[bool, list[tuple[str, Fraction]]]:
        """Turn ``n``'s start: whether it is the charge (a melee's first turn: side A moved
        into contact, so it acts first), and each side that may act first with its chance
        (:func:`initiative` otherwise)."""
        charge = self.rules.melee and n == 1
        return charge, [("a", Fraction(1))] if charge else initiative(self.rules)

    def step(self, rnd: Round) -> tuple[int, list[tuple[Round, int]]]:
        """One turn, exactly, as whole-number weights over one denominator. A melee starts
        with side A charging (it moved into contact, so it acts first)."""
        built = self._steps.get(rnd)
        if built is not None:
            return built
        n, state = rnd
        charge, firsts = self.openings(n)
        # one denominator for the whole turn: the initiative's times 6^(most sixes of a
        # path), so each path's weight is scaled by a power of 6, never divided
        walks = [(pf, turn(self, state, first, charge, exact_resolver)) for first, pf in firsts]
        top = max(sx for _, paths in walks for _, sx, _ in paths.values())
        first_den = math.lcm(*(pf.denominator for pf, _ in walks))
        out: dict[Round, int] = {}
        for pf, paths in walks:
            scale = pf.numerator * (first_den // pf.denominator)
            for s, (w, sx, _) in paths.items():
                key = (2, self.canonical(s))
                out[key] = out.get(key, 0) + scale * w * pow6(top - sx)
        self._steps[rnd] = built = (first_den * 6 ** top, list(out.items()))
        return built

    def spread(self, live: dict[Round, float], floor: float) -> tuple[dict[Round, float], float]:
        """One turn from every live round at once, in floating point, dropping each way the
        turn can stand that is less likely than ``floor`` (:func:`solver.solve_pruned`):
        (the rounds after it with their chances, the chance dropped)."""
        starts: dict[tuple[State, str], float] = {}
        charge = False
        for (n, state), mass in live.items():
            charge, firsts = self.openings(n)  # only the start is turn 1
            for first, pf in firsts:
                starts[state, first] = starts.get((state, first), 0.0) + mass * float(pf)
        done, dropped = spread_turn(self, starts, charge, floor)
        out: dict[Round, float] = {}
        for state, mass in done.items():
            rnd = (2, self.canonical(state))
            out[rnd] = out.get(rnd, 0.0) + mass
        for rnd in [k for k, mass in out.items() if mass < floor]:
            dropped += out.pop(rnd)
        return out, dropped

    def going_on(self, rnd: Round) -> frozenset[Round]:
        """The states one turn from ``rnd`` can lead to where the fight is not over
        (found once: :func:`plan` asks again every round the state is live)."""
        known = self._going_on.get(rnd)
        if known is None:
            known = self._going_on[rnd] = frozenset(
                s for s, _ in self.step(rnd)[1] if winner(s[1]) is None)
        return known

    def sample(self, rnd: Round, dice: solver.Dice) -> tuple[Round, solver.Told]:
        """One turn with real dice: the initiative roll, then every activation through the
        same code with one dice result per attack. Returns the new state and the turn
        told action by action (:mod:`rules_core.sucs.account`)."""
        n, state = rnd
        charge = self.rules.melee and n == 1
        if charge:
            first, opening = "a", account.set_first(self.names["a"], True)
        else:
            first, opening = roll_initiative(self.rules, dice, self.names)
        ((s, (_, _, log)),) = turn(self, state, first, charge, dice_resolver(dice)).items()
        return (2, s), solver.Told((opening, *log), self.standing(s))

    def standing(self, state: State) -> str:
        """Each side's units left after a turn, with their suppression markers."""
        return account.after([
            (self.names[side], len(units),
             [(self.label(side, i)[len(self.names[side]) + 1:], u[0])
              for i, u in enumerate(units) if u is not None],
             "no commander left: one action a turn, out of command"
             if any(units) and self.leaderless(state, side) else "")
            for side, units in zip("ab", state)])

    # ---- what the turn walk asks of the fight (:class:`rules_core.sucs.turn.Table`) ----

    def spec(self, side: str, i: int, t: int, bonus: int, lost: bool = False,
             weapon: int = 0) -> AttackSpec:
        """The single-attack calculator's view of unit ``side`` i attacking enemy t with
        its weapon ``weapon`` (out of command when ``lost``: its army has no commander
        left); the unit's own roll modifier added to ``bonus``."""
        attacker, target = self.units[side][i], self.units[other_side(side)][t]
        return AttackSpec(quality=attacker.quality, attack=attacker.weapon(weapon)[0],
                          armor=target.armor, cover=target.cover, dug_in=target.dug_in,
                          stealthy=target.stealthy,
                          roll_modifier=bonus + attacker.roll_modifier,
                          out_of_command=attacker.out_of_command or lost,
                          attack_support=attacker.attack_support,
                          armor_support=target.armor_support,
                          armor_modifies_roll=self.rules.armor_modifies_roll,
                          bonus_from_target_number=self.rules.bonus_from_target_number)

    def odds(self, side: str, i: int, t: int, bonus: int, lost: bool = False,
             weapon: int = 0) -> AttackOdds:
        """(events as (event, ways, sixes), chance to destroy, can hurt at all, might
        possibly damage), cached per attacker, target, modifier, command and weapon."""
        key = (side, i, t, bonus, lost, weapon)
        hit = self._odds.get(key)
        if hit is None:
            spec = self.spec(side, i, t, bonus, lost, weapon)
            evs, sixes = events(spec)
            total = 6 ** sixes
            kill = Fraction(sum(w for (o, _), w in evs if o == "destroyed"), total)
            hurt = any(o != "no_effect" for (o, _), _w in evs)
            hit = (tuple((e, w, sixes) for e, w in evs), kill, hurt, can_damage(spec))
            self._odds[key] = hit
        return hit

    def canonical(self, state: State) -> State:
        """Identical units' states sorted: the same fight up to names."""
        if not self._merge:
            return state
        known = self._canon.get(state)
        if known is not None:
            return known
        out = []
        for side, side_units in zip(("a", "b"), state):
            units = list(side_units)
            for members in self._groups[side]:
                if len(members) > 1:
                    for idx, u in zip(members, sorted((units[m] for m in members),
                                                      key=standing_key)):
                        units[idx] = u
            out.append(tuple(units))
        self._canon[state] = merged = (out[0], out[1])
        return merged

    def group_rank(self, side: str, i: int) -> int:
        return self._rank[(side, i)]

    def leaderless(self, state: State, side: str) -> bool:
        """Whether ``side`` has lost every commander in ``state``: its units then act once
        a turn, out of command (source: Special rules for commanders). A side that never
        had one is as the reading :attr:`Rules.no_commander` says."""
        leaders = self._leaders[side]
        if not leaders:
            return self.rules.no_commander == "leaderless"
        units = state[0 if side == "a" else 1]
        return all(units[i] is None for i in leaders)

    def spend(self, work: int) -> None:
        """Count paths built by the exact turn walk; past :attr:`max_work` the fight is
        refused while the turn is still being built, not after."""
        if self.work + work > self.max_work:
            raise solver.TooLarge("The work of building this fight's turns", self.max_work)
        self.work += work


@dataclass(frozen=True)
class Plan:
    """What the exact answer would cost, found before any chance is computed: which
    states each round can hold (the solver's live states do not depend on the chances)."""

    rounds: int            #: rounds that fit in every limit (the round cap when all do)
    peak: int              #: the most live states a round holds
    solver_work: int       #: the solver's weighted work for those rounds
    #: the limit that stopped the plan short: None, "turn" (:data:`MAX_TURN_WORK`),
    #: "states" (:data:`MAX_STATES`) or "work" (:data:`MAX_SOLVER_WORK`)
    limit: str | None
    message: str = ""


def plan(fight: Fight, max_rounds: int, max_states: int = MAX_STATES,
         max_work: int = MAX_SOLVER_WORK) -> Plan:
    """What the exact answer would cost (:func:`planning`, run to its end)."""
    return solver.finish(planning(fight, max_rounds, max_states, max_work))


def planning(fight: Fight, max_rounds: int, max_states: int = MAX_STATES,
             max_work: int = MAX_SOLVER_WORK) -> Generator[None, None, Plan]:
    """Walk the rounds the solver would walk, building each new state's moves (under the
    fight's own budget) but only following which states can be reached, not their chances.
    The solver's cost of a round is its transitions times the size of the numbers, which
    grow by at most one turn's denominator each round; so round r's transitions are
    weighted by 1 + r * bits / 2500, bits the largest denominator of a turn's moves so far
    (measured: about a microsecond per unit). Stops at the first round past a limit."""
    live = {fight.start()} if fight.outcome(fight.start()) is None else set()
    peak, spent, bits = len(live), 0, 0
    for r in range(1, max_rounds + 1):
        if not live:
            break
        nxt: set[Round] = set()
        transitions = 0
        try:
            for state in live:
                yield  # building a state's turn is the costly piece
                denominator, moves = yield from built(fight, state)
                bits = max(bits, denominator.bit_length())
                transitions += len(moves)
                nxt.update(fight.going_on(state))
        except solver.TooLarge as err:
            return Plan(r - 1, peak, spent, "turn", str(err))
        weighted = transitions * (2500 + r * bits) // 2500
        if spent + weighted > max_work:
            return Plan(r - 1, peak, spent, "work",
                        f"The work of the exact answer is past the limit of {max_work:,}")
        spent += weighted
        if len(nxt) > max_states:
            return Plan(r - 1, peak, spent, "states",
                        f"The number of ways this fight can stand after one round is past "
                        f"the limit of {max_states:,} for an exact answer")
        live = nxt
        peak = max(peak, len(live))
    return Plan(max_rounds, peak, spent, None)


def built(fight: Fight, state: Round) -> Generator[None, None, tuple[int, list[tuple[Round, int]]]]:
    """``fight.step(state)`` in pieces: the turn is built within growing shares of the
    budget left (:data:`TURN_SHARES`), yielding after each share that was not enough, and
    then within all of it. What a share built is kept (the fight's memo) and not built
    again; the work counted is that of the build that ended, so the turn is the same as
    one built at once, and fits at least as often."""
    full, before = fight.max_work, fight.work
    try:
        for share in TURN_SHARES:
            fight.max_work = before + (full - before) // share
            try:
                return fight.step(state)
            except solver.TooLarge:
                fight.work = before
                yield
        fight.max_work = full
        return fight.step(state)
    finally:
        fight.max_work = full


def _groups(kinds: list[Any]) -> list[list[int]]:
    """The units' places, grouped by kind, in order of first appearance."""
    groups: dict[Any, list[int]] = {}
    for i, kind in enumerate(kinds):
        groups.setdefault(kind, []).append(i)
    return list(groups.values())


@lru_cache(maxsize=2048)
def events(spec: AttackSpec) -> tuple[tuple[tuple[Event, int], ...], int]:
    """Every face of one attack through :func:`resolve`, counted: ((outcome, roll made),
    ways) out of 6^sixes (2d6 and the d6; and the spotting 2d6 for a stealthy target)."""
    two = 2 @ icepool.d6

    def event(spot: int, roll: int, d6: int) -> Event:
        res = resolve(spec, roll, d6, spot)
        return (res.outcome, res.stage != "not_found")

    if spec.stealthy:
        die, sixes = icepool.map(event, two, two, icepool.d6), 5
    else:
        die, sixes = icepool.map(lambda r, f: event(12, r, f), two, icepool.d6), 3
    total = die.denominator()
    scale = 6 ** sixes // total
    return tuple(sorted((e, w * scale) for e, w in die.items())), sixes


def initiative(rules: Rules) -> list[tuple[str, Fraction]]:
    """Who acts first: 2d6 each, the higher goes first; ties as ruled (source: Order of
    Play); or one side every turn, when the table agrees so."""
    if rules.first != "roll":
        return [(rules.first, Fraction(1))]
    if rules.ties == "reroll":
        return [("a", Fraction(1, 2)), ("b", Fraction(1, 2))]
    two = [a + b for a in range(1, 7) for b in range(1, 7)]
    tie = Fraction(sum(x == y for x in two for y in two), len(two) ** 2)  # 73/648
    win = (1 - tie) / 2
    return [("a", win + (tie if rules.ties == "a" else 0)),
            ("b", win + (tie if rules.ties == "b" else 0))]


def roll_initiative(rules: Rules, dice: solver.Dice,
                    names: dict[str, str] | None = None) -> tuple[str, solver.Action]:
    """2d6 each until one is higher, or the tie rule decides: (who acts first, the roll
    as the account tells it)."""
    names = names or {"a": "Side A", "b": "Side B"}
    if rules.first != "roll":
        return rules.first, account.set_first(names[rules.first], False)
    rolls = []
    tie = ""
    while True:
        fa = (dice.randint(1, 6), dice.randint(1, 6))
        fb = (dice.randint(1, 6), dice.randint(1, 6))
        rolls.append((fa, fb))
        ra, rb = sum(fa), sum(fb)
        if ra != rb:
            first = "a" if ra > rb else "b"
            break
        if rules.ties != "reroll":
            first, tie = rules.ties, f"{names[rules.ties]} acts first on a tie, as set"
            break
    return first, account.initiative((names["a"], names["b"]), rolls, "ab".index(first), tie)


def dice_resolver(dice: solver.Dice) -> Resolver:
    """Real dice fed to the same resolution function: one result per attack."""
    def roll(fight: Table, side: str, i: int, t: int, bonus: int, lost: bool,
             weapon: int = 0) -> list[Resolved]:
        spec = fight.spec(side, i, t, bonus, lost, weapon)
        spot = (dice.randint(1, 6), dice.randint(1, 6)) if spec.stealthy else None
        pair = (dice.randint(1, 6), dice.randint(1, 6))
        d6 = dice.randint(1, 6)
        res = resolve(spec, sum(pair), d6, None if spot is None else sum(spot))
        found = res.stage != "not_found"
        told = account.attack_roll(sum(pair), spec.roll_bonus, spec.needed, spot, spec.base_tn,
                                   pair if found else None, d6 if res.d6_used else None,
                                   res.outcome if found else "not_found")
        return [((res.outcome, found), 1, 0, told)]
    return roll


# ---- how a fight is answered (rules_core.cascade) ------------------------------------

#: a simulation step plays this many fights divided by the units on the field squared (a
#: turn's work grows with the units that act times the enemies each weighs): a few
#: hundredths of a second of CPython whatever the size; the most fights it plays, and the
#: most turns x a turn's work (:func:`round_work`; its work cap: about 30 s of CPython with
#: the quick player)
SIM_STEP_WORK, SIM_MAX_FIGHTS, SIM_MAX_WORK = 100_000, 250_000, 150_000_000
#: the most units an engagement puts on the field (six a side)
ENGAGED_UNITS = 12


def round_work(units: int) -> int:
    """A turn's work towards the simulation's work cap, for ``units`` on the field: the
    units squared up to :data:`ENGAGED_UNITS` (an engagement: in melee a charge draws a
    return strike from every enemy), past it the units times that many (an army battle, an
    exchange of fire: the quick player's turn grows with the units that act, each aiming
    at the unit kept for the enemy kind it aims at; two armies of 20 play their turns
    faster than six a side in melee), so that two 20-unit armies may settle within the
    cap (about 50,000 fights, 7 s of CPython)."""
    return units * min(units, ENGAGED_UNITS)
#: an army battle (:mod:`rules_core.sucs.calc_roster_battle`): the paths the exact turn
#: walk may build while trying it (a tenth of a second of CPython), and the pruned walk's
#: budget after it (in the units of :data:`MAX_PRUNED_WORK`: about a third of a second);
#: past both, the battle is simulated
EXACT_TRY_WORK, PRUNED_TRY_WORK = 20_000, 300_000


class Walks:
    """The exact walk and the pruned walk of one fight as the cascade starts them, each
    under its own budget; the exact walk's :class:`Plan` (``found``) and the turns the
    pruned walk fitted (``fit``) are kept, to say what would have to be lowered."""

    def __init__(self, fight: Fight, max_rounds: int, turn_work: int, solver_work: int,
                 pruned_work: int) -> None:
        self.fight, self.max_rounds = fight, max_rounds
        self.turn_work, self.solver_work, self.pruned_work = turn_work, solver_work, pruned_work
        self.found: Plan | None = None
        self.fit = 0

    def exact(self) -> solver.Walk[solver.Odds]:
        self.fight.work, self.fight.max_work = 0, self.turn_work
        self.found = yield from planning(self.fight, self.max_rounds, max_work=self.solver_work)
        if self.found.limit is not None:
            raise _too_large(f"{self.found.message} (the first {self.found.rounds} turns fit)")
        return (yield from solver.walk_exact(self.fight, max_rounds=self.max_rounds))

    def pruned(self) -> solver.Walk[solver.Pruned]:
        if self.found is None or not prunable(self.found):
            raise _too_large("not tried, as not even the first turn fits the exact walk")
        self.fight.work, self.fight.max_work = 0, self.pruned_work
        try:
            return (yield from solver.walk_pruned(self.fight, max_rounds=self.max_rounds,
                                                  floor=PRUNE_FLOOR, max_pruned=MAX_ERROR))
        except solver.TooLarge as err:
            self.fit = err.rounds
            raise _too_large(f"{err} (the first {err.rounds} turns fit)") from None


def _too_large(message: str) -> solver.TooLarge:
    err = solver.TooLarge("", 0)
    err.args = (message,)
    return err


def cascade(walked: Fight, played: Fight, max_rounds: int, turn_work: int, solver_work: int,
            pruned_work: int,
            play_quickly: Callable[[Fight, int, random.Random], tuple[Round, int]]) -> Cascade:
    """How a fight is answered: the exact walk of ``walked`` (its turns within
    ``turn_work``, the solver's within ``solver_work``), then its pruned walk within
    ``pruned_work``, then a simulation of ``played`` (the same fight, whose turn walk is
    never budgeted: :data:`UNCOUNTED`), each fight played by ``play_quickly``
    (:func:`rules_core.sucs.quick.play_quickly`, which sits above this module)."""
    walks = Walks(walked, max_rounds, turn_work, solver_work, pruned_work)
    played.max_work = UNCOUNTED
    units = len(played.units["a"]) + len(played.units["b"])
    return Cascade(played, max_rounds, (("exact", walks.exact), ("pruned", walks.pruned)),
                   functools.partial(play_quickly, played, max_rounds),
                   max(1, SIM_STEP_WORK // units ** 2), SIM_MAX_FIGHTS, SIM_MAX_WORK,
                   round_work(units), walker=walks)
