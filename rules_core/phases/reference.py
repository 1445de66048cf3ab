"""Rules tables the 2d6 combat phases pages render with the ``rules-table`` fence, all from
core data."""

from __future__ import annotations

from typing import Any

from rules_core.dice.distribution import percent
from rules_core.phases import expectations as ex
from rules_core.phases.action import outcome_distribution
from rules_core.phases.tables import (
    EXAMPLE_TABLE_LABELS,
    EXAMPLE_TABLES,
    MAX_POOL,
    MIN_POOL,
    OUTCOME_LABELS,
    OUTCOME_RANGES,
    SHORT_MEANING,
    THREAT_LEVELS,
    ExampleTable,
    Outcome,
    Phase,
)


def _outcomes_table() -> dict[str, Any]:
    return {"caption": "What each outcome does",
            "header": ["Outcome", "Kept total", "Offense", "Defence"],
            "rows": [[OUTCOME_LABELS[o], OUTCOME_RANGES[o], SHORT_MEANING[Phase.OFFENSE][o],
                      SHORT_MEANING[Phase.DEFENCE][o]] for o in Outcome]}


def _odds_table() -> dict[str, Any]:
    columns = [(Phase.OFFENSE, 2), (Phase.OFFENSE, 3), (Phase.DEFENCE, 3)]
    dists = [outcome_distribution(p, n) for p, n in columns]
    return {"caption": "Chance of each outcome (exact fractions)",
            "header": ["Outcome", "2 dice", "Offense, 3 dice (best two)",
                       "Defence, 3 dice (worst two)"],
            "rows": [[OUTCOME_LABELS[o]] + [f"{percent(d[o])} ({d[o]})" for d in dists]
                     for o in Outcome]}


def _threat_table() -> dict[str, Any]:
    return {"caption": "Threat levels: action dice for one side",
            "header": ["Dice", "Threat", "For example"],
            "rows": [[str(t.dice), t.name, "; ".join(t.examples)] for t in THREAT_LEVELS]}


def _threat_odds_table() -> dict[str, Any]:
    rows = []
    for dice in range(MIN_POOL, MAX_POOL + 1):
        off = ex.phase_odds(Phase.OFFENSE, dice)
        dfn = ex.phase_odds(Phase.DEFENCE, dice)
        rows.append([str(dice), f"{float(off.expected()):.2f}",
                     f"{float(off.expected(ex.DAMAGE_DEALT)):.2f}",
                     f"{float(dfn.expected()):.2f}",
                     f"{float(dfn.expected(ex.DAMAGE_TAKEN)):.2f}"])
    return {"caption": "Expected per phase, third die only when exactly three are left",
            "header": ["Dice", "Offense actions", "Damage dealt", "Defence actions",
                       "Damage taken"],
            "rows": rows}


def _examples_table(which: ExampleTable) -> dict[str, Any]:
    entries = EXAMPLE_TABLES[which]
    return {"caption": f"Example {EXAMPLE_TABLE_LABELS[which].lower()}",
            "header": ["No.", "Result", "Phases"],
            "rows": [[str(i), e.text, " and ".join(p.value for p in e.phases)]
                     for i, e in enumerate(entries, 1)]}


TABLES = {
    "phases.outcomes": _outcomes_table,
    "phases.outcome_odds": _odds_table,
    "phases.threat_levels": _threat_table,
    "phases.threat_odds": _threat_odds_table,
    "phases.complications": lambda: _examples_table(ExampleTable.COMPLICATIONS),
    "phases.ultra_successes": lambda: _examples_table(ExampleTable.ULTRA),
}
