"""The army builder page's fair-fight finder, ``sucs.roster_balance``: how many units a
roster should field (its lines scaled up or down together), or what cover or how many
turns, for the outcome the GM wants to have the chance wanted; each point the army
battle's own answer (:mod:`rules_core.sucs.calc_roster_battle`). A roster scaled is
handed back to the builder as a suggested change, which the GM accepts or not."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from rules_core.balance.calculator import Balance, answers, calculator
from rules_core.balance.search import Outcome, Point, Variable, field_variable
from rules_core.calculator import Result
from rules_core.fields import initial_inputs
from rules_core.messages import count
from rules_core.sucs.calc_roster_battle import (
    BATTLE,
    FIELDS,
    HOLDS,
    MAX_BATTLE_UNITS,
    PAGE,
    RIFLES,
    battle_of,
    lines_of,
    outcome_names,
    side_roster,
    starter,
)

SIDE_WORDS = {"a": "Side A", "b": "Side B"}


def scaled_counts(counts: list[int], units: int) -> list[int]:
    """A roster's line counts scaled to ``units`` units in all, in proportion: with units
    enough for every line, each line keeps one and each unit past that goes, one at a
    time, to the line furthest below its share; with fewer, the largest lines get one
    each (the earlier line on a tie). At the roster's own size the counts come back
    unchanged, one unit more adds to one line only, and a line scaled to none is dropped."""
    total, lines = sum(counts), range(len(counts))
    if units < len(counts):
        largest = sorted(lines, key=lambda i: (-counts[i], i))[:units]
        return [int(i in largest) for i in lines]
    out = [1] * len(counts)
    for _ in range(units - len(counts)):
        # the shortfall of each line against its share, units * count / total
        short = [Fraction(units * c, total) - k for c, k in zip(counts, out)]
        out[max(lines, key=lambda i: (short[i], -i))] += 1
    return out


def _roster_key(side: str) -> str:
    return f"roster_{side}"


#: the battle's own starting inputs (a roster the fight handed on lacks is the battle's)
INITIAL = initial_inputs(FIELDS)


def _army(raw: dict[str, Any], side: str) -> dict[str, Any]:
    key = _roster_key(side)
    return side_roster(key, raw.get(key, INITIAL[key]))


def scaled_army(army: dict[str, Any], units: int) -> dict[str, Any]:
    """The roster ``army`` with its lines scaled to ``units`` units (:func:`scaled_counts`)."""
    counts = scaled_counts([u["count"] for u in army["units"]], units)
    return {**army, "units": [{**u, "count": c} for u, c in zip(army["units"], counts) if c]}


def _units(side: str) -> Variable:
    """The units of a roster, its lines scaled together (:func:`scaled_counts`)."""
    key = _roster_key(side)

    def put(raw: dict[str, Any], value: int) -> dict[str, Any]:
        return {**raw, key: json.dumps(scaled_army(_army(raw, side), value),
                                       separators=(",", ":"))}
    return Variable(f"{side}_units", f"{SIDE_WORDS[side]} roster: units (lines scaled)", 1,
                    MAX_BATTLE_UNITS, lambda raw: sum(u["count"] for u in _army(raw, side)["units"]),
                    put)


def _holds(side: str) -> Outcome:
    """A side holds the field: the battle's outcome, named by its rosters' names."""
    return Outcome(side, f"{SIDE_WORDS[side]} holds the field",
                   lambda fight: (outcome_names(battle_of(fight))[HOLDS[side]],))


def suggestion(fight: dict[str, Any], vary: str, found: Point) -> dict[str, Any] | None:
    """The roster scaled, as a change the army builder may make: the side, the roster as
    it was fought, each of its lines' count at the value found (0: dropped), and in words
    what changes, with the units and points before and after. None when the value found
    scales no roster."""
    if vary not in ("a_units", "b_units"):
        return None
    side = vary[0]
    was = _army(fight, side)
    counts = scaled_counts([u["count"] for u in was["units"]], found.value)
    costs = [line.cost for line in lines_of(was, 0)]
    points = (sum(c * k for c, k in zip(costs, (u["count"] for u in was["units"]))),
              sum(c * k for c, k in zip(costs, counts)))
    changes = [f"{u['name']} {u['count']} → {k}" + (" (dropped)" if not k else "")
               for u, k in zip(was["units"], counts) if k != u["count"]]
    units = (sum(u["count"] for u in was["units"]), found.value)
    said = (f"“{was['name']}” with {count(units[1], 'unit')}, {count(points[1], 'point')} "
            f"(fought with {count(units[0], 'unit')}, {count(points[0], 'point')})"
            + (": " + ", ".join(changes) if changes else ": no change") + ".")
    return {"side": side, "name": was["name"],
            "lines": [[u["name"], u["count"]] for u in was["units"]], "counts": counts,
            "units": units[1], "points": points[1], "summary": said}


#: the fight the form starts with: the battle's own, with five rifle squads on side A
START = {**INITIAL, "roster_a": starter("Riflemen", [("Rifle squad", 5, RIFLES)])}

SPEC = Balance(
    name="sucs.roster_balance",
    fight=BATTLE,
    start=START,
    variables=(_units("b"), _units("a"), field_variable(FIELDS, "b_cover"),
               field_variable(FIELDS, "a_cover"), field_variable(FIELDS, "turns")),
    outcomes=(_holds("a"), _holds("b")),
    suggest=suggestion,
)
ANSWERS = answers(SPEC)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled search (the API's): see :mod:`rules_core.balance.search`."""
    return ANSWERS.compute(inputs)


BALANCE = calculator(SPEC, _compute, ANSWERS, PAGE)
