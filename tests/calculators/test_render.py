"""The shared result renderer: charts that stay readable (long labels, many outcomes,
phones, dark mode), the table that carries the same numbers, and safe output."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from calculators.render import chart, chart_layout, markdown, response_html, roll_html
from rules_core import api
from rules_core.catalog import calculators
from rules_core.dice.distribution import chance, percent
from rules_core.fields import initial_inputs


class _Tree(HTMLParser):
    """Just enough structure to check the chart: bars per view, their labels and widths."""

    def __init__(self) -> None:
        super().__init__()
        self.views: dict[str, list[dict[str, str]]] = {}
        self.rows: list[list[str]] = []
        self._view: str | None = None
        self._bar: dict[str, str] | None = None
        self._span: str | None = None
        self._row: list[str] | None = None
        self._cell = False
        self.open_tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        cls = a.get("class", "").split()
        self.open_tags.append(tag)
        if "calc-bars" in cls:
            self._view = next(c[len("calc-view-"):] for c in cls if c.startswith("calc-view-"))
            self.views[self._view] = []
            self.views[self._view + ":attrs"] = [a]  # type: ignore[list-item]
        if "calc-bar" in cls and self._view:
            self._bar = {"style": a.get("style", ""), "title": a.get("title", ""),
                         "class": a.get("class", "")}
            self.views[self._view].append(self._bar)
        if self._bar is not None and tag == "span" and cls:
            self._span = cls[0]
        if tag == "tr":
            self._row = []
        if tag in ("td", "th") and self._row is not None:
            self._cell = True
            self._row.append("")

    def handle_endtag(self, tag: str) -> None:
        if self.open_tags:
            self.open_tags.pop()
        if tag == "span":
            self._span = None
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        if tag in ("td", "th"):
            self._cell = False

    def handle_data(self, data: str) -> None:
        if self._bar is not None and self._span in ("calc-bar-label", "calc-bar-value"):
            self._bar[self._span] = self._bar.get(self._span, "") + data
        if self._cell and self._row is not None:
            self._row[-1] += data


def parse(html: str) -> _Tree:
    tree = _Tree()
    tree.feed(html)
    return tree


def spec(key: str = "dist", ordered: bool = True) -> dict:
    return {"key": key, "title": "Hits", "outcome_label": "Hits", "ordered": ordered}


def result(dist: dict[str, Fraction], key: str = "dist") -> dict:
    return {key: {k: float(v) for k, v in dist.items()},
            key + "_exact": {k: str(v) for k, v in dist.items()}}


@pytest.mark.parametrize("labels,layout", [
    (["0", "1", "2"], "few"),
    ([str(i) for i in range(6)], "few"),
    ([str(i) for i in range(7)], "some"),
    ([str(i) for i in range(12)], "some"),
    ([str(i) for i in range(17)], "many"),
    (["d4", "d6", "d8", "d10", "d12"], "few"),
    (["Destroyed", "Suppressed", "No effect"], "rows"),
    (["0", "1", "Ultra"], "rows"),
])
def test_long_labels_get_rows_and_short_labels_columns_by_count(labels: list[str],
                                                                layout: str) -> None:
    assert chart_layout(labels) == layout


def test_ordered_chart_has_three_views_scaled_to_the_largest_bar() -> None:
    dist = {"0": Fraction(1, 2), "1": Fraction(1, 5), "2": Fraction(1, 5), "3": Fraction(1, 10)}
    html = chart(spec(), result(dist), "w")
    tree = parse(html)
    assert [v for v in tree.views if ":" not in v] == ["exactly", "at_least", "at_most"]
    exactly = tree.views["exactly"]
    assert [b["calc-bar-label"] for b in exactly] == ["0", "1", "2", "3"]
    assert [b["calc-bar-value"] for b in exactly] == ["50.0%", "20.0%", "20.0%", "10.0%"]
    assert [b["style"] for b in exactly] == ["--v:1.0000", "--v:0.4000", "--v:0.4000",
                                              "--v:0.2000"]
    at_least = [b["calc-bar-value"] for b in tree.views["at_least"]]
    at_most = [b["calc-bar-value"] for b in tree.views["at_most"]]
    assert at_least == ["100.0%", "50.0%", "30.0%", "10.0%"]
    assert at_most == ["50.0%", "70.0%", "90.0%", "100.0%"]
    assert 'data-layout="few"' in html and "calc-bars-few" in html
    # one radio group per chart, named by widget and key, "exactly" first; an ordered
    # chart opens on "at least" (the threshold question) and only that view is checked
    assert html.count('type="radio" name="w-dist-view"') == 3
    assert re.search(r'value="at_least" checked', html) and html.count(" checked") == 1


def test_unordered_chart_has_one_view_and_no_toggle() -> None:
    dist = {"Destroyed": Fraction(1, 6), "Suppressed": Fraction(0), "No effect": Fraction(5, 6)}
    html = chart(spec(ordered=False), result(dist), "w")
    tree = parse(html)
    assert [v for v in tree.views if ":" not in v] == ["exactly"]
    assert "calc-chart-toggle" not in html
    bars = tree.views["exactly"]
    assert "calc-bar-zero" in bars[1]["class"]  # a 0% bar is drawn as no bar at all
    assert "calc-bars-rows" in html  # word labels: horizontal bars, never overlapping


def test_chart_is_one_labelled_image_and_the_table_has_every_number() -> None:
    dist = {"0": Fraction(239, 2304), "4": Fraction(355, 1152), "6": Fraction(1355, 2304)}
    html = chart(spec(), result(dist), "w")
    tree = parse(html)
    attrs = tree.views["exactly:attrs"][0]  # type: ignore[index]
    assert attrs["role"] == "img"
    assert "most likely 6 (58.8%)" in attrs["aria-label"]
    body = [row for row in tree.rows if row and row[0] in dist]
    assert body == [
        ["0", "10.4%", "100.0%", "10.4%", "239/2304"],
        ["4", "30.8%", "89.6%", "41.2%", "355/1152"],
        ["6", "58.8%", "58.8%", "100.0%", "1355/2304"],
    ]
    assert '<th scope="col">Exactly</th>' in html and "<caption" in html


def test_chart_without_exact_fractions_shows_the_floats_rounded_and_says_why() -> None:
    """A whole fight leaves an exact twin out when a fraction is past 4,000 digits: the
    table shows the percentages only and says so; no fraction is made up from a float."""
    html = chart(spec(), {"dist": {"1": 0.25, "2": 0.75}}, "w")
    tree = parse(html)
    assert [row for row in tree.rows if row[0] in ("1", "2")] == [
        ["1", "25.0%", "100.0%", "25.0%"], ["2", "75.0%", "75.0%", "100.0%"]]
    assert ">Exact</th>" not in html and "/<wbr>" not in html and "data-exact" not in html
    assert "The exact fractions are too long to show" in html


def test_chart_of_a_pruned_walk_or_a_simulation_says_why_it_is_rounded() -> None:
    """No exact twin because the walk left the least likely ways out (its bound said), or
    because the answer is a simulation: the note says which, not that fractions are long."""
    pruned = chart(spec(), {"dist": {"1": 0.25, "2": 0.75}, "error_bound": 1.4e-7}, "w")
    assert "each chance is at most 1 in 7.1 million below the exact one" in pruned
    assert "too long to show" not in pruned and "data-exact" not in pruned
    simulated = chart(spec(), {"dist": {"1": 0.25, "2": 0.75}, "method": "simulation"}, "w")
    assert "A simulation: each chance is the share of the fights played" in simulated
    assert "too long to show" not in simulated


def test_labels_and_titles_are_escaped() -> None:
    dist = {"<img src=x>": Fraction(1, 2), '"quoted"': Fraction(1, 2)}
    bad = {"key": "d", "title": "<script>x</script>", "outcome_label": "<b>", "ordered": False}
    html = chart(bad, result(dist, "d"), 'w"')
    assert "<img" not in html and "<script>" not in html and "<b>" not in html
    assert "&lt;img src=x&gt;" in html and "&quot;quoted&quot;" in html


def test_charts_carry_no_title_attributes() -> None:
    # every bar writes its label and value out; a title would add nothing for a reader and
    # make Material's content.tooltips mount a tooltip per bar (hundreds on a page of charts,
    # a long task measured by benchmarks/lighthouse.py)
    dist = {str(k): Fraction(1, 20) for k in range(20)}
    html = chart(spec("d"), result(dist, "d"), "w")
    assert 'class="calc-bar' in html and "title=" not in html


@pytest.mark.parametrize("p,text", [(0, "0.0%"), (1e-6, "<0.1%"), (0.5, "50.0%"),
                                    (0.99999, ">99.9%"), (1, "100.0%")])
def test_percentages_never_round_a_chance_to_certainty(p: float, text: str) -> None:
    assert percent(p) == text


def test_explanation_tables_get_the_widget_table_class() -> None:
    html = markdown("| a | b |\n| - | - |\n| 1 | 2 |\n", "../")
    assert '<table class="calc-md-table">' in html


def test_roll_html_escapes_and_names_each_die() -> None:
    html = roll_html({"result": {"dice": [{"die": "d6<", "face": 4}], "summary": "<hit>"}})
    assert "d6&lt; rolled </span>4" in html and "&lt;hit&gt;" in html


def _default_response(name: str) -> dict:
    calc = calculators()[name]
    return api.run(name, initial_inputs(calc.fields, {}))


#: the apps' engines (the tracker, the roster import) have no chart and need inputs
CHARTED = [n for n in api.names() if calculators()[n].charts]


def test_every_charted_calculator_runs_on_its_starting_inputs() -> None:
    assert CHARTED and all(_default_response(name)["ok"] for name in CHARTED)


@pytest.mark.parametrize("name", CHARTED)
def test_every_calculator_renders_consistent_charts(name: str) -> None:
    """Each chart of each calculator at its starting inputs: one bar per outcome in every
    view, the largest exactly-bar at full scale, values matching the result's floats."""
    response = _default_response(name)
    html = response_html(response, "/", "t")
    assert html.startswith('<dl class="calc-headline">')
    for i, chart_spec in enumerate(response["display"]["charts"]):
        key = chart_spec["key"]
        dist = response["result"][key]
        one = chart(chart_spec, response["result"], "t", table_open=i == 0)
        assert one in html
        # only the first chart's table of exact odds starts open
        assert ('<details class="calc-table" open>' in one) == (i == 0 and len(dist) <= 12)
        tree = parse(one)
        views = [v for v in tree.views if ":" not in v]
        assert len(views) == (3 if chart_spec.get("ordered", True) else 1)
        for view in views:
            assert len(tree.views[view]) == len(dist), (name, key, view)
        exactly = tree.views["exactly"]
        scales = [float(b["style"].removeprefix("--v:")) for b in exactly]
        line = chart_spec.get("line")
        # a chart with a line (a balance search's chance wanted) is drawn to scale, 0 to 1,
        # in rows, the line marked in each bar
        assert scales == [pytest.approx(p, abs=1e-4) for p in dist.values()] if line \
            else max(scales) == 1.0
        for bar, (outcome, p) in zip(exactly, dist.items()):
            assert bar["calc-bar-label"] == str(outcome)
            assert bar["calc-bar-value"] == chance(p)
        layout = "rows" if line else chart_layout([str(k) for k in dist])
        if line:
            assert one.count('class="calc-bar-line"') == len(dist)
            assert f"--line:{response['result'][line]:.4f}" in one
        assert f"calc-bars-{layout}" in one


def test_headline_chart_and_table_agree_on_a_tiny_chance() -> None:
    """Cortex d4 against 6d12: the attacker can win, rarely. The headline says "<0.1%",
    the bar and the table say how rare ("1 in N"), never "0.0%"."""
    response = api.run("cortex.odds", {"attacker": "d4", "defender": "6d12"})
    assert response["ok"], response
    headline = dict(response["display"]["headline"])
    assert headline["Attacker wins"] == "<0.1%"
    html = response_html(response, "/", "t")
    assert "0.0%" not in html.replace("100.0%", "")
    wins = Fraction(response["result"]["p_win_exact"])  # a margin of at least 1
    assert wins < Fraction(1, 1000) and chance(wins).startswith("1 in ")
    assert f"<td>{chance(wins)}</td>" in html


def test_percent_signs_and_bounds_are_escaped_in_bars_and_tables() -> None:
    dist = {"0": Fraction(1, 10**6), "1": Fraction(10**6 - 1, 10**6)}
    html = chart(spec(), result(dist), "w")
    assert "&gt;99.9%" in html
    assert ">99.9%" not in html.replace("&gt;99.9%", "")
    tree = parse(html)
    assert [b["calc-bar-value"] for b in tree.views["exactly"]] == ["1 in 1 million", ">99.9%"]


@pytest.mark.parametrize("p,text", [
    (Fraction(1, 100), "1.0%"), (Fraction(1, 101), "1 in 100"), (Fraction(1, 250), "1 in 250"),
    (Fraction(1, 42_000), "1 in 42,000"), (Fraction(1, 41_960), "1 in 42,000"),
    (Fraction(3, 10**7), "1 in 3.3 million"), (Fraction(1, 10**9), "1 in 1 billion"),
    (Fraction(7, 10**14), "1 in 14 trillion"), (Fraction(1, 10**15), "1 in 10¹⁵"),
    (Fraction(3, 10**20), "1 in 3.3 × 10¹⁹"), (Fraction(1, 7 * 10**900), "1 in 7 × 10⁹⁰⁰"),
    (5e-324, "1 in 2 × 10³²³"), (0.004, "1 in 250"), (0, "0.0%"), (0.5, "50.0%")])
def test_a_rare_chance_reads_one_in_n_and_never_a_long_number(p: Fraction | float, text: str) -> None:
    """Below 1% a chance reads "1 in N" (N to two figures, words past a million, a power
    of ten past a trillion); from 1% it is the percentage."""
    assert chance(p) == text


def test_bars_sit_in_one_container_that_carries_the_layout() -> None:
    """The stylesheet's one column rule set keys on .calc-views and its data-layout."""
    for n, layout in ((3, "few"), (9, "some"), (15, "many")):
        dist = {str(i): Fraction(1, n) for i in range(n)}
        html = chart(spec(), result(dist), "w")
        assert f'<div class="calc-views" data-layout="{layout}">' in html
