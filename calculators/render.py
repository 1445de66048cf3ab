"""One HTML rendering of a calculator response, used at build time and in the browser.

Everything dynamic is escaped here; the explanation Markdown is rendered with raw HTML
disabled. Links to rules are root-relative in the core and are pointed at ``root``.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")

CHART_VIEWS = (("exactly", "Exactly"), ("at_least", "At least"), ("at_most", "At most"))


def markdown(text: str, root: str) -> str:
    """Markdown to HTML with raw HTML off; "/page/#x" links become root-relative."""
    tokens = _MD.parse(text)
    for token in tokens:
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str) and href.startswith("/") and not href.startswith("//"):
                child.attrSet("href", root + href[1:])
    return _MD.renderer.render(tokens, _MD.options, {})


def _pct(p: float) -> str:
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def _views(outcomes: list[str], exact: list[Fraction], ordered: bool) -> dict[str, list[Fraction]]:
    views = {"exactly": exact}
    if ordered:
        running, at_most = Fraction(0), []
        for p in exact:
            running += p
            at_most.append(running)
        total = running
        views["at_least"] = [total - (at_most[i - 1] if i else 0) for i in range(len(exact))]
        views["at_most"] = at_most
    return views


def chart(chart_spec: dict[str, Any], result: dict[str, Any], uid: str) -> str:
    """A distribution as an SVG bar chart (three views) plus an accessible table."""
    key = chart_spec["key"]
    exact_map = result.get(key + "_exact") or {k: str(Fraction(v).limit_denominator(10**9))
                                               for k, v in result[key].items()}
    outcomes = list(exact_map)
    exact = [Fraction(exact_map[k]) for k in outcomes]
    views = _views(outcomes, exact, chart_spec.get("ordered", True))
    name = f"{uid}-{key}-view"
    title = escape(chart_spec["title"])
    out = [f'<figure class="calc-chart" data-chart="{escape(key)}">',
           f'<figcaption>{title}</figcaption>']
    if len(views) > 1:
        out.append('<fieldset class="calc-chart-toggle"><legend class="calc-sr">'
                   'Show the chance of</legend>')
        for i, (view, label) in enumerate(CHART_VIEWS):
            checked = " checked" if i == 0 else ""
            out.append(f'<label><input type="radio" name="{escape(name)}" value="{view}"'
                       f'{checked}> {label}</label>')
        out.append("</fieldset>")
    bar_w, gap, height = 28, 6, 120
    width = max(len(outcomes), 1) * (bar_w + gap)
    for view, values in views.items():
        out.append(f'<svg class="calc-bars calc-view-{view}" viewBox="0 0 {width} {height + 34}" '
                   f'role="img" aria-label="{title}: {escape(view.replace("_", " "))}" '
                   f'preserveAspectRatio="xMinYMin meet">')
        for i, (outcome, p) in enumerate(zip(outcomes, values)):
            x, h = i * (bar_w + gap), round(float(p) * height, 2)
            out.append(f'<g><title>{escape(outcome)}: {_pct(float(p))}</title>'
                       f'<rect x="{x}" y="{height - h}" width="{bar_w}" height="{h}" rx="2"/>'
                       f'<text x="{x + bar_w / 2}" y="{height + 14}">{escape(outcome)}</text>'
                       f'<text class="calc-bar-value" x="{x + bar_w / 2}" y="{height + 28}">'
                       f'{round(float(p) * 100)}</text></g>')
        out.append("</svg>")
    heads = [escape(chart_spec["outcome_label"])] + [label for v, label in CHART_VIEWS if v in views]
    out.append('<details class="calc-table"' + (" open" if len(outcomes) <= 12 else "") + ">"
               "<summary>Table of exact odds</summary><table><thead><tr>"
               + "".join(f"<th scope=\"col\">{h}</th>" for h in heads)
               + '<th scope="col">Exact</th></tr></thead><tbody>')
    for i, outcome in enumerate(outcomes):
        cells = "".join(f"<td>{_pct(float(views[v][i]))}</td>" for v, _ in CHART_VIEWS if v in views)
        out.append(f'<tr><th scope="row">{escape(outcome)}</th>{cells}'
                   f"<td>{escape(str(exact[i]))}</td></tr>")
    out.append("</tbody></table></details></figure>")
    return "".join(out)


def response_html(response: dict[str, Any], root: str, uid: str) -> str:
    """The result area for a successful ``api.run`` response."""
    display = response["display"]
    parts = ['<dl class="calc-headline">']
    for label, value in display["headline"]:
        parts.append(f"<div><dt>{escape(str(label))}</dt><dd>{escape(str(value))}</dd></div>")
    parts.append("</dl>")
    for spec in display["charts"]:
        parts.append(chart(spec, response["result"], uid))
    if response.get("explanation"):
        parts.append('<details class="calc-explanation" open><summary>How this was worked out'
                     "</summary>" + markdown(response["explanation"], root) + "</details>")
    return "".join(parts)


def roll_html(response: dict[str, Any]) -> str:
    """The dice of a real roll and its one-line verdict."""
    result = response["result"]
    dice = "".join(
        f'<span class="calc-die" title="{escape(str(d["die"]))}">'
        f'<span class="calc-sr">{escape(str(d["die"]))} rolled </span>{escape(str(d["face"]))}</span>'
        for d in result.get("dice", [])
    )
    return (f'<div class="calc-roll-dice">{dice}</div>'
            f'<p class="calc-roll-summary">{escape(str(result.get("summary", "")))}</p>')
