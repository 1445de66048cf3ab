"""Rules tables the Heroic Combat pages render with the ``rules-table`` fence, all from core
data."""

from __future__ import annotations

from typing import Any

from rules_core.explain import signed
from rules_core.heroic.ranged import shots_allowed
from rules_core.heroic.tables import (
    ACTION_CLASSES,
    ACTIONS,
    GROUP_BONUS,
    MORALE_CORNERED,
    MORALE_FEARLESSNESS_PER_LEVEL,
    MORALE_HP_HALF,
    MORALE_HP_TWO_THIRDS,
    MORALE_LOST_HALF,
    MORALE_LOST_TWO_THIRDS,
    MORALE_OUTNUMBER,
    MORALE_OUTNUMBER_DOUBLE,
    PRINTED_MULTIPLIER,
    RANGE_BANDS,
    RATIO_BONUS,
    RATIO_BONUS_MAX,
    TACTICS,
    multiplier_band_tops,
)


def _mod(value: int | None) -> str:
    return "none allowed" if value is None else signed(value)


def _tactics() -> dict[str, Any]:
    rows = []
    for t in TACTICS:
        ranged = "none allowed" if t.ranged is None else (
            f"+{t.ranged} + Acc" if t.ranged_adds_acc else signed(t.ranged))
        if t.ranged_moving:
            ranged += "; worse of -2 or Bulk after moving over Move x 2"
        shots = (f"{shots_allowed(t, True, False)} ({shots_allowed(t, True, True)})"
                 if t.ranged is not None else "0")
        rows.append([t.name, t.movement, _mod(t.melee), ranged, signed(t.defense), shots])
    return {"caption": "The eight combat tactics (names are the site's; see Rulings)",
            "header": ["Tactic", "Movement", "Melee", "Ranged", "Defence",
                       "Shots, fast weapon (with Fast-Draw)"],
            "rows": rows}


def _ratio() -> dict[str, Any]:
    rows, low = [], None
    for limit, bonus in RATIO_BONUS:
        text = f"up to {limit}:1" if low is None else f"over {low}:1 up to {limit}:1"
        rows.append([text.replace("3/2", "1.5"), signed(bonus)])
        low = str(limit).replace("3/2", "1.5")
    rows.append([f"over {low}:1", signed(RATIO_BONUS_MAX)])
    return {"caption": "Skill bonus by attackers : defenders", "header": ["Ratio", "Skill bonus"],
            "rows": rows}


def _multiplier() -> dict[str, Any]:
    rows, low = [], 1
    printed_top = PRINTED_MULTIPLIER[-1][0]
    for mult, top in enumerate(multiplier_band_tops(), start=1):
        band = f"{low}" if low == top else f"{low}-{top}"
        rows.append([band, f"x{mult}", "printed" if top <= printed_top else "continued"])
        low = top + 1
        if top >= 1000:
            break
    rows.append(["and so on", "+1 per step of 1, 1.5, 2, 3, 5, 7, 10...", "continued"])
    return {"caption": "Hit multiplier by number of attackers",
            "header": ["Attackers", "Hit multiplier", "Source"], "rows": rows}


def _group_bonus() -> dict[str, Any]:
    rows = [["1-4", "+0"]]
    for i, (smallest, bonus) in enumerate(GROUP_BONUS):
        nxt = GROUP_BONUS[i + 1][0] - 1 if i + 1 < len(GROUP_BONUS) else None
        rows.append([f"{smallest}-{nxt}" if nxt else f"{smallest} or more", signed(bonus)])
    return {"caption": "Bonus for firing into a group of identical foes",
            "header": ["Foes in the group", "Bonus"], "rows": rows}


def _range_bands() -> dict[str, Any]:
    rows, first = [], 0
    for _key, name, last, penalty in RANGE_BANDS:
        yards = f"{first}-{last}" if last is not None else f"over {first - 1}"
        rows.append([name, yards, "the weapon's Bulk" if penalty is None else signed(penalty)])
        first = (last or 0) + 1
    return {"caption": "Range bands", "header": ["Band", "Yards", "Penalty"], "rows": rows}


def _morale() -> dict[str, Any]:
    rows = [
        ["A solitary creature has lost half its starting HP or more", signed(MORALE_HP_HALF)],
        ["... two-thirds of its starting HP or more (instead)", signed(MORALE_HP_TWO_THIRDS)],
        ["The group outnumbers its opponents", signed(MORALE_OUTNUMBER)],
        ["... by 2:1 or more (instead)", signed(MORALE_OUTNUMBER_DOUBLE)],
        ["The group has lost half its starting members or more", signed(MORALE_LOST_HALF)],
        ["... two-thirds of them or more (instead)", signed(MORALE_LOST_TWO_THIRDS)],
        ["No way to retreat and the enemy takes no surrender", signed(MORALE_CORNERED)],
        ["Fearlessness, per level", signed(MORALE_FEARLESSNESS_PER_LEVEL)],
        ["Cowardice", "+ its Fright Check penalty"],
    ]
    return {"caption": "Morale roll modifiers (3d6; 13 or more breaks)",
            "header": ["Situation", "Modifier"], "rows": rows}


def _actions() -> dict[str, Any]:
    rows = [[label, f"{ACTION_CLASSES[kind][0]} ({ACTION_CLASSES[kind][1]})"]
            for label, kind in ACTIONS.values()]
    return {"caption": "Typical actions and their length", "header": ["Action", "Length"],
            "rows": rows}


TABLES = {
    "heroic.tactics": _tactics,
    "heroic.ratio": _ratio,
    "heroic.multiplier": _multiplier,
    "heroic.group_bonus": _group_bonus,
    "heroic.range_bands": _range_bands,
    "heroic.morale": _morale,
    "heroic.actions": _actions,
}
