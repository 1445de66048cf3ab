"""The d10 ranged combat registry: its calculators, in the order they appear on the site,
and the rules tables its pages render. Each calculator lives in the module of the page it
sits on (``calc_<page>.py``); the tables are in ``reference.py``."""

from __future__ import annotations

from rules_core.gunplay.calc_bursts import HIT_ODDS
from rules_core.gunplay.calc_bursts_balance import BALANCE
from rules_core.gunplay.calc_bursts_fight import ENGAGEMENT
from rules_core.gunplay.calc_difficulty import DIFFICULTY, HIT_CHANCE
from rules_core.gunplay.calc_size_and_range import RANGE_BAND, RANGE_TABLE
from rules_core.gunplay.calc_suppressing_fire import SUPPRESSION
from rules_core.gunplay.calc_weapon_handling import WEAPON_SEARCH
from rules_core.gunplay.reference import TABLES

CALCULATORS = (DIFFICULTY, RANGE_BAND, RANGE_TABLE, HIT_CHANCE, HIT_ODDS,
               ENGAGEMENT, BALANCE, SUPPRESSION, WEAPON_SEARCH)

__all__ = ["CALCULATORS", "TABLES"]
