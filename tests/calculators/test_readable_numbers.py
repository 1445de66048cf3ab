"""Readable numbers in every result (issue 30): no calculator, at its starting inputs or
at the heaviest whole fights, shows a reader a run of more than 60 digits: chances are
percentages or "1 in N", and an exact fraction too long for a line is offered whole to
copy or download (it lives in an attribute) instead of being printed."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from calculators.render import chart, compare_html, response_html, roll_html
from rules_core import api
from rules_core.catalog import calculators
from rules_core.fields import initial_inputs

#: the longest run of digits a reader may be shown
MAX_DIGITS = 60

#: the whole fights at their heaviest: the longest exact fractions there are (the Heroic
#: one at 100 rounds goes past 4,000 digits, so its result has no exact twins at all)
HEAVY: dict[str, dict[str, Any]] = {
    "heroic.engagement": {"max_rounds": 100},
    "cortex.engagement": {"max_rounds": 100},
    "sucs.engagement": {"max_rounds": 100},
    "phases.engagement": {"max_rounds": 100},
    "gunplay.engagement": {"max_rounds": 100},
}


class _Shown(HTMLParser):
    """What a reader is given: the text, and the labels a screen reader reads out
    (``aria-label``); never the other attributes, where a full fraction may wait."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts += [v or "" for k, v in attrs if k == "aria-label"]

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(html: str) -> str:
    shown = _Shown()
    shown.feed(html)
    shown.close()
    return " ".join(shown.parts)


def longest_run(html: str) -> int:
    return max((len(run) for run in re.findall(r"\d+", visible_text(html))), default=0)


CASES = [(name, "start") for name in calculators()] + [(name, "heavy") for name in HEAVY]


def _inputs(name: str, case: str) -> dict[str, Any]:
    start = initial_inputs(calculators()[name].fields)
    return {**start, **HEAVY[name]} if case == "heavy" else start


@cache
def _run(name: str, case: str) -> dict[str, Any]:
    response = api.run(name, _inputs(name, case))
    assert response["ok"], response
    return response


@pytest.mark.parametrize("name,case", CASES)
def test_no_result_shows_a_run_of_more_than_60_digits(name: str, case: str) -> None:
    response = _run(name, case)
    html = response_html(response, "/", "t")
    assert longest_run(html) <= MAX_DIGITS, (name, case)
    # setup A (the starting inputs) beside this one: the compare view too
    spec = api.spec(name)
    both = compare_html(spec, _inputs(name, "start"), _run(name, "start"), _inputs(name, case), response)
    assert longest_run(both) <= MAX_DIGITS, (name, case)
    if spec["can_roll"]:
        rolled = api.roll(name, _inputs(name, case), random.Random(30))
        # (the tracker's starting event is not a roll: a refusal is a message, no dice)
        assert longest_run(roll_html(rolled) if rolled["ok"] else str(rolled["error"])) <= MAX_DIGITS


@pytest.mark.parametrize("name", list(HEAVY))
def test_every_exact_fraction_of_a_fight_is_in_the_page_whole_or_said_to_be_too_long(name: str) -> None:
    """Each whole fight at its heaviest: every fraction of its exact twins is in the
    result HTML whole (in an attribute when it is too long to print); a chart without a
    twin says its fractions are too long to show and shows no "exact" fraction."""
    response = _run(name, "heavy")
    html = response_html(response, "/", "t")
    result = response["result"]
    for chart_spec in response["display"]["charts"]:
        exact = result.get(chart_spec["key"] + "_exact")
        one = chart(chart_spec, result, "t")
        if exact is None:
            assert "The exact fractions are too long to show" in one and "data-exact" not in one
            assert ">Exact</th>" not in one
        else:
            for value in exact.values():
                assert f'data-exact="{value}"' in one
    if name == "heroic.engagement":  # past 4,000 digits: the case this is about
        assert "outcomes_exact" not in result and "too long to show" in html


def test_an_exact_fraction_is_written_out_only_when_it_fits_a_short_line() -> None:
    short = Fraction(123456789, 987654321)
    huge = Fraction(3**300, 2**900 + 1)
    dist = {"short": short, "huge": huge, "rest": 1 - short - huge}
    spec = {"key": "d", "title": "Hits", "outcome_label": "Hits", "ordered": False}
    html = chart(spec, {"d": {k: float(v) for k, v in dist.items()},
                        "d_exact": {k: str(v) for k, v in dist.items()}}, "w")
    # written out, breaking after the slash on a phone or between groups of three digits,
    # never inside a group
    assert (f'<td class="calc-exact-wrap" data-exact="{short}">'
            '<span class="calc-digits">13</span><wbr><span class="calc-digits">717</span><wbr>'
            '<span class="calc-digits">421</span>/<wbr><span class="calc-digits">109</span><wbr>'
            '<span class="calc-digits">739</span><wbr><span class="calc-digits">369</span></td>'
            ) in html
    digits = len(str(huge)) - 1
    # too long: its size and a Copy button; the whole fraction in the cell for the button
    # and for the table's download
    assert (f'<td class="calc-exact-long" data-exact="{huge}"><span class="calc-exact-size">'
            f'{digits:,} digits</span> <button type="button" class="calc-copy-exact" '
            f'data-action="copy-exact"') in html
    assert 'data-action="download-exact"' in html
    assert longest_run(html) <= MAX_DIGITS
