"""The tracker's states, events and reports as JSON.

The browser keeps the state in localStorage and sends it back with each event, so a
state is validated as strictly as any other input, through the same field declarations
as every calculator: every key known, every number in range, the whole consistent.
Errors carry the path of the bad key (``state.dice_left``) and say it in words.
"""

from __future__ import annotations

from typing import Any

from rules_core.errors import InputError
from rules_core.fields import (
    INVALID,
    BoolField,
    ChoiceField,
    Field,
    IntField,
    ListField,
    NameField,
    ObjectField,
)
from rules_core.messages import describe, parse_json
from rules_core.phases.tables import KEPT, MAX_POOL, MIN_POOL, PHASE_LABELS, SIDES, Phase
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


def _phase(name: str, label: str, **kw: Any) -> ChoiceField:
    return ChoiceField(name, label, choices=tuple((p.value, PHASE_LABELS[p]) for p in Phase),
                       **kw)


def _pool(name: str, label: str) -> IntField:
    return IntField(name, label, minimum=MIN_POOL, maximum=MAX_POOL)


#: a stored state: every key required, none unknown
STATE_FIELDS: tuple[Field, ...] = (
    ChoiceField("version", "Saved format version", choices=((STATE_VERSION, str(STATE_VERSION)),)),
    _pool("offense_dice", "Offense dice"),
    _pool("defence_dice", "Defence dice"),
    _phase("first_phase", "First phase"),
    IntField("round", "Round", minimum=1, maximum=MAX_ROUND),
    _phase("phase", "Phase"),
    IntField("dice_left", "Dice left", minimum=KEPT, maximum=MAX_LEFT),
    IntField("actions", "Actions this phase", minimum=0, maximum=MAX_ACTIONS),
    IntField("goal_spaces", "Momentum spaces", minimum=0, maximum=MAX_GOAL),
    IntField("goal_marked", "Momentum marks", minimum=0, maximum=MAX_GOAL),
)
STATE = ObjectField("state", "Saved fight", fields=STATE_FIELDS, text=True)

_TYPE = ChoiceField("type", "Event type", choices=(
    ("start", "start"), ("action", "action"), ("end_phase", "end of phase"),
    ("set_pools", "set the pools"), ("adjust", "add or remove dice"),
    ("set_goal", "set the momentum tracker"), ("look", "look")))

#: each event type's keys besides "type"
EVENT_FIELDS: dict[str, tuple[Field, ...]] = {
    "start": (_pool("offense_dice", "Offense dice"), _pool("defence_dice", "Defence dice"),
              _phase("first_phase", "First phase", default=Phase.OFFENSE.value),
              IntField("goal_spaces", "Momentum spaces", default=0, minimum=0, maximum=MAX_GOAL)),
    "action": (ListField("faces", "Dice rolled", optional=True, item="die", min_items=KEPT,
                         max_items=KEPT + 1,
                         of=IntField("face", "Face", minimum=1, maximum=SIDES)),
               BoolField("extra_die", "Extra die", default=False),
               NameField("note", "Note", default="", min_length=0, max_length=MAX_NOTE)),
    "end_phase": (),
    "set_pools": (_pool("offense_dice", "Offense dice"), _pool("defence_dice", "Defence dice")),
    "adjust": (IntField("change", "Dice added or removed", minimum=-MAX_LEFT, maximum=MAX_LEFT),),
    "set_goal": (IntField("spaces", "Momentum spaces", minimum=0, maximum=MAX_GOAL),
                 IntField("marked", "Momentum marks", default=0, minimum=0, maximum=MAX_GOAL)),
    "look": (),
}


#: labels of the state's and the events' keys, for messages that name them in words
STATE_PARTS = tuple((f.name, f.label) for f in STATE_FIELDS)
EVENT_PARTS = tuple({f.name: (f.name, f.label) for fields in EVENT_FIELDS.values()
                     for f in (_TYPE, *fields)}.values())


def _object(field: str, raw: Any) -> Any:
    if isinstance(raw, str):
        return parse_json(raw, field)
    return raw


def _checked(declared: ObjectField, raw: Any, field: str) -> dict[str, Any]:
    errors: list[InputError] = []
    clean = declared.collect(raw, field, errors)
    if errors:
        raise errors[0]
    assert clean is not INVALID
    return clean


def state_from_json(raw: Any, field: str = "state") -> TrackerState:
    """A stored state checked key by key; InputError names the first bad key."""
    data = _checked(STATE, raw, field)
    if data["goal_marked"] > data["goal_spaces"]:
        raise InputError(f"{field}.goal_marked", f"is {data['goal_marked']}, more marks than "
                                                 f"the tracker's {data['goal_spaces']} spaces.")
    del data["version"]
    return TrackerState(**{**data, "first_phase": Phase(data["first_phase"]),
                           "phase": Phase(data["phase"])})


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


def event_from_json(raw: Any, field: str = "event", need_faces: bool = True) -> Event:
    """An event from JSON; ``need_faces=False`` lets an action leave its dice to the roller."""
    data = _object(field, raw)
    if not isinstance(data, dict):
        raise InputError(field, f"must be an object; received {describe(data)}.")
    kind = _checked(ObjectField(field, "Event", fields=(_TYPE,), unknown="ignore"), data,
                    field)["type"]
    e = _checked(ObjectField(field, "Event", fields=(_TYPE, *EVENT_FIELDS[kind])), data, field)
    if kind == "start":
        return Start(e["offense_dice"], e["defence_dice"], Phase(e["first_phase"]),
                     e["goal_spaces"])
    if kind == "action":
        if e["faces"] is None and need_faces:
            raise InputError(f"{field}.faces", "is required: give the faces the table rolled "
                                               "(2 or 3 numbers from 1 to 6), or roll here.")
        return Action(None if e["faces"] is None else tuple(e["faces"]), e["extra_die"],
                      e["note"])
    if kind == "end_phase":
        return EndPhase()
    if kind == "look":
        return Look()
    if kind == "set_pools":
        return SetPools(e["offense_dice"], e["defence_dice"])
    if kind == "adjust":
        return Adjust(e["change"])
    return SetGoal(e["spaces"], e["marked"])


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
