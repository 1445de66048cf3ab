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

import json
from dataclasses import dataclass
from typing import Any

from rules_core.fields import describe
from rules_core.sucs.presets import by_id
from rules_core.sucs.unitfields import collect_problems, stats_of, unit_from_clean

ROSTER_FORMAT = "sucs-roster"
COLLECTION_FORMAT = "sucs-rosters"
VERSION = 1
MAX_FILE_CHARS = 400_000
MAX_DEPTH = 12
MAX_ROSTERS = 50
MAX_UNITS = 100
MAX_COUNT = 99
MAX_NAME = 80
MAX_LIMIT = 100_000
MAX_PROBLEMS = 50
ROSTER_KEYS = ("format", "version", "name", "points_limit", "units")
ENTRY_KEYS = ("name", "count", "preset", "stats")

Problem = dict[str, str]


def _problem(where: str, message: str) -> Problem:
    return {"field": where, "message": message}


def nesting_depth(text: str) -> int:
    """Deepest nesting of [ and { outside JSON strings (checked before parsing, so a
    hostile file cannot exhaust the parser's stack)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _text(raw: Any, where: str, problems: list[Problem], default: str | None = None) -> str:
    if raw is None and default is not None:
        return default
    if not isinstance(raw, str) or not raw.strip():
        problems.append(_problem(where, f"expected a name of 1 to {MAX_NAME} characters, "
                                        f"received {describe(raw)}."))
        return ""
    text = " ".join(raw.split())
    if len(text) > MAX_NAME:
        problems.append(_problem(where, f"is {len(text)} characters long; at most {MAX_NAME}."))
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
        problems.append(_problem(where, "contains control characters."))
    return text


def _int(raw: Any, where: str, low: int, high: int, problems: list[Problem]) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        if isinstance(raw, float) and raw.is_integer() and low <= raw <= high:
            return int(raw)
        problems.append(_problem(where, f"expected a whole number from {low} to {high}, "
                                        f"received {describe(raw)}."))
        return low
    return raw


def _unknown(raw: dict, allowed: tuple[str, ...], where: str, problems: list[Problem]) -> None:
    for key in raw:
        if key not in allowed:
            problems.append(_problem(where, f"{describe(str(key))} is not part of the format; "
                                            f"allowed: {', '.join(allowed)}."))


def normalize_entry(raw: Any, where: str, problems: list[Problem]) -> dict[str, Any] | None:
    """One roster line: name, count, optional preset id, stats."""
    if not isinstance(raw, dict):
        problems.append(_problem(where, f"expected a unit object, received {describe(raw)}."))
        return None
    _unknown(raw, ENTRY_KEYS, where, problems)
    name = _text(raw.get("name"), f"{where}.name", problems)
    count = _int(raw.get("count", 1), f"{where}.count", 1, MAX_COUNT, problems)
    preset = raw.get("preset")
    if preset is not None and (not isinstance(preset, str) or preset not in by_id()):
        problems.append(_problem(f"{where}.preset", f"{describe(preset)} is not a published "
                                                    "unit; leave it out for a custom unit."))
        preset = None
    clean, unit_problems = collect_problems(raw.get("stats"), f"{where}.stats")
    problems += unit_problems
    if clean is None:
        return None
    return {"name": name, "count": count, "preset": preset,
            "stats": stats_of(unit_from_clean(clean))}


def normalize_roster(raw: Any, where: str = "roster") -> tuple[dict[str, Any] | None,
                                                                list[Problem]]:
    """Check one roster object; return (normalized roster or None, problems)."""
    problems: list[Problem] = []
    if not isinstance(raw, dict):
        return None, [_problem(where, f"expected a roster object, received {describe(raw)}.")]
    _unknown(raw, ROSTER_KEYS, where, problems)
    if raw.get("format") != ROSTER_FORMAT:
        problems.append(_problem(f"{where}.format", f'expected "{ROSTER_FORMAT}", received '
                                                    f"{describe(raw.get('format'))}."))
    if raw.get("version") != VERSION or isinstance(raw.get("version"), bool):
        problems.append(_problem(f"{where}.version", f"this site reads version {VERSION}, "
                                                     f"received {describe(raw.get('version'))}."))
    name = _text(raw.get("name"), f"{where}.name", problems)
    limit = _int(raw.get("points_limit"), f"{where}.points_limit", 0, MAX_LIMIT, problems)
    units_raw = raw.get("units")
    units: list[dict[str, Any]] = []
    if not isinstance(units_raw, list):
        problems.append(_problem(f"{where}.units", f"expected a list of units, received "
                                                   f"{describe(units_raw)}."))
    elif len(units_raw) > MAX_UNITS:
        problems.append(_problem(f"{where}.units", f"has {len(units_raw)} lines; at most "
                                                   f"{MAX_UNITS}."))
    else:
        for i, entry in enumerate(units_raw):
            unit = normalize_entry(entry, f"{where}.units.{i}", problems)
            if unit is not None:
                units.append(unit)
    if problems:
        return None, problems
    return {"format": ROSTER_FORMAT, "version": VERSION, "name": name, "points_limit": limit,
            "units": units}, []


def parse_file(text: Any) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Read a roster file's text: (rosters, problems). Rosters only if no problems."""
    if not isinstance(text, str):
        return [], [_problem("file", f"expected the file's text, received {describe(text)}.")]
    if len(text) > MAX_FILE_CHARS:
        return [], [_problem("file", f"is {len(text)} characters long; a roster file is at "
                                     f"most {MAX_FILE_CHARS}.")]
    if nesting_depth(text) > MAX_DEPTH:
        return [], [_problem("file", f"is nested more than {MAX_DEPTH} levels deep; "
                                     "it is not a roster file.")]
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        return [], [_problem("file", f"is not valid JSON ({str(err)[:120]}).")]
    if isinstance(data, dict) and data.get("format") == COLLECTION_FORMAT:
        problems: list[Problem] = []
        _unknown(data, ("format", "version", "rosters"), "file", problems)
        if data.get("version") != VERSION:
            problems.append(_problem("file.version", f"this site reads version {VERSION}, "
                                                     f"received {describe(data.get('version'))}."))
        items = data.get("rosters")
        if not isinstance(items, list) or not items or len(items) > MAX_ROSTERS:
            problems.append(_problem("file.rosters", f"expected a list of 1 to {MAX_ROSTERS} "
                                                     f"rosters, received {describe(items)}."))
            items = []
    else:
        problems, items = [], [data]
    rosters = []
    for i, item in enumerate(items):
        where = "roster" if len(items) == 1 and items[0] is data else f"rosters.{i}"
        roster, found = normalize_roster(item, where)
        problems += found
        if roster is not None:
            rosters.append(roster)
    if problems:
        return [], problems[:MAX_PROBLEMS]
    return rosters, []


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


@dataclass(frozen=True)
class Warning:
    """A legality or points warning and what to change."""

    severity: str        # illegal / over_limit / advice
    unit: int | None     # index in the roster's units, or None for the whole roster
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "unit": self.unit, "message": self.message}
