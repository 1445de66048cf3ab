"""The Cortex Prime small unit combat section's registry: its calculators, in the order
the catalog lists them, and its rules tables. Each calculator lives in the module of the
page it sits on (``calc_<page>.py``); the tables are in ``reference.py``."""

from __future__ import annotations

from rules_core.calculator import Calculator
from rules_core.cortex.calc_enemies import DRONES, GRENADIER, MEDIC, ON_FIRE, SUPPRESSED
from rules_core.cortex.calc_firefights import FIREFIGHT_POOLS, FLANKING, IN_COVER, INITIATIVE
from rules_core.cortex.calc_firefights_balance import BALANCE
from rules_core.cortex.calc_firefights_fight import ENGAGEMENT
from rules_core.cortex.calc_fireteams import FIRETEAM_POOL
from rules_core.cortex.calc_harm import EFFECT_DICE, HIT_ALLOCATION
from rules_core.cortex.calc_rolls import ODDS, POOL
from rules_core.cortex.reference import TABLES

CALCULATORS: tuple[Calculator, ...] = (
    FIRETEAM_POOL,
    POOL,
    ODDS,
    EFFECT_DICE,
    HIT_ALLOCATION,
    INITIATIVE,
    FIREFIGHT_POOLS,
    DRONES,
    ENGAGEMENT, BALANCE,
    MEDIC,
    GRENADIER,
    SUPPRESSED,
    ON_FIRE,
    IN_COVER,
    FLANKING,
)

__all__ = ["CALCULATORS", "TABLES"]
