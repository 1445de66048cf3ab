"""One golden HTML file per fence kind, as pymdown-extensions keeps them: what a page's
block becomes, whole, so any change to the markup shows in review as a diff of the file.

The names that change with every build (the Python bundle's content hash, the runtime's
size) are placeholders the post-build step fills, so rendering needs neither Node nor the
bundle. After an intended change of the markup, rewrite the files with ``UPDATE_GOLDEN=1 pytest tests/calculators/test_golden.py``
and read their diff before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import markdown
import pytest

from calculators import fence

GOLDEN = Path(__file__).parent / "golden"
FENCES = [{"name": name, "class": name, "format": fn} for name, fn in (
    ("calculator", fence.format_calculator), ("rules-table", fence.format_rules_table),
    ("app", fence.format_app), ("calculator-list", fence.format_calculator_list))]
#: (golden file, the block): one per fence kind, each a small, stable example
CASES = [
    ("calculator.html", "```calculator\ngunplay.difficulty\n```"),
    ("rules-table.html", "```rules-table\nsucs.costs\n```"),
    ("app.html", "```app\nphases.tracker\n```"),
    ("calculator-list.html", "```calculator-list\nphases\n```"),
]
#: (golden file, the block): one per option a calculator block or a calculator may have,
#: beside the plain block above (which hands its DC on)
OPTIONS = [
    # starting inputs, a widget id and a title of the page's own
    ("option-inputs-id-title.html",
     "```calculator\ngunplay.hit_odds\nrounds: 5\nrecoil: 1\nid: burst\ntitle: A five-round burst\n```"),
    # a field that applies only with another's value, hidden at the start
    ("option-hidden-field.html", "```calculator\nheroic.morale\n```"),
    # a result the army builder takes (Add to roster)
    ("option-adds-to-roster.html", "```calculator\nsucs.unit_cost\n```"),
    # a calculator with real dice (a roll button) and a chart
    ("option-roll.html", "```calculator\ngunplay.hit_chance\n```"),
]


def _render(block: str) -> str:
    md = markdown.Markdown(extensions=["pymdownx.superfences"],
                           extension_configs={"pymdownx.superfences": {"custom_fences": FENCES}})
    html = md.convert(block + "\n")
    return html.replace("><", ">\n<") + "\n"  # one tag a line: a readable diff


@pytest.mark.parametrize(("name", "block"), CASES + OPTIONS, ids=[c[0] for c in CASES + OPTIONS])
def test_each_fence_kind_renders_its_golden_html(name: str, block: str) -> None:
    html = _render(block)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(html, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: run with UPDATE_GOLDEN=1 to write it"
    assert html == path.read_text(encoding="utf-8"), (
        f"{name} differs from its golden file; if the change is intended, rewrite it with "
        f"UPDATE_GOLDEN=1 and review the diff")


def test_every_fence_kind_of_the_site_has_a_golden_file() -> None:
    text = (Path(__file__).resolve().parents[2] / "mkdocs.yml").read_text(encoding="utf-8")
    kinds = set(re.findall(r"- name: ([a-z-]+)\n\s+class: \1\n\s+format: !!python/name:calculators\.fence\.", text))
    assert kinds == {c[0].removesuffix(".html") for c in CASES}
