"""Each rule number is written once, in a system's ``tables.py``: a changed SUCS cost
reaches the cost builder, its explanation, the docs' table and the army builder's data
with no other edit, and the numbers the costs page states in prose are the core's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules_core import api
from rules_core.catalog import rules_tables
from rules_core.sucs import tables

COSTS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "sucs" / "costs.md"


@pytest.fixture
def dearer_armor_and_regulars(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Armor at 7 a point instead of 4, and a regular unit's base at 11 instead of 8:
    two edits of tables.py, made on the live values (the frozen COSTS in place)."""
    armor = tables.COSTS.per_armor
    monkeypatch.setitem(tables.QUALITY_BASE, 3, 11)
    object.__setattr__(tables.COSTS, "per_armor", 7)
    try:
        yield
    finally:
        object.__setattr__(tables.COSTS, "per_armor", armor)


def _armored_regular() -> dict:
    inputs = dict(api.spec("sucs.unit_cost")["initial"], quality=3, armor=2)
    return api.run("sucs.unit_cost", inputs)


def test_the_numbers_used_are_the_ones_in_tables() -> None:
    assert tables.COSTS.per_armor == 4 and tables.QUALITY_BASE[3] == 8
    assert _armored_regular()["result"]["cost"] == 8 + 2 * 4


@pytest.mark.usefixtures("dearer_armor_and_regulars")
def test_a_changed_cost_reaches_the_builder_its_explanation_the_docs_and_the_army_builder() -> None:
    reply = _armored_regular()
    assert reply["result"]["cost"] == 11 + 2 * 7
    assert "7" in reply["explanation"] and "11" in reply["explanation"]
    rows = dict(rules_tables()["sucs.costs"]()["rows"])
    assert rows["Armor"].startswith("+7 per point") and "11 regular" in rows["Quality base"]
    data = api.app_data("sucs.roster")
    assert 11 in data["quality_bases"]
    armored = [p for p in data["presets"] if p["stats"]["quality"] == 3 and p["stats"]["armor"]]
    assert armored
    for preset in armored:
        unit = dict(preset["stats"])
        assert preset["total_cost"] == api.run("sucs.unit_cost", unit)["result"]["cost"]


def _stated(pattern: str) -> tuple[str, ...]:
    text = " ".join(COSTS_PAGE.read_text(encoding="utf-8").split())
    found = re.search(pattern, text)
    assert found, f"docs/sucs/costs.md no longer says {pattern!r}: update this test with it"
    return found.groups()


def test_the_costs_page_states_the_cores_numbers_in_prose() -> None:
    c = tables.COSTS
    bases = _stated(r"A minimal unit costs (\d+) points if raw, (\d+) green, (\d+) regular, "
                    r"(\d+) veteran and (\d+) elite")
    assert tuple(map(int, bases)) == tuple(tables.QUALITY_BASE[q] for q in sorted(tables.QUALITY_BASE))
    assert int(_stated(r"Each point of attack costs (\d+)")[0]) == c.per_attack
    assert int(_stated(r"plus (\d+) for each unit after the first")[0]) == c.per_extra_target
    assert int(_stated(r"\*\*Armor\*\*: (\d+) per point")[0]) == c.per_armor
    free, per_six = map(int, _stated(r'the first (\d+)" are free; every 6" beyond costs (\d+)'))
    assert (free, per_six) == (c.free_speed, c.per_six_inches_speed)
    assert int(_stated(r"\*\*Range\*\*: (\d+) per 6\"")[0]) == c.per_six_inches_range
    assert int(_stated(r"\*\*Amphibious\*\* \([^)]*\): (\d+)")[0]) == c.amphibious
    assert int(_stated(r"\*\*Stealth\*\*: (\d+)")[0]) == c.stealth
    assert int(_stated(r"\*\*Transport\*\*: (\d+) per unit carried")[0]) == c.per_transported
    assert int(_stated(r"\*\*Support actions\*\*: (\d+) each")[0]) == c.per_support_action
    assert int(_stated(r"\*\*Special weapons\*\*[^:]*: (\d+) each")[0]) == c.special_weapon
    assert int(_stated(r"\*\*Altitude\*\*: (\d+) per level")[0]) == c.per_altitude
    assert int(_stated(r"ground effect \(0\.5\) pays (\d+)")[0]) == c.ground_effect
    assert int(_stated(r"\*\*Disembark from altitude\*\* \(paratroops\): (\d+)")[0]) == c.disembark_from_altitude
