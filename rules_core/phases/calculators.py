"""The 2d6 combat phases registry: its calculators, in the order the catalog lists them,
the rules tables the docs render and the tracker app's data. Each calculator lives in the
module of the page it sits on (``calc_<page>.py``); the tables are in ``reference.py``."""

from __future__ import annotations

from rules_core.phases.calc_actions import ACTION_ODDS
from rules_core.phases.calc_momentum import TABLE_PICK
from rules_core.phases.calc_momentum_balance import BALANCE
from rules_core.phases.calc_momentum_fight import ENGAGEMENT
from rules_core.phases.calc_tracker import PHASE_ODDS, TRACKER, tracker_app_data
from rules_core.phases.reference import TABLES

CALCULATORS = (ACTION_ODDS, PHASE_ODDS, TRACKER, ENGAGEMENT, BALANCE, TABLE_PICK)

APPS = {"phases.tracker": tracker_app_data}

__all__ = ["APPS", "CALCULATORS", "TABLES"]
