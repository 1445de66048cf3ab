"""The glossary extension: a term's tooltip (a titled <abbr>) at its first use on a page;
later uses become plain text, wherever they stand (first child, after other inline
elements, in a table cell), and nothing else of the text changes."""

from __future__ import annotations

import markdown

SOURCE = """The ED decides. Then ED again, *ED* here and **bold** ED.

| term |
|------|
| ED |

ED starts this paragraph; HP too, then HP.

*[ED]: effect die
*[HP]: hit points
"""


def convert(text: str, extensions: list[str]) -> str:
    return markdown.Markdown(extensions=extensions).convert(text)


def test_each_term_keeps_one_tooltip_at_its_first_use() -> None:
    html = convert(SOURCE, ["abbr", "tables", "calculators.glossary"])
    assert html.count('<abbr title="effect die">ED</abbr>') == 1
    assert html.count('<abbr title="hit points">HP</abbr>') == 1
    assert html.count("<abbr") == 2
    assert html.index('<abbr title="effect die">') < html.index("Then ED again")


def test_later_uses_read_exactly_as_without_the_extension() -> None:
    def words(html: str) -> str:
        for tag in ('<abbr title="effect die">', '<abbr title="hit points">', "</abbr>"):
            html = html.replace(tag, "")
        return html
    assert words(convert(SOURCE, ["abbr", "tables", "calculators.glossary"])) == \
        words(convert(SOURCE, ["abbr", "tables"]))
