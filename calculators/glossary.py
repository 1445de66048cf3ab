"""A Python-Markdown extension: a glossary term gets its tooltip at its first use on a page.

The glossary (``includes/abbreviations.md``, appended to every page) makes each use of a
term an ``<abbr title="...">``, and Material's ``content.tooltips`` mounts a tooltip
component for every titled element as the page loads. Each mount reads the layout, so a
page that uses a term twenty times paid for twenty of them on its phone's main thread (a
long task that Lighthouse counts as blocking time). The first use of each term keeps its
tooltip and dotted underline, as a printed text defines a term at first use; later uses
are plain text. The glossary page itself links every term.

Listed in mkdocs.yml after ``abbr`` (``calculators.glossary``); a plain Python-Markdown
extension, so MkDocs and Zensical both run it.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown import Extension, Markdown  # type: ignore[import-untyped]
from markdown.treeprocessors import Treeprocessor  # type: ignore[import-untyped]


class FirstUseOnly(Treeprocessor):
    """Unwrap every ``<abbr>`` whose title an earlier one on the page already carries."""

    def run(self, root: etree.Element) -> None:
        seen: set[str] = set()
        parents = {child: parent for parent in root.iter() for child in parent}
        for abbr in list(root.iter("abbr")):
            title = abbr.get("title")
            if title is None:
                continue
            if title not in seen:
                seen.add(title)
                continue
            parent = parents[abbr]
            text = "".join(abbr.itertext()) + (abbr.tail or "")
            index = list(parent).index(abbr)
            if index:
                before = parent[index - 1]
                before.tail = (before.tail or "") + text
            else:
                parent.text = (parent.text or "") + text
            parent.remove(abbr)


class GlossaryExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # after abbr's own treeprocessor (priority 7), which makes the <abbr> elements
        md.treeprocessors.register(FirstUseOnly(md), "tcr_glossary_first_use", 6)


def makeExtension(**kwargs: object) -> GlossaryExtension:
    return GlossaryExtension(**kwargs)
