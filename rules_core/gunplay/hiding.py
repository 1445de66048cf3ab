"""Finding a hidden weapon (source: d10 ranged combat, "Hiding").

The hider rolls stealth; the searcher rolls notice against it. A hands-on search makes
the searcher's task 5 easier; judging from a distance gets no help. Ruling (Rulings and
errata, "Searching for a hidden weapon"): the hider's total, less 5 for a hands-on
search, is the difficulty of the searcher's notice check, and meeting it finds the
weapon, as with every check in these rules.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from itertools import product

from rules_core.gunplay.tables import SEARCH_EASIER_BY


class Search(str, Enum):
    """How the searcher looks for the weapon."""

    HANDS_ON = "hands_on"
    DISTANCE = "distance"


def search_difficulty(hide_total: int, method: Search) -> int:
    """The notice total the searcher must reach."""
    return hide_total - (SEARCH_EASIER_BY if method is Search.HANDS_ON else 0)


def weapon_found(hide_total: int, notice_total: int, method: Search) -> bool:
    """Whether the searcher finds (or, from a distance, spots) the weapon."""
    return notice_total >= search_difficulty(hide_total, method)


def found_chance(stealth: int, notice: int, method: Search) -> Fraction:
    """Exact chance of finding it: both d10s enumerated through :func:`weapon_found`."""
    hits = sum(weapon_found(h + stealth, n + notice, method)
               for h, n in product(range(1, 11), repeat=2))
    return Fraction(hits, 100)
