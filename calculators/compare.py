"""Two setups of one calculator side by side: the pinned setup A and the current inputs.

Rendered in Python, like every result, so the build, the command line and the browser
agree: the inputs that differ, the headline figures with their change, and each
distribution of both setups on one chart (two bars per outcome) with a table of the
exact figures. Everything dynamic is escaped here.
"""

from __future__ import annotations

import re
from fractions import Fraction
from html import escape
from typing import Any

from calculators.render import chance_views, inputs_in_words
from rules_core.dice.distribution import percent

#: a headline figure that starts with a number ("45.2%", "1.35 hits", "-2")
_NUMBER = re.compile(r"^\s*(?P<num>[-+−]?\d+(?:[.,]\d+)?)(?P<rest>.*)$", re.S)


def _parse(value: str) -> tuple[float, int, str] | None:
    """(number, decimals shown, what follows it) or None for a figure without a number."""
    match = _NUMBER.match(value)
    if not match:
        return None
    text = match.group("num").replace("−", "-").replace(",", ".")
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return float(text), decimals, match.group("rest").strip()


def headline_change(before: str, after: str) -> str:
    """The change from setup A's figure to the current one, in words a reader can scan:
    "+3.1 points" for percentages, "-1" for counts, "same", or "changed" for figures
    that are not numbers ("d8" to "d10")."""
    if before == after:
        return "same"
    a, b = _parse(before), _parse(after)
    if a is None or b is None or a[2] != b[2]:
        return "changed"
    decimals = max(a[1], b[1])
    delta = round(b[0] - a[0], decimals)
    if delta == 0:
        return "same"
    sign = "+" if delta > 0 else "−"
    number = f"{abs(delta):.{decimals}f}"
    if a[2].startswith("%"):
        return f"{sign}{number} points"
    return f"{sign}{number}{(' ' + a[2]) if a[2] else ''}"


def _exact(result: dict[str, Any], key: str) -> dict[str, Fraction]:
    exact = result.get(key + "_exact")
    if exact is None:
        exact = {k: Fraction(v).limit_denominator(10**9) for k, v in result.get(key, {}).items()}
    return {str(k): Fraction(v) for k, v in exact.items()}


def _outcome_order(a: list[str], b: list[str]) -> list[str]:
    """Every outcome of either setup: numeric outcomes in numeric order, otherwise
    setup A's order followed by those only the current setup has."""
    merged = list(dict.fromkeys([*a, *b]))
    if all(re.fullmatch(r"-?\d+", o) for o in merged):
        return sorted(merged, key=int)
    return merged


def _chart(chart: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> str:
    """Both setups' distribution of one chart: two bars per outcome, one table."""
    key = chart["key"]
    exact_a, exact_b = _exact(a, key), _exact(b, key)
    outcomes = _outcome_order(list(exact_a), list(exact_b))
    ordered = chart.get("ordered", True)
    view = "at_least" if ordered else "exactly"
    words = "at least" if ordered else "exactly"
    va = chance_views([exact_a.get(o, Fraction(0)) for o in outcomes], ordered)[view]
    vb = chance_views([exact_b.get(o, Fraction(0)) for o in outcomes], ordered)[view]
    top = max([*va, *vb], default=Fraction(0)) or Fraction(1)
    title = escape(chart["title"])
    label = escape(chart["outcome_label"])
    out = [f'<figure class="calc-chart calc-compare-chart" data-chart="{escape(key)}">'
           f'<figcaption class="calc-chart-title">{title}: chance of {words} each outcome</figcaption>'
           f'<p class="calc-compare-key"><span class="calc-key-a">Setup A</span> '
           f'<span class="calc-key-b">Current</span></p>'
           f'<div class="calc-compare-bars" role="img" aria-label="{title}: the chance of {words} '
           f'each outcome for setup A and for the current setup. The table below has every figure.">']
    for outcome, pa, pb in zip(outcomes, va, vb):
        out.append(f'<div class="calc-cbar"><span class="calc-bar-label">{escape(outcome)}</span>'
                   f'<span class="calc-cbar-tracks">'
                   f'<span class="calc-cbar-a" style="--v:{float(pa / top):.4f}"></span>'
                   f'<span class="calc-cbar-b" style="--v:{float(pb / top):.4f}"></span></span>'
                   f'<span class="calc-bar-value">{escape(percent(pa))}<br>{escape(percent(pb))}</span>'
                   f'</div>')
    out.append('</div><details class="calc-table"><summary>Table of both setups</summary>'
               f'<div class="calc-scroll"><table class="calc-odds"><caption class="calc-sr">{title}, '
               f'chance of {words} each outcome</caption><thead><tr><th scope="col">{label}</th>'
               '<th scope="col">Setup A</th><th scope="col">Current</th><th scope="col">Change</th>'
               '</tr></thead><tbody>')
    for outcome, pa, pb in zip(outcomes, va, vb):
        out.append(f'<tr><th scope="row">{escape(outcome)}</th><td>{escape(percent(pa))}</td>'
                   f'<td>{escape(percent(pb))}</td>'
                   f'<td>{escape(headline_change(percent(pa), percent(pb)))}</td></tr>')
    out.append("</tbody></table></div></details></figure>")
    return "".join(out)


def compare_html(spec: dict[str, Any], pinned_inputs: dict[str, Any], pinned: dict[str, Any],
                 current_inputs: dict[str, Any], current: dict[str, Any]) -> str:
    """Setup A (``pinned``) and the current setup side by side; both are successful
    ``api.run`` responses of the calculator ``spec``."""
    words_a = dict((k, v) for k, v in inputs_in_words(spec, pinned_inputs))
    words_b = dict((k, v) for k, v in inputs_in_words(spec, current_inputs))
    labels = list(dict.fromkeys([*words_a, *words_b]))
    differ = [(k, words_a.get(k, "(not used)"), words_b.get(k, "(not used)"))
              for k in labels if words_a.get(k) != words_b.get(k)]
    out = ['<section class="calc-compare" aria-label="Setup A and the current setup side by side">',
           '<p class="calc-compare-title">Setup A and the current setup</p>']
    if differ:
        out.append('<div class="calc-scroll"><table class="calc-odds calc-compare-inputs"><caption '
                   'class="calc-sr">Inputs that differ</caption><thead><tr><th scope="col">Input</th>'
                   '<th scope="col">Setup A</th><th scope="col">Current</th></tr></thead><tbody>')
        out += [f'<tr><th scope="row">{escape(k)}</th><td>{escape(a)}</td><td>{escape(b)}</td></tr>'
                for k, a, b in differ]
        out.append("</tbody></table></div>")
    else:
        out.append('<p class="calc-compare-same">The current inputs are the same as setup A: '
                   'change an input to compare.</p>')
    head_a = {str(k): str(v) for k, v in pinned["display"]["headline"]}
    out.append('<div class="calc-scroll"><table class="calc-odds calc-compare-headline"><caption '
               'class="calc-sr">Headline figures</caption><thead><tr><th scope="col">Figure</th>'
               '<th scope="col">Setup A</th><th scope="col">Current</th><th scope="col">Change</th>'
               '</tr></thead><tbody>')
    for label, value in current["display"]["headline"]:
        before = head_a.get(str(label))
        change = headline_change(before, str(value)) if before is not None else "new"
        out.append(f'<tr><th scope="row">{escape(str(label))}</th><td>{escape(before or "—")}</td>'
                   f'<td>{escape(str(value))}</td><td class="calc-change">{escape(change)}</td></tr>')
    out.append("</tbody></table></div>")
    charts_a = {c["key"] for c in pinned["display"]["charts"]}
    shared = [c for c in current["display"]["charts"] if c["key"] in charts_a]
    if shared:
        out.append('<div class="calc-charts">')
        out += [_chart(c, pinned["result"], current["result"]) for c in shared]
        out.append("</div>")
    out.append("</section>")
    return "".join(out)
