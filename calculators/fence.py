"""The ``calculator`` fence: a short block in a page becomes a widget.

    ```calculator
    gunplay.difficulty
    distance_m: 250
    ```

The first line names the calculator; ``field: value`` lines (JSON values, or bare text)
set the starting inputs; ``id: name`` sets the widget id. The default result is
computed here with ``rules_core.api.run`` and rendered with the same renderer the
browser uses, so the page is correct before Pyodide loads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from pymdownx.superfences import SuperFencesException

from calculators.layout import (
    ASSET_DIR,
    ASSETS_SOURCE,
    BUNDLE_PLACEHOLDER,
    PYODIDE_PLACEHOLDER,
    ROOT_PLACEHOLDER,
    RUNTIME_BYTES_PLACEHOLDER,
    SNAPSHOT_PLACEHOLDER,
)
from calculators.render import response_html
from rules_core import api
from rules_core.calculator import HandOn
from rules_core.catalog import calculators, rules_tables
from rules_core.fields import initial_inputs

_ENV = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    keep_trailing_newline=False,
)


class FenceError(SuperFencesException):
    """A calculator block in a page is wrong: fails the build (SuperFences passes this
    exception type on instead of quietly showing the block as code)."""


def parse_block(source: str) -> tuple[str, str | None, dict[str, Any]]:
    """(calculator name, widget id or None, starting inputs) from the block text."""
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    if not lines:
        raise FenceError("a calculator block needs the calculator's name on its first line")
    name, uid, inputs = lines[0], None, {}
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        if not sep:
            raise FenceError(f"calculator {name}: expected 'field: value', got {line!r}")
        key, value = key.strip(), value.strip()
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        if key == "id":
            uid = str(parsed)
        else:
            inputs[key] = parsed
    return name, uid, inputs


#: results that other calculators take as an input, as each calculator declares them
#: (:attr:`rules_core.calculator.Calculator.hand_on`)
HAND_ON: dict[str, HandOn] = {name: calc.hand_on for name, calc in calculators().items()
                              if calc.hand_on is not None}


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
    key, label, targets = HAND_ON[name].key, HAND_ON[name].label, HAND_ON[name].targets
    out = []
    for target, field in targets:
        spec = spec_of(target)
        out.append({"calculator": target, "title": spec["title"], "page": spec["page"].strip("/") + "/",
                    "uid": default_uid(target), "field": field})
    return {"key": key, "label": label, "targets": out, "also": dict(HAND_ON[name].also)}


#: the army builder, and the calculators whose result is a unit it can take ("Add to
#: roster": the unit's stats, the result key ``stats``); the published units' tables
#: (rules tables with ``unit_ids``) link each row to it too
ROSTER_APP = "sucs.roster"
ADDS_TO_ROSTER = frozenset(name for name, calc in calculators().items() if calc.adds_to_roster)


def roster_adds() -> str:
    """The address (relative to the site root) that opens the army builder with a unit
    added, but for the unit: ``sucs/roster/?add=`` and a published unit's id, or a unit
    packed as a share link packs a roster (the builder's sucs_roster_import.js)."""
    return app_pages()[ROSTER_APP] + "?add="



def render_widget(name: str, uid: str, inputs: dict[str, Any], title: str | None = None) -> str:
    """The widget's HTML with its prerendered result; ``title`` replaces the calculator's
    own in the widget (its heading and the names of its form and its rolls)."""
    if name not in api.names():
        raise FenceError(f"unknown calculator {name!r}; known: {', '.join(api.names())}")
    start = initial_inputs(calculators()[name].fields, inputs)
    response = api.run(name, start)
    if not response["ok"]:
        err = response["error"]
        raise FenceError(f"calculator {name}: starting input {err['field']}: {err['message']}")
    # what the page's actions read from the result shown (the value handed on, the unit
    # added to a roster): the result the page starts with is this one, not worked out again
    # (a key of "@..." is the widget's own inputs, read from its form)
    needed: list[str] = []
    if name in HAND_ON:
        given = HAND_ON[name]
        needed += ([] if given.key.startswith("@") else [given.key]) + list(given.tells)
    if name in ADDS_TO_ROSTER:
        needed.append("stats")
    return _ENV.get_template("widget.html.j2").render(
        spec=api.spec(name),
        hidden={f.name for f in calculators()[name].fields if not f.applies(start)},
        title=title or api.spec(name)["title"],
        uid=uid,
        values=start,
        result_html=response_html(response, ROOT_PLACEHOLDER, uid),
        bundle=BUNDLE_PLACEHOLDER,
        snapshot=SNAPSHOT_PLACEHOLDER,
        pyodide=PYODIDE_PLACEHOLDER,
        runtime_bytes=RUNTIME_BYTES_PLACEHOLDER,
        initial_json=json.dumps(start, separators=(",", ":")),
        result_json=json.dumps({key: response["result"][key] for key in needed}, separators=(",", ":")),
        hand_on=hand_on(name, api.spec),
        roster_adds=roster_adds() if name in ADDS_TO_ROSTER else None,
    )


def format_calculator(source: str, language: str, css_class: str, options: dict, md: Any,
                      **kwargs: Any) -> str:
    """pymdownx.superfences custom-fence formatter."""
    name, uid, inputs = parse_block(source)
    used: dict[str, int] = md.__dict__.setdefault("_calculator_ids", {})
    base = uid or default_uid(name)
    used[base] = used.get(base, 0) + 1
    final = base if used[base] == 1 else f"{base}-{used[base]}"
    title = inputs.pop("title", None)
    if name in api.names():
        title = str(title) if title is not None else api.spec(name)["title"]
        # a widget's form and rolls are landmarks named after its title: two of one name
        # on a page cannot be told apart in a screen reader's list of landmarks
        titles: set[str] = md.__dict__.setdefault("_calculator_titles", set())
        if title in titles:
            raise FenceError(f"calculator {name}: a second widget titled {title!r} on this page; "
                             f"give it its own with 'title: ...'")
        titles.add(title)
    return render_widget(name, final, inputs, title)


def format_rules_table(source: str, language: str, css_class: str, options: dict, md: Any,
                       **kwargs: Any) -> str:
    """The ``rules-table`` fence: a table generated from the core's data.

    The block holds the table's name (see ``rules_core.catalog.rules_tables``), so the
    docs can never show numbers that disagree with the code.
    """
    name = source.strip()
    tables = rules_tables()
    if name not in tables:
        raise FenceError(f"unknown rules table {name!r}; known: {', '.join(tables)}")
    table = tables[name]()
    # only a table of published units links to the army builder (finding its page reads
    # every page's source, so it is not done for the other tables)
    return _ENV.get_template("rules_table.html.j2").render(
        name=name, table=table, root=ROOT_PLACEHOLDER,
        roster_adds=roster_adds() if table.get("unit_ids") else None)


_APP_NAME = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")


def format_app(source: str, language: str, css_class: str, options: dict, md: Any,
               **kwargs: Any) -> str:
    """The ``app`` fence: an interactive tool with its own template and ES module.

        ```app
        sucs.roster
        ```

    renders ``templates/apps/sucs_roster.html.j2`` (given ``api_run`` and
    ``response_html`` to prerender results) and the bridge loads
    ``assets/apps/sucs_roster.js``, whose ``mount(root, bridge)`` takes over. Its address
    is in ``data-module``, relative to the site root (no page context needed), so the
    post-build step can give it the module's hashed name.
    """
    name, uid, options_ = parse_block(source)
    if not _APP_NAME.match(name):
        raise FenceError(f"app name {name!r} must look like system.app")
    slug = name.replace(".", "_")
    template = f"apps/{slug}.html.j2"
    if not (Path(__file__).parent / "templates" / template).exists():
        raise FenceError(f"app {name!r} has no template {template}")
    if not (ASSETS_SOURCE / "apps" / f"{slug}.js").exists():
        raise FenceError(f"app {name!r} has no module assets/apps/{slug}.js")
    inner = _ENV.get_template(template).render(
        options=options_, api_run=api.run, app_data=api.app_data,
        response_html=lambda response, uid=slug: response_html(response, ROOT_PLACEHOLDER, uid),
    )
    return (f'<div class="calc-app" id="app-{uid or slug}" data-app="{slug}" '
            f'data-status="prerendered" data-module="{ASSET_DIR}/apps/{slug}.js" '
            f'data-bundle="{BUNDLE_PLACEHOLDER}" data-snapshot="{SNAPSHOT_PLACEHOLDER}" '
            f'data-pyodide="{PYODIDE_PLACEHOLDER}" '
            f'data-runtime-bytes="{RUNTIME_BYTES_PLACEHOLDER}">{inner}</div>')


_DOCS = Path(__file__).resolve().parents[1] / "docs"
_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<kind>calculator|app)[ \t]*\n(?P<body>.*?)^(?P=indent)```",
                    re.M | re.S)


def _page_fences(docs: Path) -> Iterator[tuple[str, re.Match[str]]]:
    """(page address relative to the site root, fence match) of every calculator and app
    fence in the pages, in order."""
    for path in sorted(docs.rglob("*.md")):
        rel = path.relative_to(docs).with_suffix("").as_posix()
        page = "" if rel == "index" else (rel[:-len("index")] if rel.endswith("/index") else rel + "/")
        for match in _FENCE.finditer(path.read_text(encoding="utf-8")):
            yield page, match


def app_pages(docs: Path = _DOCS) -> dict[str, str]:
    """{app name: the address of the page that holds it, relative to the site root}."""
    return {parse_block(m.group("body"))[0]: page for page, m in _page_fences(docs)
            if m.group("kind") == "app"}


def placements(docs: Path = _DOCS) -> dict[str, tuple[str, str]]:
    """{calculator name: (page address relative to the site root, widget id)} of the
    first widget of each calculator in the pages, ids given as ``format_calculator``
    gives them."""
    found: dict[str, tuple[str, str]] = {}
    used: dict[tuple[str, str], int] = {}
    for page, match in _page_fences(docs):
        if match.group("kind") != "calculator":
            continue
        name, uid, _ = parse_block(match.group("body"))
        base = uid or default_uid(name)
        used[page, base] = used.get((page, base), 0) + 1
        found.setdefault(name, (page, base if used[page, base] == 1 else f"{base}-{used[page, base]}"))
    return found


def format_calculator_list(source: str, language: str, css_class: str, options: dict, md: Any,
                           **kwargs: Any) -> str:
    """The ``calculator-list`` fence: one line per calculator of a system, from the
    catalog, linked to the widget on its page, so an index page never lists them by hand.

        ```calculator-list
        gunplay
        ```
    """
    system = source.strip()
    where = placements()
    rows = [(api.spec(name), where[name]) for name in api.names()
            if name.startswith(system + ".") and name in where]
    if not rows:
        raise FenceError(f"calculator-list: no calculator of a system {system!r} is on any page")
    return _ENV.get_template("calculator_list.html.j2").render(rows=rows, root=ROOT_PLACEHOLDER)
