"""What a calculator is: fields in, a result dict out, plus how to present it.

Every system declares its calculators with :class:`Calculator`; ``rules_core.api``
finds them by name. Presentation data stays plain (labels, numbers, rule links) so the
same response renders at build time and in the browser.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_core.cascade import Sharpened
from rules_core.fields import Field, initial_inputs

Result = dict[str, Any]


@dataclass(frozen=True)
class Chart:
    """A distribution in the result to draw as a chart and a table.

    ``key`` names the result entry mapping outcome -> probability (floats); the exact
    fractions are under ``key + "_exact"``.
    """

    key: str
    title: str
    outcome_label: str
    #: whether "at least" / "at most" views make sense (ordered numeric outcomes)
    ordered: bool = True
    #: (lowest outcome, what it means): outcomes from there up are marked on the chart,
    #: e.g. the morale totals that break
    zone: tuple[int, str] | None = None
    #: the result key of a chance to draw as a line across the bars (scaled to 1): the
    #: chance a balance search wanted
    line: str = ""


@dataclass(frozen=True)
class HandOn:
    """A result another calculator takes as an input: the page shows a button that puts
    the value ``key`` of the result into each target's field, on the same page or (by a
    link with the value) on the target's own page."""

    #: the result value handed on; "@inputs": the widget's own inputs (as one JSON text)
    key: str
    label: str
    #: (receiving calculator, the field it fills; "*": each field of a result value that
    #: is an object of inputs), each
    targets: tuple[tuple[str, str], ...]
    #: other fields of the receiving calculators set with it: (field, value), each (the
    #: balance search's chance wanted, "even", with the fight handed to it)
    also: tuple[tuple[str, str], ...] = ()
    #: other result values the page is told of when it is handed on (handon.js HANDED_ON:
    #: the army battle's balance tells the army builder of its roster scaled)
    tells: tuple[str, ...] = ()


@dataclass(frozen=True)
class Calculator:
    """One calculator: the contract of ``api.run(name, inputs)``.

    ``compute`` receives validated inputs and returns the JSON-safe result.
    ``explain`` returns Markdown (the step-by-step breakdown, with links to rules).
    ``headline`` picks the few figures shown large. ``check`` validates across fields
    (raise InputError). ``roll`` resolves the same rule with random faces and returns a
    result with ``summary`` (one line) and ``dice`` (list of {"die", "face"}).
    """

    name: str
    title: str
    summary: str
    fields: tuple[Field, ...]
    compute: Callable[[dict[str, Any]], Result]
    explain: Callable[[dict[str, Any], Result], str]
    headline: Callable[[Result], list[tuple[str, str]]]
    charts: tuple[Chart, ...] = ()
    check: Callable[[dict[str, Any]], None] | None = None
    roll: Callable[[dict[str, Any], random.Random], Result] | None = None
    roll_label: str = "Roll"
    #: page (site-relative, e.g. "gunplay/difficulty/") where the rule is explained
    page: str = ""
    #: a whole fight: its answers from the one cascade, which sharpen
    #: (:class:`rules_core.cascade.Sharpened`; ``compute`` is its settled answer)
    sharpen: Sharpened | None = None
    #: a result value other calculators take (the page's "hand on" button), if any
    hand_on: HandOn | None = None
    #: the result's ``stats`` are a unit the army builder takes ("Add to roster")
    adds_to_roster: bool = False

    def spec(self) -> dict[str, Any]:
        """The calculator's public description: title, summary and its form fields."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "page": self.page,
            "fields": [f.form() for f in self.fields],
            "initial": initial_inputs(self.fields),
            "can_roll": self.roll is not None,
            "refines": self.sharpen is not None,
            "roll_label": self.roll_label,
        }
