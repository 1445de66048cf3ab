"""The army builder's app block: the limits and rule values its JavaScript needs come from
the core (rendered into the page, never retyped in JS), and the builder is prerendered
as a first visit shows it, with its style inline, so nothing moves when it goes live."""

from __future__ import annotations

import html
import json
import re

import markdown

from calculators import fence
from rules_core import api
from rules_core.sucs import roster, tables

MD = markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={
    "pymdownx.superfences": {"custom_fences": [
        {"name": "app", "class": "app", "format": fence.format_app}]}})


def render() -> str:
    MD.reset()
    return MD.convert("```app\nsucs.roster\n```")


def data_block(page: str) -> dict:
    match = re.search(r"class=\"sucs-data\" hidden data-json='([^']*)'", page)
    assert match
    return json.loads(html.unescape(match.group(1)))


def test_rules_come_from_the_core() -> None:
    rules = data_block(render())["rules"]
    assert rules["max_name"] == roster.MAX_NAME and rules["max_units"] == roster.MAX_UNITS
    assert rules["max_count"] == roster.MAX_COUNT and rules["max_limit"] == roster.MAX_LIMIT
    assert rules["max_file_chars"] == roster.MAX_FILE_CHARS and rules["max_depth"] == roster.MAX_DEPTH
    assert rules["target_number"] == {str(q): tables.target_number(q) for q in tables.QUALITY_BASE}
    assert (rules["format"], rules["collection"], rules["version"]) == (
        roster.ROSTER_FORMAT, roster.COLLECTION_FORMAT, roster.VERSION)
    assert data_block(render()) == json.loads(json.dumps(api.app_data("sucs.roster")))


def test_the_scripts_retype_no_format_limit_or_cost() -> None:
    """The builder's modules read the format, the version and the limits from the core's
    data; a published unit's cost is the core's total, not a sum made in the script."""
    from pathlib import Path
    apps = Path(fence.__file__).parent / "assets" / "apps"
    for name in ("sucs_roster.js", "sucs_roster_lib.js", "sucs_roster_import.js", "sucs_roster_dom.js",
                 "phases_tracker.js", "phases_tracker_store.js"):
        text = (apps / name).read_text(encoding="utf-8")
        assert '"sucs-roster"' not in text and '"sucs-rosters"' not in text, name
        assert not re.search(r"\b(?:VERSION|MAX_[A-Z_]+)\s*=", text), name
        assert not re.search(r"\b2_000_000\b|\b300\b", text), name
        assert "quality_base" not in text and "computed_cost" not in text, name


def test_prerendered_as_a_first_visit_with_one_cost_convention() -> None:
    page = render()
    data = data_block(page)
    assert '<div class="sucs-ui" inert>' in page and "<style>" in page  # shown, inert until live
    assert f'value="{data["first"]["name"]}"' in page
    check = api.run("sucs.roster_check", {"roster": data["first"]})["result"]
    assert f'<dd class="sucs-total">{check["total"]}</dd>' in page
    first_list = data["lists"][0][0]
    for preset in (p for p in data["presets"] if p["list"] == first_list):
        total = tables.QUALITY_BASE[preset["stats"]["quality"]] + preset["computed_cost"]
        assert preset["total_cost"] == total
        assert f'<option value="{preset["id"]}">{html.escape(preset["name"])} ({total} pts' in page
