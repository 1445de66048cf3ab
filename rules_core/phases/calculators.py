"""Calculators of this system (see rules_core.calculator.Calculator)."""

from __future__ import annotations

from rules_core.calculator import Calculator

CALCULATORS: tuple[Calculator, ...] = ()
