"""Rules tables the Cortex pages render with the ``rules-table`` fence, all from core data."""

from __future__ import annotations

from typing import Any

from rules_core.cortex.dice import name
from rules_core.cortex.tables import (
    PC_TEAM_MAX,
    PC_TEAM_MIN,
    QUALITY,
    RANGE_DIE,
    RANGE_LABELS,
    SPECIALISTS,
    allocation,
    drone_cost,
    drones_total,
)


def _quality_table() -> dict[str, Any]:
    return {"caption": "Quality die by training and experience (a suggestion, not a rule)",
            "header": ["Quality die", "Combatant"],
            "rows": [[name(size), text] for size, text in QUALITY]}


def _range_table() -> dict[str, Any]:
    return {"caption": "Die added to the target's pool for distance",
            "header": ["Target is", "Target adds"],
            "rows": [[RANGE_LABELS[r], name(d) if d else "nothing"] for r, d in RANGE_DIE.items()]}


def _specialists_table() -> dict[str, Any]:
    return {"caption": "Specialists and what their Edge buys",
            "header": ["Specialist", "Edge cost", "Effect", "Limits"],
            "rows": [[s.name, s.cost, s.effect, s.limits] for s in SPECIALISTS]}


def _drone_table() -> dict[str, Any]:
    return {"caption": "Edge for successive drones from one operator",
            "header": ["Drone", "This drone costs", "Total so far"],
            "rows": [[str(n), str(drone_cost(n)), str(drones_total(n))] for n in range(1, 7)]}


def _hits_table() -> dict[str, Any]:
    rows = []
    for count in range(PC_TEAM_MIN, PC_TEAM_MAX + 1):
        numbers = allocation(count)
        cells = [", ".join(map(str, numbers[i])) if i < count else "" for i in range(PC_TEAM_MAX)]
        rows.append([f"{count} members"] + cells)
    return {"caption": "d12 numbers per member, most exposed first",
            "header": ["Team"] + [f"Member {i}" for i in range(1, PC_TEAM_MAX + 1)],
            "rows": rows}


TABLES = {
    "cortex.quality": _quality_table,
    "cortex.range": _range_table,
    "cortex.specialists": _specialists_table,
    "cortex.drones": _drone_table,
    "cortex.hit_allocation": _hits_table,
}
