"""Army rosters: the versioned JSON schema, import of roster files and the legality
checks (source: SUCS, "Unit Costs", "Special rules for commanders", "Altitude",
"Transport" paragraphs of "Unit Features").

A roster file is either one roster or a collection::

    {"format": "sucs-roster", "version": 1, "name": "...", "points_limit": 200,
     "units": [{"name": "...", "count": 2, "preset": "tl5-7/light-tank", "stats": {...}}]}
    {"format": "sucs-rosters", "version": 1, "rosters": [<roster>, ...]}

Everything read from a file is checked here, every problem is listed, and nothing is
accepted unless there are none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_core.errors import InputError
from rules_core.fields import ChoiceField, IntField, ListField, NameField, ObjectField
from rules_core.messages import describe, nesting_depth, parse_json, sentence
from rules_core.sucs.presets import by_id
from rules_core.sucs.unitfields import STATS, stats_of, unit_from_clean

__all__ = ["COLLECTION", "MAX_DEPTH", "MAX_FILE_CHARS", "MAX_UNIT_CHARS", "ROSTER", "Warning", "nesting_depth",
           "normalize_roster", "parse_file"]

ROSTER_FORMAT = "sucs-roster"
COLLECTION_FORMAT = "sucs-rosters"
VERSION = 1
MAX_DEPTH = 12
#: the most rosters the builder keeps: New, Duplicate and Copy refuse past it
MAX_ROSTERS = 200
#: the most lines the builder gives one roster: Add unit, Add a blank unit and Copy refuse
#: past it
MAX_UNITS = 100
#: the local storage a browser gives one site, in characters (5 MiB: Chromium, Firefox
#: and Safari alike); nothing the builder ever saved, in any version, is larger
STORAGE_CHARS = 5 * 1024 * 1024
#: the shortest unit line and the shortest roster as the builder saves them (compact
#: JSON, every stat written out; a test measures both)
MIN_UNIT_CHARS = 400
MIN_ROSTER_CHARS = 70
#: what a roster file or a saved roster may hold when it is read: earlier versions let
#: Copy, Add a blank unit and New run past MAX_UNITS and MAX_ROSTERS, so reading takes
#: as much as a site's storage could ever hold. A roster over the builder's limits is
#: shown, exported and imported whole; only additions are refused.
READ_UNITS = STORAGE_CHARS // MIN_UNIT_CHARS
READ_ROSTERS = STORAGE_CHARS // MIN_ROSTER_CHARS
#: the longest unit line a roster file holds as the builder writes it (compact JSON, names
#: of MAX_NAME characters, the longest alternative weapons): a test measures it
MAX_UNIT_CHARS = 800
#: the largest roster: MAX_UNITS of the longest unit lines and its name (what a share
#: link may carry)
MAX_ROSTER_CHARS = MAX_UNITS * MAX_UNIT_CHARS + 1_000
#: the largest roster file: an "Export all" of MAX_ROSTERS rosters of MAX_UNITS units each
#: fits, and so does anything a site's storage holds, exported (STORAGE_CHARS, compact)
#: or pretty-printed as earlier versions wrote it: whatever the builder exports imports
#: back (the one import limit; the page reads it from the app's data)
MAX_FILE_CHARS = max(MAX_ROSTERS * MAX_ROSTER_CHARS, 3 * STORAGE_CHARS)
MAX_COUNT = 99
#: units a side may field in a battle of two rosters, counts included (sucs.roster_battle)
MAX_BATTLE_UNITS = 20
MAX_NAME = 80
MAX_LIMIT = 100_000
MAX_PROBLEMS = 50

Problem = dict[str, str]


class PresetField(ChoiceField):
    """The id of a published unit (the choices are read from the unit lists)."""

    def allowed(self) -> str:
        return "the id of a published unit (leave it out for a custom unit)"


def _version(name: str) -> ChoiceField:
    return ChoiceField(name, "Format version", choices=((VERSION, f"{VERSION}"),))


#: one roster line (source: the builder's roster file format)
ENTRY = ObjectField("unit", "Unit", fields=(
    NameField("name", "Unit name", max_length=MAX_NAME),
    IntField("count", "Number of units", default=1, minimum=1, maximum=MAX_COUNT),
    PresetField("preset", "Published unit", optional=True,
                choices=tuple((pid, pid) for pid in by_id())),
    STATS,
))

#: one roster: the versioned JSON schema of the builder's files and storage
ROSTER = ObjectField("roster", "Roster", fields=(
    ChoiceField("format", "Format", choices=((ROSTER_FORMAT, f'"{ROSTER_FORMAT}"'),)),
    _version("version"),
    NameField("name", "Roster name", max_length=MAX_NAME),
    IntField("points_limit", "Points limit (0 for none)", minimum=0, maximum=MAX_LIMIT),
    ListField("units", "Units", of=ENTRY, max_items=READ_UNITS, item="unit"),
))

#: a file of several rosters
COLLECTION = ObjectField("file", "File", fields=(
    ChoiceField("format", "Format", choices=((COLLECTION_FORMAT, f'"{COLLECTION_FORMAT}"'),)),
    _version("version"),
    ListField("rosters", "Rosters", of=ROSTER, min_items=1, max_items=READ_ROSTERS,
              item="roster"),
))


def _problems(root: ObjectField, errors: list[InputError], top: str) -> list[Problem]:
    """Each error as {"field": path, "message": sentence naming the place in words}."""
    out = []
    for err in errors[:MAX_PROBLEMS]:
        below = err.field.split(".")[1:]
        where = ", ".join(root.words(below)) if below else top
        out.append({"field": err.field, "message": sentence(where, err.message)})
    return out


def _normal(clean: dict[str, Any]) -> dict[str, Any]:
    """A checked roster in its canonical form (every stat written out)."""
    return {"format": ROSTER_FORMAT, "version": VERSION, "name": clean["name"],
            "points_limit": clean["points_limit"],
            "units": [{"name": u["name"], "count": u["count"], "preset": u["preset"],
                       "stats": stats_of(unit_from_clean(u["stats"]))}
                      for u in clean["units"]]}


def blank(name: str, points_limit: int) -> dict[str, Any]:
    """A roster with no units, in the current file format."""
    return {"format": ROSTER_FORMAT, "version": VERSION, "name": name,
            "points_limit": points_limit, "units": []}


def normalize_roster(raw: Any, where: str = "roster") -> tuple[dict[str, Any] | None,
                                                                list[Problem]]:
    """Check one roster object; return (normalized roster or None, every problem)."""
    errors: list[InputError] = []
    clean = ROSTER.collect(raw, where, errors)
    if errors:
        return None, _problems(ROSTER, errors, "the roster")
    return _normal(clean), []


def parse_file(text: Any) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Read a roster file's text: (rosters, problems). Rosters only if no problems."""
    if not isinstance(text, str):
        return [], [{"field": "file", "message": sentence(
            "the file", f"must be the file's text; received {describe(text)}.")}]
    if len(text) > MAX_FILE_CHARS:
        return [], [{"field": "file", "message": sentence(
            "the file", f"is {len(text):,} characters long; a roster file is at most "
                        f"{MAX_FILE_CHARS:,}.")}]
    try:
        data = parse_json(text, "file", MAX_DEPTH)
    except InputError as err:
        return [], [{"field": "file", "message": sentence("the file", err.message)}]
    if isinstance(data, dict) and data.get("format") == COLLECTION_FORMAT:
        errors: list[InputError] = []
        clean = COLLECTION.collect(data, "file", errors)
        if errors:
            return [], _problems(COLLECTION, errors, "the file")
        return [_normal(r) for r in clean["rosters"]], []
    roster, problems = normalize_roster(data)
    return ([roster] if roster is not None else []), problems


@dataclass(frozen=True)
class Warning:
    """A legality or points warning and what to change."""

    severity: str        # illegal / over_limit / advice
    unit: int | None     # index in the roster's units, or None for the whole roster
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "unit": self.unit, "message": self.message}
