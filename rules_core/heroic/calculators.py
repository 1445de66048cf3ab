"""The GURPS Heroic Combat registry: its calculators, in the order the catalog lists them,
and the rules tables the docs render. Each calculator lives in the module of the page it
sits on (``calc_<page>.py``); the tables are in ``reference.py``."""

from __future__ import annotations

from rules_core.heroic.calc_actions import ACTION
from rules_core.heroic.calc_groups import CASUALTIES, GROUP_INJURY, NUMBERS
from rules_core.heroic.calc_groups_balance import BALANCE
from rules_core.heroic.calc_groups_fight import ENGAGEMENT
from rules_core.heroic.calc_index import INITIATIVE
from rules_core.heroic.calc_melee import INCAPACITATION, MELEE
from rules_core.heroic.calc_morale import FATIGUE, MORALE
from rules_core.heroic.calc_ranged import RANGED
from rules_core.heroic.calc_tactics import TACTIC
from rules_core.heroic.reference import TABLES

CALCULATORS = (INITIATIVE, TACTIC, MELEE, INCAPACITATION, NUMBERS, GROUP_INJURY, CASUALTIES,
               ENGAGEMENT, BALANCE, RANGED, ACTION, MORALE, FATIGUE)

__all__ = ["CALCULATORS", "TABLES"]
