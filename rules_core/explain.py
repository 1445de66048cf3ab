"""Helpers for the Markdown explanations calculators return.

Links to rules are root-relative ("/gunplay/difficulty/#stance"); the renderer points
them at the site's real root, whether built locally or served under a project subpath.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: A rules table the pages draw with the ``rules-table`` fence, generated from the core's
#: data: ``{"caption": str, "header": [str, ...], "rows": [[str, ...], ...]}``.
Table = dict[str, Any]


def rule(text: str, page: str, anchor: str = "") -> str:
    """A Markdown link to the paragraph of a rules page that states a rule."""
    target = "/" + page.strip("/") + "/"
    if anchor:
        target += "#" + anchor
    return f"[{text}]({target})"


def escape(text: str) -> str:
    """Escape Markdown punctuation in user-supplied text."""
    out = []
    for ch in str(text):
        if ch in "\\`*_{}[]()#+-.!|<>~":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A Markdown table."""
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |")
    return "\n".join(lines)


def signed(value: int | float) -> str:
    """+3, -2, 0."""
    return f"{value:+g}" if value else "0"
