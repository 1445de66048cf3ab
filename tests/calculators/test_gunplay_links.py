"""Every rule link a d10 calculator writes points at a heading that exists, and every
calculator and rules table of the system is placed on a page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from rules_core import api
from rules_core.gunplay.calculators import CALCULATORS, TABLES

DOCS = Path(__file__).resolve().parents[2] / "docs"
LINK = re.compile(r"\]\((/[^)#]*)#([^)]+)\)")

# Inputs that reach every branch of the explanations.
CASES = {
    "gunplay.difficulty": [{}, {"target_stance": "prone", "size": None, "band": "close", "weapon": None,
                            "effective_range_m": None, "distance_m": None},
                           {"weapon": "pistol", "distance_m": 20, "effective_range_m": None},
                           {"bonus": None}, {"bonus": -20}],
    "gunplay.range_band": [{}, {"distance_m": 1000}, {"weapon": "smg", "effective_range_m": None}],
    "gunplay.range_table": [{}, {"target_stance": "kneeling", "size": None}],
    "gunplay.hit_chance": [{}, {"dc": None}],
    "gunplay.hit_odds": [{}, {"rounds": 40, "roll_total": 12}, {"rounds": 1}],
    "gunplay.engagement": [{}, {"short_burst": False, "ammo": 10},
                           {"ammo": 100, "burst": 1, "bursts_per_round": 2}],
    "gunplay.suppression": [{}, {"magazine": None}, {"open_groups": 3, "magazine": 10}],
    "gunplay.weapon_search": [{}, {"method": "distance"}],
    "gunplay.balance": [{}, {"vary": "hits_needed"}],
}


def anchors(page: str) -> set[str]:
    """Slugs of every heading of a docs page ("gunplay/difficulty" -> docs/gunplay/difficulty.md)."""
    text = (DOCS / f"{page.strip('/')}.md").read_text()
    return {slugify(m.group(1).strip(), "-") for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def links(reply: dict) -> list[tuple[str, str]]:
    found = LINK.findall(reply["explanation"])
    for term in reply["result"].get("breakdown", []):
        page, _, anchor = term["rule"].partition("#")
        found.append((page, anchor))
    return found


def test_cases_cover_every_calculator() -> None:
    assert set(CASES) == {c.name for c in CALCULATORS}


@pytest.mark.parametrize("name", list(CASES))
def test_rule_links_point_at_existing_headings(name: str) -> None:
    for extra in CASES[name]:
        inputs = {k: v for k, v in {**api.spec(name)["initial"], **extra}.items() if v is not None}
        reply = api.run(name, inputs)
        assert reply["ok"], (inputs, reply)
        found = links(reply)
        assert found, name
        for page, anchor in found:
            assert anchor in anchors(page), f"{name}: {page}#{anchor} has no such heading"


def test_every_calculator_and_table_is_on_a_page() -> None:
    text = "".join(p.read_text() for p in (DOCS / "gunplay").glob("*.md"))
    for calc in CALCULATORS:
        assert f"```calculator\n{calc.name}\n" in text, calc.name
        page = DOCS / f"{calc.page}.md"
        assert f"```calculator\n{calc.name}\n" in page.read_text(), (calc.name, calc.page)
    for table in TABLES:
        assert f"```rules-table\n{table}\n" in text, table


def test_calculators_page_lists_every_d10_calculator() -> None:
    text = (DOCS / "calculators.md").read_text()
    section = text.split("## d10 ranged combat", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| \[[^]]+\]\((gunplay/[^)#]+)\.md#([^)]+)\)", section, re.M)
    assert len(rows) == len(CALCULATORS)
    for page, anchor in rows:
        assert anchor in anchors(page), f"calculators.md links to missing {page}#{anchor}"
    for calc in CALCULATORS:
        assert any(page == calc.page for page, _ in rows), calc.name
