"""Calculators of the momentum page: a random pick from the example complications and
ultra successes. The page's engagement is in :mod:`rules_core.phases.calc_momentum_fight`."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import to_json
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import ChoiceField
from rules_core.phases.inputs import MOMENTUM_PAGE, PHASE_CHOICES
from rules_core.phases.tables import (
    EXAMPLE_TABLE_LABELS,
    EXAMPLE_TABLES,
    ExampleTable,
    Phase,
)

PICK_FIELDS = (
    ChoiceField("table", "Table", default="complications",
                choices=tuple((t.value, EXAMPLE_TABLE_LABELS[t]) for t in ExampleTable)),
    ChoiceField("phase", "Phase", default="offense", choices=PHASE_CHOICES,
                help="Some results only make sense in one phase (a free attack is a defence "
                     "ultra success)."),
)


def eligible(table_name: ExampleTable, phase: Phase) -> list[str]:
    """The entries of an example table that can apply in ``phase``."""
    return [e.text for e in EXAMPLE_TABLES[table_name] if phase in e.phases]


def pick(table_name: ExampleTable, phase: Phase, face: int) -> str:
    """The entry a die face picks: face n gives the n-th eligible entry."""
    entries = eligible(table_name, phase)
    if not 1 <= face <= len(entries):
        raise InputError("face", f"must be from 1 to {len(entries)}, received {face}.")
    return entries[face - 1]


def _pick_compute(inputs: dict[str, Any]) -> Result:
    from fractions import Fraction

    entries = eligible(ExampleTable(inputs["table"]), Phase(inputs["phase"]))
    dist = {f"{i}. {text}": Fraction(1, len(entries)) for i, text in enumerate(entries, 1)}
    return {"entries": entries, "die": f"d{len(entries)}", **to_json("chances", dist)}


def _pick_roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    table_name, phase = ExampleTable(inputs["table"]), Phase(inputs["phase"])
    size = len(eligible(table_name, phase))
    face = rng.randint(1, size)
    entry = pick(table_name, phase, face)
    return {"dice": [{"die": f"d{size}", "face": face}], "entry": entry,
            "summary": f"{EXAMPLE_TABLE_LABELS[table_name]} ({phase.value}): {face}. {entry}"}


TABLE_PICK = Calculator(
    name="phases.table_pick",
    title="Pick a complication or an ultra success",
    summary="A random entry from the example complications or ultra successes.",
    fields=PICK_FIELDS,
    compute=_pick_compute,
    explain=lambda i, r: (
        f"Roll a {r['die']} and read the entry with that number "
        f"({rule('complications', MOMENTUM_PAGE, 'complications')}, "
        f"{rule('ultra successes', MOMENTUM_PAGE, 'ultra-successes')}). The referee may "
        "always invent a result instead; describe how it comes about in the fiction."),
    headline=lambda r: [("Entries", str(len(r["entries"]))), ("Die", r["die"])],
    charts=(Chart("chances", "Chance of each entry", "Entry", ordered=False),),
    roll=_pick_roll,
    roll_label="Pick one",
    page=MOMENTUM_PAGE,
)
