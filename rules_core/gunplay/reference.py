"""Rules tables the d10 pages render with the ``rules-table`` fence, all from core data."""

from __future__ import annotations

from fractions import Fraction

from rules_core.explain import Table, signed
from rules_core.gunplay.presets import EXAMPLES
from rules_core.gunplay.tables import (
    AIM_PER_ACTION,
    BAND_START,
    DRAW_ACTIONS,
    LABELS,
    MALFUNCTIONS,
    MOVEMENT,
    RELOAD_ACTIONS,
    SIZE_RANGE,
    STANCE,
    STANCE_SIZE,
    SUPPRESS_PER_LANE,
    SUPPRESS_PER_OPEN_GROUP,
    RangeBand,
    Size,
)
from rules_core.messages import count


def size_range() -> Table:
    return {
        "caption": "Difficulty change by target size (rows) and range band (columns)",
        "header": ["Size"] + [LABELS[b] for b in RangeBand],
        "rows": [[LABELS[s]] + [signed(SIZE_RANGE[s][b]) for b in RangeBand] for s in Size],
    }


def movement() -> Table:
    return {"caption": "Movement modifier (target and shooter each)",
            "header": ["Movement", "Difficulty change"],
            "rows": [[LABELS[m], signed(v)] for m, v in MOVEMENT.items()]}


def stance() -> Table:
    return {"caption": "Firing stance",
            "header": ["Stance", "Difficulty change (shooter)", "Counts as a target of size"],
            "rows": [[LABELS[s], signed(v), LABELS[STANCE_SIZE[s]]] for s, v in STANCE.items()]}


def range_bands() -> Table:
    starts = [Fraction(n, d) for n, d in BAND_START.values()]
    ends = starts[1:] + [Fraction(1)]
    rows = []
    for band, start, end in zip(BAND_START, starts, ends):
        upto = "the effective range itself" if end == 1 else f"just under {end}"
        rows.append([LABELS[band], "0" if start == 0 else str(start), upto])
    return {"caption": "Range bands as fractions of the weapon's effective range",
            "header": ["Band", "From", "Up to"], "rows": rows}


def example_weapons() -> Table:
    return {"caption": "Example effective ranges (illustrations, not rules data)",
            "header": ["Example weapon", "Effective range", "Where the figure comes from"],
            "rows": [[w.kind.capitalize(), f"{w.effective_range_m} m",
                      "an assumption in the rules' own example" if w.from_rules
                      else "a round figure chosen by this site"] for w in EXAMPLES]}


def _actions(n: int) -> str:
    return count(n, "action")


def actions() -> Table:
    return {"caption": "What weapon handling costs",
            "header": ["Task", "Cost"],
            "rows": [
                ["Reload (swap the magazine and make ready)",
                 _actions(RELOAD_ACTIONS) + " unless the weapon says otherwise"],
                ["Draw a pistol or knife from a holster, concealed holster or armour slot",
                 _actions(DRAW_ACTIONS["holster"])],
                ["Draw it from anywhere else (boot, pocket, pack, slung on the back)",
                 _actions(DRAW_ACTIONS["elsewhere"])],
                ["Take careful aim", f"{_actions(1)} each, {signed(AIM_PER_ACTION)} difficulty"],
                ["Clear a failure to feed or a stovepipe", _actions(1)],
                ["Refill empty magazines", "not possible mid-fight"],
            ]}


def malfunctions() -> Table:
    rows = []
    for m in MALFUNCTIONS:
        actions, stops_burst = m["clear_actions"], m["stops_burst"]
        clear = "not given (GM's call)" if not isinstance(actions, int) else _actions(actions)
        stops = {True: "yes", False: "no", None: "not stated"}[
            stops_burst if isinstance(stops_burst, bool) else None]
        rows.append([m["name"], m["severity"], clear, stops, m["danger"]])
    return {"caption": "Malfunctions",
            "header": ["Malfunction", "Severity", "To clear", "Ends a burst", "Danger"],
            "rows": rows}


def suppression() -> Table:
    low, high = SUPPRESS_PER_OPEN_GROUP
    return {"caption": "Suppressing fire, rule of thumb",
            "header": ["What you hold down", "Bullets per action"],
            "rows": [["One narrow lane (corridor, street, alley)", str(SUPPRESS_PER_LANE)],
                     ["One group advancing over wide, open ground", f"{low} to {high}"]]}


TABLES = {
    "gunplay.size_range": size_range,
    "gunplay.movement": movement,
    "gunplay.stance": stance,
    "gunplay.range_bands": range_bands,
    "gunplay.example_weapons": example_weapons,
    "gunplay.actions": actions,
    "gunplay.malfunctions": malfunctions,
    "gunplay.suppression": suppression,
}
