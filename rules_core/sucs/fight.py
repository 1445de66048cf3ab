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

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from rules_core import solver
from rules_core.sucs.attack import AttackSpec, can_damage, resolve
from rules_core.sucs.turn import (
    A_WINS,
    B_WINS,
    FRESH,
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


class Fight:
    """Both sides, the rules, and the per-fight caches of every attack's odds."""

    def __init__(self, a: tuple[Fighter, ...], b: tuple[Fighter, ...],
                 rules: Rules = DEFAULT_RULES) -> None:
        self.units = {"a": a, "b": b}
        self.rules = rules
        self._groups = {s: _groups(units) for s, units in self.units.items()}
        self._merge = any(len(g) > 1 for gs in self._groups.values() for g in gs)
        self._rank = {(s, i): r for s, gs in self._groups.items()
                      for r, g in enumerate(gs) for i in g}
        self._odds: dict[tuple[str, int, int, int], AttackOdds] = {}
        #: the rest of a turn from (state, activations left, charge), when exact
        self.memo: dict[Any, Paths] = {}

    # ---- the fight interface ---------------------------------------------------------

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return OUTCOMES

    def start(self) -> Round:
        """Turn 1, every unit fresh."""
        return (1, (tuple(FRESH for _ in self.units["a"]),
                    tuple(FRESH for _ in self.units["b"])))

    def outcome(self, rnd: Round) -> str | None:
        """A side with no unit left has lost."""
        return winner(rnd[1])

    def losses(self, rnd: Round) -> dict[str, int]:
        """Units each side has lost."""
        return units_lost(rnd[1])

    def step(self, rnd: Round) -> tuple[int, list[tuple[Round, int]]]:
        """One turn, exactly, as whole-number weights over one denominator. A melee starts
        with side A charging (it moved into contact, so it acts first)."""
        n, state = rnd
        charge = self.rules.melee and n == 1
        firsts = [("a", Fraction(1))] if charge else initiative(self.rules)
        parts: list[tuple[Round, int, int]] = []
        for first, pf in firsts:
            for s, (w, sx, _) in turn(self, state, first, charge, exact_resolver).items():
                parts.append(((2, self.canonical(s)), pf.numerator * w, pf.denominator * 6 ** sx))
        common = math.lcm(*(den for _, _, den in parts))
        out: dict[Round, int] = {}
        for key, num, den in parts:
            out[key] = out.get(key, 0) + num * (common // den)
        return common, list(out.items())

    def sample(self, rnd: Round, dice: solver.Dice) -> tuple[Round, str]:
        """One turn with real dice: the initiative roll, then every activation through the
        same code with one dice result per attack. Returns the new state and a log line."""
        n, state = rnd
        charge = self.rules.melee and n == 1
        if charge:
            first, words = "a", "side A charges into contact"
        else:
            first, words = roll_initiative(self.rules, dice)
        ((s, (_, _, log)),) = turn(self, state, first, charge, dice_resolver(dice)).items()
        return (2, s), "; ".join((words, *log)) + "."

    # ---- what the turn walk asks of the fight (:class:`rules_core.sucs.turn.Table`) ----

    def spec(self, side: str, i: int, t: int, bonus: int) -> AttackSpec:
        """The single-attack calculator's view of unit ``side`` i attacking enemy t."""
        attacker, target = self.units[side][i], self.units[other_side(side)][t]
        return AttackSpec(quality=attacker.quality, attack=attacker.attack,
                          armor=target.armor, cover=target.cover, dug_in=target.dug_in,
                          stealthy=target.stealthy, roll_modifier=bonus,
                          armor_modifies_roll=self.rules.armor_modifies_roll,
                          bonus_from_target_number=self.rules.bonus_from_target_number)

    def odds(self, side: str, i: int, t: int, bonus: int) -> AttackOdds:
        """(events as (event, ways, sixes), chance to destroy, can hurt at all, might
        possibly damage), cached per attacker, target and modifier."""
        key = (side, i, t, bonus)
        hit = self._odds.get(key)
        if hit is None:
            spec = self.spec(side, i, t, bonus)
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
        out = []
        for side, side_units in zip(("a", "b"), state):
            units = list(side_units)
            for members in self._groups[side]:
                if len(members) > 1:
                    for idx, u in zip(members, sorted((units[m] for m in members),
                                                      key=standing_key)):
                        units[idx] = u
            out.append(tuple(units))
        return (out[0], out[1])

    def group_rank(self, side: str, i: int) -> int:
        return self._rank[(side, i)]


def _groups(units: tuple[Fighter, ...]) -> list[list[int]]:
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, u in enumerate(units):
        groups.setdefault(u.stats, []).append(i)
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
    Play)."""
    if rules.ties == "reroll":
        return [("a", Fraction(1, 2)), ("b", Fraction(1, 2))]
    two = [a + b for a in range(1, 7) for b in range(1, 7)]
    tie = Fraction(sum(x == y for x in two for y in two), len(two) ** 2)  # 73/648
    win = (1 - tie) / 2
    return [("a", win + (tie if rules.ties == "a" else 0)),
            ("b", win + (tie if rules.ties == "b" else 0))]


def roll_initiative(rules: Rules, dice: solver.Dice) -> tuple[str, str]:
    """2d6 each until one is higher, or the tie rule decides."""
    rolls = []
    while True:
        ra = dice.randint(1, 6) + dice.randint(1, 6)
        rb = dice.randint(1, 6) + dice.randint(1, 6)
        rolls.append(f"{ra} to {rb}")
        if ra != rb:
            first = "a" if ra > rb else "b"
            break
        if rules.ties != "reroll":
            first = rules.ties
            break
    return first, f"initiative {', '.join(rolls)}: side {first.upper()} acts first"


def dice_resolver(dice: solver.Dice) -> Resolver:
    """Real dice fed to the same resolution function: one result per attack."""
    def roll(fight: Table, side: str, i: int, t: int, bonus: int) -> list[Resolved]:
        spec = fight.spec(side, i, t, bonus)
        spot = dice.randint(1, 6) + dice.randint(1, 6) if spec.stealthy else None
        total = dice.randint(1, 6) + dice.randint(1, 6)
        d6 = dice.randint(1, 6)
        res = resolve(spec, total, d6, spot)
        words = f"spot {spot}, " if spot is not None else ""
        if res.stage == "not_found":
            words += "not found"
        else:
            words += f"rolled {total}{f' {spec.roll_bonus:+d}' if spec.roll_bonus else ''}, " \
                     f"needed {spec.needed}" + (f", d6 {d6}" if res.d6_used else "") + \
                     f": {res.outcome.replace('_', ' ')}"
        return [((res.outcome, res.stage != "not_found"), 1, 0, words)]
    return roll
