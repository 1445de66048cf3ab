"""One HTML rendering of a calculator response, used at build time and in the browser:
results and charts, a real roll, its session-log record, and two setups side by side.

Everything dynamic is escaped here; the explanation Markdown is rendered with raw HTML
disabled. Links to rules are root-relative in the core and are pointed at ``root``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from html import escape
from typing import TYPE_CHECKING, Any

from rules_core import solver
from rules_core.dice.distribution import chance, one_in, percent

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@cache
def markdown_parser() -> MarkdownIt:
    """The explanations' Markdown parser (CommonMark and tables, raw HTML off). Made on
    first use: a calculator page goes live without importing it (the worker imports it
    right after, with the systems, before its memory snapshot: runtime.prepare)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


CHART_VIEWS = (("exactly", "Exactly"), ("at_least", "At least"), ("at_most", "At most"))


def markdown(text: str, root: str) -> str:
    """Markdown to HTML with raw HTML off; "/page/#x" links become root-relative."""
    md = markdown_parser()
    tokens = md.parse(text)
    for token in tokens:
        if token.type == "table_open":  # styled by the widget, the same before and after JS
            token.attrSet("class", "calc-md-table")
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str) and href.startswith("/") and not href.startswith("//"):
                child.attrSet("href", root + href[1:])
    html = md.renderer.render(tokens, md.options, {})
    # a wide table scrolls inside its own box, never the page (raw HTML is off, so every
    # table here is one the Markdown made)
    return html.replace('<table class="calc-md-table">',
                        scroll_box("Table") + '<table class="calc-md-table">') \
        .replace("</table>", "</table></div>")


def scroll_box(label: str) -> str:
    """The opening of a box a wide table scrolls in, sideways, inside the widget: a named
    group that takes keyboard focus, so it can be scrolled without a pointer (WCAG
    2.1.1; axe: scrollable-region-focusable). A group, not a region: a page's landmarks
    are its widgets and their forms, not every table in them (two widgets' tables of the
    same name would be landmarks of the same name). ``label`` is HTML-escaped text."""
    return (f'<div class="calc-scroll" tabindex="0" role="group" '
            f'aria-label="{label} (scrolls sideways when wide)">')


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


def in_zone(outcome: str, zone: Any) -> bool:
    """Whether a numeric outcome lies in a chart's marked zone (``[lowest, meaning]``)."""
    return bool(zone) and re.fullmatch(r"-?\d+", outcome) is not None and int(outcome) >= int(zone[0])


def simulated_chance(p: Fraction | float, trials: int) -> str:
    """A share of ``trials`` simulated fights as a chart shows it: a percentage, never
    "1 in N" (a share cannot tell such odds); a share of none or of all says only what
    the fights played can tell, "under 1.2%", "over 98.8%" (the 95% interval's bound)."""
    k = round(float(p) * trials)
    if k == 0:
        return f"under {percent(solver.wilson(0, trials).high)}"
    if k == trials:
        return f"over {percent(solver.wilson(trials, trials).low)}"
    return percent(p)


def simulated_interval(p: Fraction | float, trials: int) -> str:
    """The 95% interval of a share of ``trials`` simulated fights, "4.6% to 5.3%"."""
    got = solver.wilson(round(float(p) * trials), trials)
    return f"{percent(got.low)} to {percent(got.high)}"


def _bars(view: str, outcomes: list[str], values: list[Fraction], title: str,
          outcome_label: str, layout: str, zone: Any = None,
          say: Callable[[Fraction], str] = chance, line: float | None = None) -> str:
    """One view of a chart: a labelled bar per outcome, scaled to the largest chance.

    Plain HTML and CSS rather than SVG or a chart library: text stays at reading size at
    any width, the layout switches between columns and rows with the space available,
    colours follow the light and dark schemes, and nothing is added to the page weight.
    The picture is one image to assistive technology; the numbers are in the table."""
    # a chart with a line (a chance wanted) is drawn to scale, 0 to 1, the line across it
    top = Fraction(1) if line is not None else max(values, default=Fraction(0)) or Fraction(1)
    best = max(range(len(values)), key=lambda i: values[i]) if values else None
    words = _VIEW_WORDS[view]
    summary = f"{title}: bars for the chance of {words} each outcome ({outcome_label})"
    if best is not None and view == "exactly":
        summary += f"; most likely {outcomes[best]} ({say(values[best])})"
    out = [f'<div class="calc-bars calc-view-{escape(view)} calc-bars-{escape(layout)}" role="img" '
           f'aria-label="{escape(summary)}. The table of odds has every figure."'
           + (f' style="--line:{line:.4f}"' if line is not None else "") + '>']
    mark = '<span class="calc-bar-line"></span>' if line is not None else ""
    for outcome, p in zip(outcomes, values):
        label, pct = escape(outcome), escape(say(p))
        zero = (" calc-bar-zero" if p == 0 else "") + (" calc-bar-zone" if in_zone(outcome, zone) else "")
        # no title: the label and value are written out, and Material's tooltips would
        # mount a component for each titled bar (a long task on a page of charts)
        out.append(f'<div class="calc-bar{zero}" style="--v:{float(p / top):.4f}">'
                   f'<span class="calc-bar-label">{label}</span>'
                   f'<span class="calc-bar-track"><span class="calc-bar-fill"></span>{mark}</span>'
                   f'<span class="calc-bar-value">{pct}</span></div>')
    out.append("</div>")
    return "".join(out)


#: exact fractions longer than this (characters) fold away on a phone until asked for
LONG_FRACTION = 12
#: an exact fraction longer than this (characters, digits and slash) is not written out
#: in a table, nor printed: the reader gets its size, a Copy button and a download of the
#: table's fractions; the page never shows a run of more than 60 digits
SHORT_EXACT = 60


def _grouped(digits: str) -> str:
    """A whole number's digits in groups of three from the right, each group its own
    span, with a line break allowed between groups (never inside one)."""
    head = len(digits) % 3 or 3
    groups = [digits[:head], *(digits[i:i + 3] for i in range(head, len(digits), 3))]
    return "<wbr>".join(f'<span class="calc-digits">{escape(g)}</span>' for g in groups)


def exact_cell(outcome: str, fraction: Fraction) -> str:
    """The "Exact" cell of an odds table: the fraction when it fits a short line (it breaks
    after its slash on a phone, and a longer one between groups of three digits, never
    inside a group); else its size and a Copy button, the whole fraction in the
    cell's ``data-exact`` (widget.js copies it, and downloads a table's)."""
    text = str(fraction)
    if len(text) <= LONG_FRACTION:
        return f'<td data-exact="{escape(text)}">{escape(text).replace("/", "/<wbr>")}</td>'
    if len(text) <= SHORT_EXACT:  # a line may break only between groups of three digits
        return (f'<td class="calc-exact-wrap" data-exact="{escape(text)}">'
                + "/<wbr>".join(_grouped(part) for part in text.split("/")) + "</td>")
    digits = len(text) - 1
    return (f'<td class="calc-exact-long" data-exact="{escape(text)}">'
            f'<span class="calc-exact-size">{digits:,} digits</span> '
            f'<button type="button" class="calc-copy-exact" data-action="copy-exact" '
            f'aria-label="Copy the exact chance of {escape(outcome)}, a fraction of {digits:,} digits">'
            f'Copy</button></td>')


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
    # no exact twin (a whole fight's fractions past thousands of digits): the chances are the
    # floats, shown rounded, and no fraction is made up from them
    exact_map = result.get(key + "_exact")
    chances = exact_map if exact_map is not None else result[key]
    outcomes = [str(k) for k in chances]
    exact = [Fraction(v) for v in chances.values()]
    views = chance_views(exact, chart_spec.get("ordered", True))
    # a simulation's shares say what its fights can tell, each with its interval
    trials = result.get("trials") if result.get("method") == "simulation" else None
    say: Callable[[Fraction], str] = (
        chance if not trials else lambda p: simulated_chance(p, trials))
    start = default_view(len(views) > 1)
    line = float(result[chart_spec["line"]]) if chart_spec.get("line") else None
    layout = "rows" if line is not None else chart_layout(outcomes)
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
                         chart_spec["outcome_label"], layout, chart_spec.get("zone"), say, line))
    out.append("</div>")
    if line is not None:
        out.append(f'<p class="calc-chart-zone"><span class="calc-line-key"></span>'
                   f'The line: the chance wanted, {escape(percent(line))}</p>')
    if chart_spec.get("zone"):
        low, meaning = chart_spec["zone"]
        out.append(f'<p class="calc-chart-zone"><span class="calc-zone-key"></span>'
                   f'{escape(str(low))} or more: {escape(str(meaning))}</p>')
    heads = [escape(chart_spec["outcome_label"])] + [escape(label) for v, label in CHART_VIEWS
                                                     if v in views]
    shown = [len(str(p)) for p in exact if len(str(p)) <= SHORT_EXACT] if exact_map else []
    long = max(shown, default=0) > LONG_FRACTION
    cut = exact_map is not None and len(shown) < len(exact)
    toggle = ('<label class="calc-show-exact"><input type="checkbox"> Show the exact fractions</label>'
              if long else "")
    out.append('<details class="calc-table"' + (" open" if table_open and len(outcomes) <= 12 else "")
               + f'><summary>Table of odds</summary>{toggle}{scroll_box(title)}'
               f'<table class="calc-odds{" calc-long-exact" if long else ""}">'
               f'<caption class="calc-sr">{title}</caption><thead><tr>'
               + "".join(f"<th scope=\"col\">{h}</th>" for h in heads)
               + ('<th scope="col">Exact</th>' if exact_map else "")
               + ('<th scope="col">95% interval</th>' if trials else "")
               + '</tr></thead><tbody>')
    for i, outcome in enumerate(outcomes):
        cells = "".join(f"<td>{escape(say(views[v][i]))}</td>"
                        for v, _ in CHART_VIEWS if v in views)
        if trials:
            cells += f"<td>{escape(simulated_interval(exact[i], trials))}</td>"
        if exact_map:
            cells += exact_cell(outcome, exact[i])
        row = ' class="calc-row-zone"' if in_zone(outcome, chart_spec.get("zone")) else ""
        out.append(f'<tr{row}><th scope="row">{escape(outcome)}</th>{cells}</tr>')
    out.append("</tbody></table></div>")
    if cut:
        out.append('<p class="calc-exact-note calc-exact-offer">Fractions too long to show: '
                   'Copy one, or <button type="button" class="calc-download-exact" '
                   'data-action="download-exact">download them all</button> (CSV).</p>')
    elif exact_map is None and line is None:
        out.append(f'<p class="calc-exact-note">{escape(rounded_note(result))}</p>')
    out.append("</details></figure>")
    return "".join(out)


def rounded_note(result: dict[str, Any]) -> str:
    """Why a chart shows its chances rounded, with no exact fraction: a walk that left the
    least likely ways out (its bound), a simulation, or fractions too long to print."""
    bound = result.get("error_bound")
    if bound:
        return ("Worked out with the least likely ways left out: each chance is at most "
                f"{one_in(bound)} below the exact one, never above it.")
    if result.get("method") == "simulation":
        played = f" of {result['trials']:,} fights" if result.get("trials") else ""
        return (f"A simulation{played}: each chance is the share of the fights played, with "
                "its 95% interval.")
    return ("The exact fractions are too long to show (thousands of digits): these chances "
            "are rounded.")


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


#: an input's words in the session log are cut to this many characters
WORDS_MAX = 200


def value_in_words(field: dict[str, Any], value: Any) -> str:
    """One input as the form shows it: a choice by its label, a tick box as yes or no,
    a number with its unit, a list as its items."""
    if field.get("kind") == "bool" or isinstance(value, bool):
        return "yes" if value is True else "no"
    if value is None:
        return str(field.get("none_label") or "(none)")
    for choice, label in field.get("choices") or ():
        if str(choice) == str(value):
            return str(label)
    if isinstance(value, (list, tuple)):
        text = ", ".join(value_in_words({}, v) for v in value) or "(none)"
    elif isinstance(value, dict):  # an app's structured input: its plain entries, in short
        text = "; ".join(f"{str(k).replace('_', ' ')} {value_in_words({}, v)}"
                         for k, v in value.items() if not isinstance(v, (dict, list))) or "(data)"
    else:
        unit = field.get("unit")
        text = f"{value} {unit}" if unit else str(value)
    return text if len(text) <= WORDS_MAX else text[:WORDS_MAX - 1] + "…"


def inputs_in_words(spec: dict[str, Any], inputs: dict[str, Any]) -> list[list[str]]:
    """[label, value in words] for each input given, in the form's order."""
    return [[str(f["label"]), value_in_words(f, inputs[f["name"]])]
            for f in spec["fields"] if f["name"] in inputs]


def account(result: dict[str, Any]) -> list[str]:
    """A played fight's account, one line per round (and any line before the first):
    empty for a roll that is not a fight."""
    log = result.get("log")
    if not isinstance(log, list) or not all(isinstance(line, str) for line in log):
        return []
    return log


def roll_record(spec: dict[str, Any], inputs: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    """What the session log keeps of a real roll: the calculator, its inputs in words,
    the dice, the outcome and a fight's round-by-round account (the page adds the time
    and the page address)."""
    result = response["result"]
    return {
        "calculator": spec["name"],
        "title": spec["title"],
        "inputs": inputs_in_words(spec, inputs) if isinstance(inputs, dict) else [],
        "dice": [{"die": str(d.get("die", "")), "face": str(d.get("face", ""))}
                 for d in result.get("dice", []) if isinstance(d, dict)],
        "outcome": str(result.get("summary", "")),
        "account": account(result),
    }


def _dice_html(dice: list[dict[str, Any]]) -> str:
    return "".join(
        f'<span class="calc-die" title="{escape(str(d["die"]))}">'
        f'<span class="calc-sr">{escape(str(d["die"]))} rolled </span>{escape(str(d["face"]))}</span>'
        for d in dice
    )


#: an account line that opens a round ("Round 3: ...")
_ROUND_LINE = re.compile(r"^Round (\d+): ")


def roll_html(response: dict[str, Any]) -> str:
    """A real roll's one-line verdict, then its dice (the verdict first: it is what a
    reader looks for and a screen reader announces first; a long fight's dice scroll).
    A played fight shows, instead of one run of dice, its account round by round: what
    happened and what stood after it, each round with its own dice, and the whole
    account as plain text for copying."""
    result = response["result"]
    summary = f'<p class="calc-roll-summary">{escape(str(result.get("summary", "")))}</p>'
    dice = [d for d in result.get("dice", []) if isinstance(d, dict)]
    lines = account(result)
    told = result.get("account")
    if lines and isinstance(told, list) and told:
        return summary + told_html(told, "\n".join([str(result.get("summary", "")), *lines]))
    if not lines:
        return summary + f'<div class="calc-roll-dice">{_dice_html(dice)}</div>'
    by_round: dict[int, list[dict[str, Any]]] = {}
    for d in dice:
        by_round.setdefault(int(d.get("round", 0)), []).append(d)
    before = by_round.pop(0, [])
    items = []
    for line in lines:
        found = _ROUND_LINE.match(line)
        own = by_round.pop(int(found.group(1)), []) if found else []
        words = (f'<strong>Round {found.group(1)}:</strong> {escape(line[found.end():])}' if found
                 else escape(line))
        items.append(f'<li><p class="calc-round-line">{words}</p>'
                     + (f'<div class="calc-roll-dice">{_dice_html(own)}</div>' if own else "") + "</li>")
    rest = [d for _, ds in sorted(by_round.items()) for d in ds]  # dice of no logged round
    text = "\n".join([str(result.get("summary", "")), *lines])
    return (summary
            + (f'<div class="calc-roll-dice">{_dice_html(before)}</div>' if before else "")
            + f'<div class="calc-roll-account" role="group" aria-label="The fight round by round" tabindex="0">'
            f'<ol class="calc-roll-log">{"".join(items)}</ol>'
            + (f'<div class="calc-roll-dice">{_dice_html(rest)}</div>' if rest else "")
            + "</div>"
            f'<button type="button" class="md-button calc-copy-account" data-action="copy-account" '
            f'data-text="{escape(text)}">Copy the account as text</button>')


def _rolls_html(rolls: Any) -> str:
    """An action's dice, each roll's beside its name ("attack roll 2d6: [5] [1]"): the
    name is on screen, so a screen reader reads it with the faces."""
    out = []
    for roll in rolls if isinstance(rolls, list) else []:
        what = escape(str(roll.get("what", ""))) if isinstance(roll, dict) else ""
        faces = roll.get("faces", []) if isinstance(roll, dict) else []
        out.append(f'<span class="calc-roll-group"><span class="calc-roll-what">{what}:</span> '
                   + " ".join(f'<span class="calc-die" title="{what}">{escape(str(f))}</span>'
                              for f in faces) + "</span>")
    return f'<span class="calc-roll-dice calc-action-dice">{"".join(out)}</span>' if out else ""


def told_html(told: list[Any], text: str) -> str:
    """A fight told action by action (:class:`rules_core.solver.Told`): each round a block
    with its heading, one line per action marked with its side and followed by its own
    dice, and the state after it; then the button that copies ``text``, the same account
    as plain text (the session log keeps that text too)."""
    blocks = []
    for block in told:
        if not isinstance(block, dict):
            continue
        heading = escape(str(block.get("heading", "")))
        items = []
        for action in block.get("actions", []):
            if not isinstance(action, dict):
                continue
            side = str(action.get("side", ""))
            mark = f" calc-side-{side}" if side in ("a", "b") else ""
            items.append(f'<li class="calc-action{mark}"><span class="calc-action-words">'
                         f'{escape(str(action.get("words", "")))}</span>'
                         f'{_rolls_html(action.get("rolls"))}</li>')
        blocks.append(f'<li class="calc-turn"><p class="calc-turn-heading">'
                      f'<strong>{heading}</strong></p><ol class="calc-actions">{"".join(items)}</ol>'
                      f'<p class="calc-turn-after">{escape(str(block.get("after", "")))}</p></li>')
    word = escape(str(told[0].get("heading", "Round")).split(" ")[0].lower()) \
        if isinstance(told[0], dict) else "round"
    return (f'<div class="calc-roll-account" role="group" aria-label="The fight {word} by {word}" '
            f'tabindex="0"><ol class="calc-roll-log calc-turns">{"".join(blocks)}</ol></div>'
            f'<button type="button" class="md-button calc-copy-account" data-action="copy-account" '
            f'data-text="{escape(text)}">Copy the account as text</button>')


# ---- setups side by side: the pinned setup A and the current inputs ----

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


def _chances(result: dict[str, Any], key: str) -> dict[str, Fraction]:
    """A chart's chances: the exact twin, or (when a fight's fractions were too long to
    keep) the floats as they are, only ever shown rounded."""
    chances = result.get(key + "_exact")
    if chances is None:
        chances = result.get(key, {})
    return {str(k): Fraction(v) for k, v in chances.items()}


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
    exact_a, exact_b = _chances(a, key), _chances(b, key)
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
                   f'<span class="calc-bar-value">{escape(chance(pa))}<br>{escape(chance(pb))}</span>'
                   f'</div>')
    out.append('</div><details class="calc-table"><summary>Table of both setups</summary>'
               f'{scroll_box(title + ", both setups")}<table class="calc-odds"><caption class="calc-sr">{title}, '
               f'chance of {words} each outcome</caption><thead><tr><th scope="col">{label}</th>'
               '<th scope="col">Setup A</th><th scope="col">Current</th><th scope="col">Change</th>'
               '</tr></thead><tbody>')
    for outcome, pa, pb in zip(outcomes, va, vb):
        out.append(f'<tr><th scope="row">{escape(outcome)}</th><td>{escape(chance(pa))}</td>'
                   f'<td>{escape(chance(pb))}</td>'
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
        out.append(scroll_box("Inputs that differ") + '<table class="calc-odds calc-compare-inputs"><caption '
                   'class="calc-sr">Inputs that differ</caption><thead><tr><th scope="col">Input</th>'
                   '<th scope="col">Setup A</th><th scope="col">Current</th></tr></thead><tbody>')
        out += [f'<tr><th scope="row">{escape(k)}</th><td>{escape(a)}</td><td>{escape(b)}</td></tr>'
                for k, a, b in differ]
        out.append("</tbody></table></div>")
    else:
        out.append('<p class="calc-compare-same">The current inputs are the same as setup A: '
                   'change an input to compare.</p>')
    head_a = {str(k): str(v) for k, v in pinned["display"]["headline"]}
    out.append(scroll_box("Headline figures") + '<table class="calc-odds calc-compare-headline"><caption '
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
