"""d10 ranged combat calculators and the rules tables its pages render.

The calculators live in topic modules; this one lists them for the catalog, in the
order they appear on the site.
"""

from __future__ import annotations

from rules_core.gunplay.calc_difficulty import DIFFICULTY, DIFFICULTY_FIELDS
from rules_core.gunplay.calc_engagement import ENGAGEMENT
from rules_core.gunplay.calc_handling import SUPPRESSION, WEAPON_SEARCH
from rules_core.gunplay.calc_hits import HIT_CHANCE, HIT_FIELDS, HIT_ODDS
from rules_core.gunplay.calc_range import RANGE_BAND, RANGE_TABLE
from rules_core.gunplay.inputs import DISTANCE, EFFECTIVE_RANGE
from rules_core.gunplay.reference import TABLES

CALCULATORS = (DIFFICULTY, RANGE_BAND, RANGE_TABLE, HIT_CHANCE, HIT_ODDS,
               ENGAGEMENT, SUPPRESSION, WEAPON_SEARCH)

__all__ = ["CALCULATORS", "TABLES", "DIFFICULTY", "DIFFICULTY_FIELDS", "RANGE_BAND",
           "RANGE_TABLE", "HIT_CHANCE", "HIT_ODDS", "HIT_FIELDS", "SUPPRESSION",
           "WEAPON_SEARCH", "ENGAGEMENT", "DISTANCE", "EFFECTIVE_RANGE"]
