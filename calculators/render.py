"""One HTML rendering of a calculator response, used at build time and in the browser.

Everything dynamic is escaped here; the explanation Markdown is rendered with raw HTML
disabled. Links to rules are root-relative in the core and are pointed at ``root``.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

from markdown_it import MarkdownIt

from rules_core.dice.distribution import percent

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")

CHART_VIEWS = (("exactly", "Exactly"), ("at_least", "At least"), ("at_most", "At most"))


def markdown(text: str, root: str) -> str:
    """Markdown to HTML with raw HTML off; "/page/#x" links become root-relative."""
    tokens = _MD.parse(text)
    for token in tokens:
        if token.type == "table_open":  # styled by the widget, the same before and after JS
            token.attrSet("class", "calc-md-table")
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str) and href.startswith("/") and not href.startswith("//"):
                child.attrSet("href", root + href[1:])
    return _MD.renderer.render(tokens, _MD.options, {})


def chance_views(exact: list[Fraction], ordered: bool) -> dict[str, list[Fraction]]:
    """The chance of exactly, at least and at most each outcome (the last two only for
    ordered outcomes), as exact fractions."""
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


#: outcome labels longer than this many characters are drawn as horizontal bars
SHORT_LABEL = 4


def chart_layout(outcomes: list[str]) -> str:
    """How the bars are laid out: ``"rows"`` (horizontal bars, one outcome per line) when
    any label is a word or longer, else a density class for vertical columns:
    ``"few"`` (up to 6, columns at any width), ``"some"`` (7-12) or ``"many"`` (13+),
    which the stylesheet turns into rows when the chart is too narrow for the columns."""
    if any(len(o) > SHORT_LABEL for o in outcomes):
        return "rows"
    n = len(outcomes)
    return "few" if n <= 6 else "some" if n <= 12 else "many"


_VIEW_WORDS = {"exactly": "exactly", "at_least": "at least", "at_most": "at most"}


def _bars(view: str, outcomes: list[str], values: list[Fraction], title: str,
          outcome_label: str, layout: str) -> str:
    """One view of a chart: a labelled bar per outcome, scaled to the largest chance.

    Plain HTML and CSS rather than SVG or a chart library: text stays at reading size at
    any width, the layout switches between columns and rows with the space available,
    colours follow the light and dark schemes, and nothing is added to the page weight.
    The picture is one image to assistive technology; the numbers are in the table."""
    top = max(values, default=Fraction(0)) or Fraction(1)
    best = max(range(len(values)), key=lambda i: values[i]) if values else None
    words = _VIEW_WORDS[view]
    summary = f"{title}: bars for the chance of {words} each outcome ({outcome_label})"
    if best is not None and view == "exactly":
        summary += f"; most likely {outcomes[best]} ({percent(values[best])})"
    out = [f'<div class="calc-bars calc-view-{escape(view)} calc-bars-{escape(layout)}" role="img" '
           f'aria-label="{escape(summary)}. The table of exact odds has every figure.">']
    for outcome, p in zip(outcomes, values):
        label, pct = escape(outcome), escape(percent(p))
        zero = " calc-bar-zero" if p == 0 else ""
        out.append(f'<div class="calc-bar{zero}" title="{label}: {pct}" '
                   f'style="--v:{float(p / top):.4f}">'
                   f'<span class="calc-bar-label">{label}</span>'
                   f'<span class="calc-bar-track"><span class="calc-bar-fill"></span></span>'
                   f'<span class="calc-bar-value">{pct}</span></div>')
    out.append("</div>")
    return "".join(out)


#: exact fractions longer than this (characters) fold away on a phone until asked for
LONG_FRACTION = 12


def default_view(ordered: bool) -> str:
    """The view a chart opens on: "at least" for ordered outcomes, the threshold question
    a reader asks (hit on a total of at least the DC, at least two hits, break on 13 or
    more); "exactly" for outcomes without an order."""
    return "at_least" if ordered else "exactly"


def chart(chart_spec: dict[str, Any], result: dict[str, Any], uid: str,
          table_open: bool = True) -> str:
    """A distribution as a bar chart (exactly / at least / at most views when the
    outcomes are ordered) followed by the same figures as an accessible table, open when
    ``table_open`` and short."""
    key = chart_spec["key"]
    exact_map = result.get(key + "_exact") or {k: str(Fraction(v).limit_denominator(10**9))
                                               for k, v in result[key].items()}
    outcomes = [str(k) for k in exact_map]
    exact = [Fraction(v) for v in exact_map.values()]
    views = chance_views(exact, chart_spec.get("ordered", True))
    start = default_view(len(views) > 1)
    layout = chart_layout(outcomes)
    name = f"{uid}-{key}-view"
    title = escape(chart_spec["title"])
    out = [f'<figure class="calc-chart" data-chart="{escape(key)}" data-layout="{escape(layout)}">',
           f'<figcaption class="calc-chart-title">{title}</figcaption>']
    if len(views) > 1:
        out.append('<fieldset class="calc-chart-toggle"><legend class="calc-sr">'
                   f'{title}: show the chance of</legend>')
        for view, label in CHART_VIEWS:
            checked = " checked" if view == start else ""
            out.append(f'<label><input type="radio" name="{escape(name)}" value="{escape(view)}"'
                       f'{checked}><span>{escape(label)}</span></label>')
        out.append("</fieldset>")
    out.append(f'<div class="calc-views" data-layout="{escape(layout)}">')
    for view, values in views.items():
        out.append(_bars(view, outcomes, values, chart_spec["title"],
                         chart_spec["outcome_label"], layout))
    out.append("</div>")
    heads = [escape(chart_spec["outcome_label"])] + [escape(label) for v, label in CHART_VIEWS
                                                     if v in views]
    long = max((len(str(p)) for p in exact), default=0) > LONG_FRACTION
    toggle = ('<label class="calc-show-exact"><input type="checkbox"> Show the exact fractions</label>'
              if long else "")
    out.append('<details class="calc-table"' + (" open" if table_open and len(outcomes) <= 12 else "")
               + f'><summary>Table of exact odds</summary>{toggle}<div class="calc-scroll">'
               f'<table class="calc-odds{" calc-long-exact" if long else ""}">'
               f'<caption class="calc-sr">{title}</caption><thead><tr>'
               + "".join(f"<th scope=\"col\">{h}</th>" for h in heads)
               + '<th scope="col">Exact</th></tr></thead><tbody>')
    for i, outcome in enumerate(outcomes):
        cells = "".join(f"<td>{escape(percent(views[v][i]))}</td>"
                        for v, _ in CHART_VIEWS if v in views)
        fraction = escape(str(exact[i])).replace("/", "/<wbr>")  # breaks there on a phone
        out.append(f'<tr><th scope="row">{escape(outcome)}</th>{cells}<td>{fraction}</td></tr>')
    out.append("</tbody></table></div></details></figure>")
    return "".join(out)


def response_html(response: dict[str, Any], root: str, uid: str) -> str:
    """The result area for a successful ``api.run`` response."""
    display = response["display"]
    parts = ['<dl class="calc-headline">']
    for label, value in display["headline"]:
        parts.append(f"<div><dt>{escape(str(label))}</dt><dd>{escape(str(value))}</dd></div>")
    parts.append("</dl>")
    if display["charts"]:
        parts.append('<div class="calc-charts">')
        for i, spec in enumerate(display["charts"]):  # only the first table starts open
            parts.append(chart(spec, response["result"], uid, table_open=i == 0))
        parts.append("</div>")
    if response.get("explanation"):
        parts.append('<details class="calc-explanation" open><summary>How this was worked out'
                     '</summary><div class="calc-explanation-body">'
                     + markdown(response["explanation"], root) + "</div></details>")
    return "".join(parts)


#: results that other calculators take as an input: (result key, button label, the
#: calculators that receive it and the field it fills). The difficulty's DC goes to the
#: hit calculators, on the same page or (by a link with the value) on theirs.
HAND_ON = {
    "gunplay.difficulty": ("dc", "Use this DC to hit",
                           (("gunplay.hit_chance", "dc"), ("gunplay.hit_odds", "dc"))),
}


def default_uid(name: str) -> str:
    """The widget id a page gives a calculator's first widget (``gunplay.hit_odds`` ->
    ``hit-odds``), the address fragment of its inputs in a link."""
    return name.split(".", 1)[-1].replace("_", "-")


def hand_on(name: str, spec_of: Any) -> dict[str, Any] | None:
    """What the "hand on" button of calculator ``name`` needs: the result key, its label
    and each receiving calculator's title, page, widget id and field (``spec_of`` is
    ``api.spec``)."""
    if name not in HAND_ON:
        return None
    key, label, targets = HAND_ON[name]
    out = []
    for target, field in targets:
        spec = spec_of(target)
        out.append({"calculator": target, "title": spec["title"], "page": spec["page"].strip("/") + "/",
                    "uid": default_uid(target), "field": field})
    return {"key": key, "label": label, "targets": out}


def value_in_words(field: dict[str, Any], value: Any) -> str:
    """One input as the form shows it: a choice by its label, a tick box as yes or no,
    a number with its unit, a list as its items."""
    if field.get("kind") == "bool":
        return "yes" if value is True else "no"
    if value is None:
        return str(field.get("none_label") or "(none)")
    for choice, label in field.get("choices") or ():
        if str(choice) == str(value):
            return str(label)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return "; ".join(f"{k} {v}" for k, v in value.items())
    unit = field.get("unit")
    return f"{value} {unit}" if unit else str(value)


def inputs_in_words(spec: dict[str, Any], inputs: dict[str, Any]) -> list[list[str]]:
    """[label, value in words] for each input given, in the form's order."""
    return [[str(f["label"]), value_in_words(f, inputs[f["name"]])]
            for f in spec["fields"] if f["name"] in inputs]


def roll_record(spec: dict[str, Any], inputs: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    """What the session log keeps of a real roll: the calculator, its inputs in words,
    the dice and the outcome (the page adds the time and the page address)."""
    result = response["result"]
    return {
        "calculator": spec["name"],
        "title": spec["title"],
        "inputs": inputs_in_words(spec, inputs) if isinstance(inputs, dict) else [],
        "dice": [{"die": str(d.get("die", "")), "face": str(d.get("face", ""))}
                 for d in result.get("dice", []) if isinstance(d, dict)],
        "outcome": str(result.get("summary", "")),
    }


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
