"""The tracker's states, events and reports as JSON.

The browser keeps the state in localStorage and sends it back with each event, so a
state is validated as strictly as any other input: every key known, every number in
range, the whole consistent. Errors name the key (``state.dice_left``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules_core.errors import InputError
from rules_core.fields import describe
from rules_core.phases.action import check_faces
from rules_core.phases.tables import KEPT, MAX_POOL, MIN_POOL, Phase
from rules_core.phases.tracker import (
    MAX_ACTIONS,
    MAX_GOAL,
    MAX_LEFT,
    MAX_ROUND,
    Action,
    Adjust,
    EndPhase,
    Event,
    Look,
    Report,
    SetGoal,
    SetPools,
    Start,
    TrackerState,
)

STATE_VERSION = 1
MAX_NOTE = 80

#: state key -> (lowest, highest) for the whole-number keys
_STATE_INTS: dict[str, tuple[int, int]] = {
    "offense_dice": (MIN_POOL, MAX_POOL),
    "defence_dice": (MIN_POOL, MAX_POOL),
    "round": (1, MAX_ROUND),
    "dice_left": (KEPT, MAX_LEFT),
    "actions": (0, MAX_ACTIONS),
    "goal_spaces": (0, MAX_GOAL),
    "goal_marked": (0, MAX_GOAL),
}
_STATE_KEYS = {"version", "phase", "first_phase", *_STATE_INTS}


def _object(field: str, raw: Any) -> Mapping[str, Any]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise InputError(field, f"expected a JSON object, received text that is not JSON "
                                    f"({describe(raw)}).") from None
    if not isinstance(raw, Mapping):
        raise InputError(field, f"expected a JSON object, received {describe(raw)}.")
    return raw


def _int(field: str, raw: Any, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InputError(field, f"must be a whole number from {low} to {high}, "
                                f"received {describe(raw)}.")
    return raw


def _phase(field: str, raw: Any) -> Phase:
    for phase in Phase:
        if raw == phase.value:
            return phase
    raise InputError(field, f"must be offense or defence, received {describe(raw)}.")


def _bool(field: str, raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise InputError(field, f"must be true or false, received {describe(raw)}.")
    return raw


def _unknown(field: str, raw: Mapping[str, Any], known: set[str]) -> None:
    for key in raw:
        if key not in known:
            raise InputError(f"{field}.{str(key)[:40]}", "is not a key of this object; the keys "
                                                         f"are: {', '.join(sorted(known))}.")


def state_from_json(raw: Any, field: str = "state") -> TrackerState:
    """A stored state checked key by key; InputError names the first bad key."""
    data = _object(field, raw)
    _unknown(field, data, _STATE_KEYS)
    for key in sorted(_STATE_KEYS):
        if key not in data:
            raise InputError(f"{field}.{key}", "is missing from the stored state.")
    if data["version"] != STATE_VERSION:
        raise InputError(f"{field}.version", f"must be {STATE_VERSION}, "
                                             f"received {describe(data['version'])}.")
    ints = {k: _int(f"{field}.{k}", data[k], *bounds) for k, bounds in _STATE_INTS.items()}
    if ints["goal_marked"] > ints["goal_spaces"]:
        raise InputError(f"{field}.goal_marked", f"{ints['goal_marked']} marks on a tracker "
                                                 f"of {ints['goal_spaces']} spaces.")
    return TrackerState(first_phase=_phase(f"{field}.first_phase", data["first_phase"]),
                        phase=_phase(f"{field}.phase", data["phase"]), **ints)


def state_to_json(state: TrackerState) -> dict[str, Any]:
    """The JSON form :func:`state_from_json` reads back."""
    return {
        "version": STATE_VERSION,
        "offense_dice": state.offense_dice,
        "defence_dice": state.defence_dice,
        "first_phase": state.first_phase.value,
        "round": state.round,
        "phase": state.phase.value,
        "dice_left": state.dice_left,
        "actions": state.actions,
        "goal_spaces": state.goal_spaces,
        "goal_marked": state.goal_marked,
    }


_EVENT_KEYS: dict[str, set[str]] = {
    "start": {"offense_dice", "defence_dice", "first_phase", "goal_spaces"},
    "action": {"faces", "extra_die", "note"},
    "end_phase": set(),
    "set_pools": {"offense_dice", "defence_dice"},
    "adjust": {"change"},
    "set_goal": {"spaces", "marked"},
    "look": set(),
}


def event_from_json(raw: Any, field: str = "event", need_faces: bool = True) -> Event:
    """An event from JSON; ``need_faces=False`` lets an action leave its dice to the roller."""
    data = _object(field, raw)
    kind = data.get("type")
    if kind not in _EVENT_KEYS:
        raise InputError(f"{field}.type", f"must be one of {', '.join(_EVENT_KEYS)}; "
                                          f"received {describe(kind)}.")
    _unknown(field, data, _EVENT_KEYS[kind] | {"type"})

    def get(key: str, default: Any = None) -> Any:
        if data.get(key) is None:
            if default is None:
                raise InputError(f"{field}.{key}", f"is required for an event of type {kind}.")
            return default
        return data[key]

    if kind == "start":
        return Start(_int(f"{field}.offense_dice", get("offense_dice"), MIN_POOL, MAX_POOL),
                     _int(f"{field}.defence_dice", get("defence_dice"), MIN_POOL, MAX_POOL),
                     _phase(f"{field}.first_phase", get("first_phase", "offense")),
                     _int(f"{field}.goal_spaces", get("goal_spaces", 0), 0, MAX_GOAL))
    if kind == "action":
        faces = data.get("faces")
        if faces is None and need_faces:
            raise InputError(f"{field}.faces", "give the faces the table rolled "
                                               "(2 or 3 numbers from 1 to 6), or roll here.")
        note = get("note", "")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise InputError(f"{field}.note", f"must be text of at most {MAX_NOTE} characters, "
                                              f"received {describe(note)}.")
        return Action(None if faces is None else check_faces(f"{field}.faces", faces),
                      _bool(f"{field}.extra_die", get("extra_die", False)), note)
    if kind == "end_phase":
        return EndPhase()
    if kind == "look":
        return Look()
    if kind == "set_pools":
        return SetPools(_int(f"{field}.offense_dice", get("offense_dice"), MIN_POOL, MAX_POOL),
                        _int(f"{field}.defence_dice", get("defence_dice"), MIN_POOL, MAX_POOL))
    if kind == "adjust":
        return Adjust(_int(f"{field}.change", get("change"), -MAX_LEFT, MAX_LEFT))
    return SetGoal(_int(f"{field}.spaces", get("spaces"), 0, MAX_GOAL),
                   _int(f"{field}.marked", get("marked", 0), 0, MAX_GOAL))


def report_to_json(report: Report) -> dict[str, Any]:
    """A report for the log (plain values only)."""
    return {
        "event": report.event,
        "round": report.round,
        "phase": report.phase.value,
        "text": report.text,
        "faces": list(report.faces),
        "kept": list(report.kept),
        "total": report.total,
        "outcome": report.outcome.value if report.outcome else None,
        "dice_spent": report.dice_spent,
        "extra_die_automatic": report.extra_die_automatic,
        "die_removed": report.die_removed,
        "goal_marked": report.goal_marked,
        "phase_ended": report.phase_ended,
    }
