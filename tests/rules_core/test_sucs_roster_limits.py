"""The army builder's two kinds of limits (issue 46, item 1; issue 43, item 4): what the
builder adds up to (MAX_UNITS lines a roster, MAX_ROSTERS rosters), and what a file or a
saved roster may hold when read, which is whatever any version of the builder could have
saved (a site's storage, STORAGE_CHARS, holds no more): a roster of 103 lines and a file
of 202 rosters are read whole, and an export of everything storage can hold, compact or
pretty-printed, is within the one file limit. The page takes every number from the app's
data."""

from __future__ import annotations

import json

from rules_core import api
from rules_core.sucs import roster as core
from rules_core.sucs.calc_tech_levels import preset_json
from rules_core.sucs.presets import by_id


def line(preset_id: str, name: str | None = None) -> dict:
    data = preset_json(by_id()[preset_id])
    return {"name": name or data["name"], "count": 1, "preset": preset_id, "stats": data["stats"]}


def roster(name: str, size: int) -> dict:
    ids = sorted(by_id())
    return {"format": "sucs-roster", "version": 1, "name": name, "points_limit": 0,
            "units": [line(ids[k % len(ids)], f"Line {k + 1}") for k in range(size)]}


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_the_shortest_line_and_roster_the_builder_saves_are_measured() -> None:
    """MIN_UNIT_CHARS and MIN_ROSTER_CHARS are floors: the shortest line (a one-letter
    custom unit with the smallest stats, normalised as the builder saves it) and the
    shortest roster are no shorter, so a site's storage cannot hold more than READ_UNITS
    lines or READ_ROSTERS rosters."""
    short = {"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 0,
             "units": [{"name": "x", "count": 1, "preset": None, "stats": api.spec("sucs.unit_cost")["initial"]}]}
    normal, problems = core.normalize_roster(short)
    assert normal is not None, problems
    shortest_line = min(len(compact(normal["units"][0])),
                        *(len(compact({**line(pid), "name": "x"})) for pid in by_id()))
    assert shortest_line >= core.MIN_UNIT_CHARS, shortest_line
    assert len(compact(core.blank("x", 0))) >= core.MIN_ROSTER_CHARS
    assert (core.READ_UNITS + 1) * core.MIN_UNIT_CHARS > core.STORAGE_CHARS
    assert (core.READ_ROSTERS + 1) * core.MIN_ROSTER_CHARS > core.STORAGE_CHARS
    assert core.READ_UNITS > core.MAX_UNITS and core.READ_ROSTERS > core.MAX_ROSTERS


def test_a_roster_of_103_lines_and_a_file_of_202_rosters_are_read_whole() -> None:
    big = roster("Horde", 103)
    reply = api.run("sucs.roster_import", {"file": json.dumps(big)})
    assert reply["ok"] and reply["result"]["accepted"], reply
    assert len(reply["result"]["rosters"][0]["units"]) == 103
    check = api.run("sucs.roster_check", {"roster": json.dumps(big)})
    assert check["ok"] and len(check["result"]["units"]) == 103
    many = {"format": "sucs-rosters", "version": 1,
            "rosters": [{**core.blank(f"Army {i}", 100)} for i in range(202)]}
    reply = api.run("sucs.roster_import", {"file": json.dumps(many, indent=2)})
    assert reply["ok"] and reply["result"]["accepted"] and reply["result"]["count"] == 202


def test_more_than_storage_could_hold_is_refused_with_the_field_named() -> None:
    over = {**core.blank("x", 0), "units": [{"name": "a", "count": 1, "stats": {}}] * (core.READ_UNITS + 1)}
    reply = api.run("sucs.roster_import", {"file": json.dumps(over)})
    assert reply["ok"] and not reply["result"]["accepted"]
    (problem,) = reply["result"]["problems"]
    assert "Units" in problem["message"] and f"{core.READ_UNITS + 1:,}" in problem["message"]


def test_everything_storage_holds_exports_into_one_importable_file() -> None:
    """An Export all of a full storage is at most STORAGE_CHARS compact; pretty-printed
    (as earlier versions wrote it) a roster of published units grows under 2 times: both
    are within the one file limit, so no export is ever too large to import."""
    full = roster("Full", core.MAX_UNITS)
    normal, _ = core.normalize_roster(full)
    ratio = len(json.dumps({"format": "sucs-rosters", "version": 1, "rosters": [normal]}, indent=2)) \
        / len(compact(normal))
    assert ratio < 2, ratio
    assert core.MAX_FILE_CHARS >= 3 * core.STORAGE_CHARS
    assert core.MAX_FILE_CHARS >= core.MAX_ROSTERS * core.MAX_ROSTER_CHARS


def test_the_app_data_carries_both_kinds_of_limits() -> None:
    rules = api.app_data("sucs.roster")["rules"]
    assert (rules["max_units"], rules["max_rosters"]) == (core.MAX_UNITS, core.MAX_ROSTERS) == (100, 200)
    assert (rules["read_units"], rules["read_rosters"]) == (core.READ_UNITS, core.READ_ROSTERS)
    assert rules["storage_chars"] == core.STORAGE_CHARS == 5 * 1024 * 1024
