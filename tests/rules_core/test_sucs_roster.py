"""SUCS rosters: schema round trip, hostile imports, legality checks."""

from __future__ import annotations

import copy
import json

import pytest

from rules_core import api
from rules_core.sucs.calc_tech_levels import preset_json
from rules_core.sucs.presets import by_id
from rules_core.sucs.roster import READ_UNITS, normalize_roster, parse_file


def entry(preset_id: str, count: int = 1, **changes: object) -> dict:
    unit = preset_json(by_id()[preset_id])
    stats = {**unit["stats"], **changes}
    return {"name": unit["name"], "count": count, "preset": preset_id, "stats": stats}


def roster(units: list[dict], limit: int = 200) -> dict:
    return {"format": "sucs-roster", "version": 1, "name": "Test army",
            "points_limit": limit, "units": units}


LEGAL = roster([entry("tl5-7/light-infantry", 3), entry("tl5-7/light-tank"),
                entry("tl5-7/officer", 2, support_reorganize=True)], limit=150)


def check(r: dict) -> dict:
    reply = api.run("sucs.roster_check", {"roster": r})
    assert reply["ok"], reply
    return reply["result"]


def test_round_trip_single_and_collection() -> None:
    normal, problems = normalize_roster(LEGAL)
    assert not problems
    rosters, problems = parse_file(json.dumps(normal))
    assert not problems and rosters == [normal]
    both = {"format": "sucs-rosters", "version": 1, "rosters": [normal, normal]}
    reply = api.run("sucs.roster_import", {"file": json.dumps(both)})
    assert reply["result"]["accepted"] and reply["result"]["rosters"] == [normal, normal]


def test_totals() -> None:
    result = check(LEGAL)
    # light infantry 8+2, light tank 8+30, officer 8+6+... (reorganize already in stats)
    assert [u["cost"] for u in result["units"]] == [10, 38, 14]
    assert result["total"] == 3 * 10 + 38 + 2 * 14
    assert result["legal"] and not result["over_limit"]


def test_over_limit_says_by_how_much() -> None:
    result = check({**LEGAL, "points_limit": 90})
    assert result["over_limit"] and not result["legal"]
    over = [w for w in result["warnings"] if w["severity"] == "over_limit"]
    assert "6 over the limit of 90" in over[0]["message"]


def test_commander_rules() -> None:
    result = check(roster([entry("tl5-7/light-infantry")]))
    assert any("no commander" in w["message"] for w in result["warnings"])
    # the TL 8-11 commander is printed without reorganize
    result = check(roster([entry("tl8-11/commander")]))
    messages = [w["message"] for w in result["warnings"] if w["severity"] == "illegal"]
    assert any("reorganize" in m and "+2 points" in m for m in messages)
    result = check(roster([entry("tl3-4/officer", range=3)]))
    assert any('at least 6"' in w["message"] for w in result["warnings"])


def test_ground_units_cannot_fly() -> None:
    result = check(roster([entry("tl3-4/officer"), entry("tl5-7/jeep", altitude="1")]))
    illegal = [w for w in result["warnings"] if w["severity"] == "illegal"]
    assert illegal and illegal[0]["unit"] == 1 and "altitude to 0" in illegal[0]["message"]


def test_advice_for_points_paid_for_nothing() -> None:
    result = check(roster([entry("tl3-4/officer", amphibious=True, mobility="air",
                                 altitude="1")]))
    assert any(w["severity"] == "advice" and "amphibious" in w["message"]
               for w in result["warnings"])


def test_mixed_tech_levels_advice() -> None:
    result = check(roster([entry("tl3-4/officer"), entry("tl12-15/grav-tank")]))
    assert any("several tech-level lists" in w["message"] for w in result["warnings"])


HOSTILE = [
    "",
    "not json",
    "[" * 5000 + "]" * 5000,
    '{"a":' * 40 + "1" + "}" * 40,
    "x" * 500_000,
    "null",
    "[]",
    '{"format": "sucs-roster", "version": 2, "name": "x", "points_limit": 10, "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": NaN, "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 1e999, "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": ' + "9" * 5000
    + ', "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "<img src=x onerror=alert(1)>' + "a" * 100
    + '", "points_limit": 10, "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "x\\u0000", "points_limit": 10, "units": []}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, '
    '"units": [], "__proto__": {"polluted": 1}}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, '
    '"units": [{"name": "a", "count": 1, "stats": {"armor": "9; drop table"}}]}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, '
    '"units": [{"name": "a", "count": 0, "stats": {}}]}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, '
    '"units": [{"name": "a", "count": 1, "preset": "../../etc/passwd", "stats": {}}]}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, '
    '"units": [{"name": "a", "count": 1, "stats": {"speed": true, "hack": 1}}]}',
    '{"format": "sucs-roster", "version": 1, "name": "x", "points_limit": 10, "units": ['
    + ",".join(['{"name": "a", "count": 1, "stats": {}}'] * (READ_UNITS + 1)) + "]}",
    '{"format": "sucs-rosters", "version": 1, "rosters": []}',
    '{"format": "sucs-rosters", "version": 1, "rosters": [{"format": "sucs-roster"}]}',
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_files_are_refused_with_problems(text: str) -> None:
    rosters, problems = parse_file(text)
    assert rosters == [] and problems
    assert all(set(p) == {"field", "message"} for p in problems)
    reply = api.run("sucs.roster_import", {"file": text})
    if reply["ok"]:
        assert not reply["result"]["accepted"] and reply["result"]["rosters"] == []
        assert reply["result"]["problems"]
    else:  # beyond twice the file limit the field itself refuses
        assert reply["error"]["field"] == "file"


def test_problems_are_all_listed() -> None:
    bad = copy.deepcopy(LEGAL)
    bad["units"][0]["stats"]["armor"] = -1
    bad["units"][1]["count"] = 1000
    bad["name"] = ""
    rosters, problems = parse_file(json.dumps(bad))
    fields = {p["field"] for p in problems}
    # positions count from 1, and each message names its place in words
    assert {"roster.units.1.stats.armor", "roster.units.2.count", "roster.name"} <= fields
    messages = {p["field"]: p["message"] for p in problems}
    assert messages["roster.units.1.stats.armor"].startswith("The 1st unit, Armor must be")
    assert messages["roster.units.2.count"].startswith("The 2nd unit, Number of units must")
    assert messages["roster.name"].startswith("Roster name is empty")


def test_roster_check_refuses_a_malformed_roster() -> None:
    reply = api.run("sucs.roster_check", {"roster": {"format": "nope"}})
    assert not reply["ok"] and reply["error"]["field"] == "roster"
    reply = api.run("sucs.roster_check", {"roster": json.dumps(LEGAL)})
    assert reply["ok"]


def test_stats_are_normalized() -> None:
    sparse = roster([{"name": "Blank", "count": 1, "stats": {"attack": 1}}])
    normal, problems = normalize_roster(sparse)
    assert not problems
    stats = normal["units"][0]["stats"]
    assert stats["attack"] == 1 and stats["speed"] == 6 and stats["alt_weapons"] == ""
    assert normal["units"][0]["preset"] is None


def test_a_stored_roster_is_checked_on_its_own() -> None:
    """The builder checks each roster read from browser storage with sucs.roster_import
    (compact JSON), and keeps a refused one aside as an indented roster file that the
    same import accepts once fixed."""
    normal, _ = normalize_roster(LEGAL)
    reply = api.run("sucs.roster_import", {"file": json.dumps(normal, separators=(",", ":"))})
    assert reply["ok"] and reply["result"]["accepted"] and reply["result"]["rosters"] == [normal]
    bad = copy.deepcopy(normal)
    bad["units"][1]["stats"]["armor"] = 99
    reply = api.run("sucs.roster_import", {"file": json.dumps(bad, indent=2)})
    assert reply["ok"] and not reply["result"]["accepted"]
    assert [p["field"] for p in reply["result"]["problems"]] == ["roster.units.2.stats.armor"]
    bad["units"][1]["stats"]["armor"] = normal["units"][1]["stats"]["armor"]
    reply = api.run("sucs.roster_import", {"file": json.dumps(bad, indent=2)})
    assert reply["result"]["accepted"] and reply["result"]["rosters"] == [normal]


@pytest.mark.parametrize("change", [
    {"points_limit": 10**30}, {"name": "x" * 100_000}, {"units": [{"name": "a", "count": 1, "stats": {}}] * (READ_UNITS + 1)},
    {"rev": 3}, {"id": "r1"},
])
def test_store_entry_fields_and_huge_values_are_refused(change: dict) -> None:
    """Huge values the builder's storage check sets aside are refused by the core too,
    and the store's own entry fields (id, rev) are not part of a roster file."""
    reply = api.run("sucs.roster_import", {"file": json.dumps({**LEGAL, **change})})
    assert reply["ok"] and not reply["result"]["accepted"]
    assert reply["result"]["problems"][0]["field"].startswith("roster")


def test_an_export_of_the_most_rosters_of_the_longest_units_fits_the_file_limit() -> None:
    """Whatever the builder exports imports back: the longest unit line (a name of quotes,
    escaped to two characters each; four alternative weapons of ten 20s; the longest
    preset id; every number at its largest) is within MAX_UNIT_CHARS, so an "Export all"
    of MAX_ROSTERS rosters of MAX_UNITS such lines is within MAX_FILE_CHARS."""
    from rules_core.sucs import roster as roster_module
    longest = entry(max(by_id(), key=len), roster_module.MAX_COUNT)
    longest["name"] = '"' * roster_module.MAX_NAME
    longest["stats"].update(alt_weapons=" or ".join([",".join(["20"] * 10)] * 4),
                            special_weapons=5, armor=20, attack=20, targets=10)
    normal, problems = normalize_roster(roster([longest]))
    assert normal is not None, problems
    line = json.dumps(normal["units"][0], ensure_ascii=False, separators=(",", ":"))
    assert len(line) <= roster_module.MAX_UNIT_CHARS, len(line)
    head = json.dumps({**normal, "name": '"' * roster_module.MAX_NAME, "units": []},
                      ensure_ascii=False, separators=(",", ":"))
    per_roster = len(head) + roster_module.MAX_UNITS * (roster_module.MAX_UNIT_CHARS + 1) + 2
    assert per_roster <= roster_module.MAX_ROSTER_CHARS  # what one share link may carry
    assert 100 + roster_module.MAX_ROSTERS * per_roster <= roster_module.MAX_FILE_CHARS
