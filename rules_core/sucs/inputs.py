"""What several SUCS calculators share: the published lists as choices, and a distance
in inches as the explanations write it."""

from __future__ import annotations

from fractions import Fraction

from rules_core.sucs.cost import points_text
from rules_core.sucs.presets import list_titles


def list_choices() -> tuple[tuple[str, str], ...]:
    """(list id, title) of every published tech-level list."""
    return tuple(list_titles().items())


def inches(value: Fraction) -> str:
    """A distance as the explanations write it: 4", 2½"."""
    return f'{points_text(value)}"'
