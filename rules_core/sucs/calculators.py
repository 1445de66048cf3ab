"""SUCS calculators and rules tables (source: SUCS, Small Unit Combat System, CC BY-NC 3.0)."""

from __future__ import annotations

from rules_core.sucs.calc_attack import ATTACK
from rules_core.sucs.calc_engagement import ENGAGEMENT
from rules_core.sucs.calc_helpers import MOVEMENT, REACH, TECH
from rules_core.sucs.calc_roster import ROSTER_CHECK, ROSTER_IMPORT, roster_app_data
from rules_core.sucs.calc_units import PRESETS, UNIT_COST
from rules_core.sucs.reference import TABLES

CALCULATORS = (UNIT_COST, PRESETS, ATTACK, ENGAGEMENT, REACH, MOVEMENT, TECH, ROSTER_CHECK,
               ROSTER_IMPORT)

APPS = {"sucs.roster": roster_app_data}

__all__ = ["APPS", "CALCULATORS", "TABLES"]
