"""The SUCS registry: its calculators, in the order the catalog lists them, the rules
tables and the army builder's data (source: SUCS, Small Unit Combat System, CC BY-NC
3.0). Each calculator lives in the module of the page it sits on (``calc_<page>.py``);
the tables are in ``reference.py``."""

from __future__ import annotations

from rules_core.sucs.calc_actions_balance import BALANCE
from rules_core.sucs.calc_actions_fight import ENGAGEMENT
from rules_core.sucs.calc_attacks import ATTACK
from rules_core.sucs.calc_costs import UNIT_COST
from rules_core.sucs.calc_roster import ROSTER_CHECK, ROSTER_IMPORT, roster_app_data
from rules_core.sucs.calc_roster_balance import BALANCE as ROSTER_BALANCE
from rules_core.sucs.calc_roster_battle import BATTLE
from rules_core.sucs.calc_tech_levels import PRESETS, TECH
from rules_core.sucs.calc_terrain import MOVEMENT
from rules_core.sucs.calc_units import REACH
from rules_core.sucs.reference import TABLES

CALCULATORS = (UNIT_COST, PRESETS, ATTACK, ENGAGEMENT, BALANCE, REACH, MOVEMENT, TECH, ROSTER_CHECK,
               ROSTER_IMPORT, BATTLE, ROSTER_BALANCE)

APPS = {"sucs.roster": roster_app_data}

__all__ = ["APPS", "CALCULATORS", "TABLES"]
