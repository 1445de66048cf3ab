"""Calculators of the tracker page: what a threat level means (the expected actions and
damage of one offense and one defence phase) and the action dice tracker through the API:
``phases.tracker`` takes a state and an event (both JSON) and returns the next state, a
report for the log and what to show next.

The browser's tracker keeps the state and sends it back with each event, so the page
runs exactly the transition the tests exercise. ``api.roll`` rolls the dice of an action
event that has no faces and feeds them to the same transition.
"""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, table
from rules_core.fields import TextField
from rules_core.phases import expectations as ex
from rules_core.phases.inputs import TRACKER_PAGE, side_fields
from rules_core.phases.tables import KEPT, PHASE_LABELS, Outcome, Phase
from rules_core.phases.tracker import (
    Action,
    Step,
    TrackerState,
    advance,
    roll_action,
)
from rules_core.phases.tracker_json import (
    EVENT_PARTS,
    STATE_PARTS,
    event_from_json,
    report_to_json,
    state_from_json,
    state_to_json,
)

TURN = {
    Phase.OFFENSE: "Offense: the players take turns acting with their characters or allies; "
                   "each character attacks at most once this phase.",
    Phase.DEFENCE: "Defence: the enemy attacks; the player whose character is targeted "
                   "rolls to avoid the harm.",
}
EXTRA = {
    Phase.OFFENSE: "advantage: if every player agrees, a third offense die is spent and the "
                   "best two count",
    Phase.DEFENCE: "disadvantage: the referee may spend a third defence die and the worst "
                   "two count",
}


def _parse_state(field: str, raw: Any) -> TrackerState:
    return state_from_json(raw, field)


def _parse_event(field: str, raw: Any) -> Any:
    return event_from_json(raw, field, need_faces=False)


FIELDS = (
    TextField("state", "Tracker state (JSON)", optional=True, parse=_parse_state, parts=STATE_PARTS,
              help="The state the last event returned; leave it out to start a fight."),
    TextField("event", "Event (JSON)", initial='{"type": "start", "offense_dice": 5, '
                                              '"defence_dice": 5}',
              parse=_parse_event, parts=EVENT_PARTS,
              help='What happens next, e.g. {"type": "action", "faces": [6, 4]}.'),
)


def view(state: TrackerState) -> dict[str, Any]:
    """What the tracker shows between events: whose turn, what the next action spends."""
    phase = state.phase
    auto = state.dice_left == KEPT + 1
    choose = state.dice_left > KEPT + 1
    if auto:
        next_action = (f"Exactly three dice are left: the next action rolls all three, "
                       f"which gives {EXTRA[phase].split(':')[0]}.")
    elif choose:
        next_action = f"The next action rolls 2 dice, or 3 for {EXTRA[phase]}."
    else:
        next_action = "Two dice are left: the next action rolls both and ends the phase."
    return {
        "round": state.round,
        "phase": phase.value,
        "phase_label": PHASE_LABELS[phase],
        "dice_left": state.dice_left,
        "pool": state.pool(phase),
        "turn": TURN[phase],
        "next_action": next_action,
        "extra_die": "automatic" if auto else ("optional" if choose else "none"),
        "extra_label": ("Advantage" if phase is Phase.OFFENSE else "Disadvantage"),
        "goal": ({"spaces": state.goal_spaces, "marked": state.goal_marked,
                  "complete": state.goal_marked >= state.goal_spaces}
                 if state.goal_spaces else None),
    }


def _reply(step: Step) -> Result:
    return {"state": state_to_json(step.state), "report": report_to_json(step.report),
            "view": view(step.state)}


def _compute(inputs: dict[str, Any]) -> Result:
    return _reply(advance(inputs["state"], inputs["event"]))


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    state, event = inputs["state"], inputs["event"]
    if not isinstance(event, Action):
        raise InputError("event.type", "only an action can be rolled; send other events "
                                       "with run.")
    if state is None:
        raise InputError("state", "no fight is under way; start one first.")
    if event.faces is not None:
        raise InputError("event.faces", "leave the faces out to roll them here.")
    step = roll_action(state, event.extra_die, rng, event.note)
    return {**_reply(step), "dice": [{"die": "d6", "face": f} for f in step.report.faces],
            "summary": step.report.text}


def _explain(inputs: dict[str, Any], result: Result) -> str:
    v = result["view"]
    return (f"{result['report']['text']}\n\nNow: round {v['round']}, **{v['phase']} phase**, "
            f"{v['dice_left']} dice left. {v['next_action']} "
            f"({rule('spending dice', TRACKER_PAGE, 'spending-dice')}, "
            f"{rule('when a phase ends', TRACKER_PAGE, 'when-a-phase-ends')})")


TRACKER = Calculator(
    name="phases.tracker",
    title="Action dice tracker (one step)",
    summary="The tracker's state machine: a state and an event in, the next state and "
            "what happened out.",
    fields=FIELDS,
    compute=_compute,
    explain=_explain,
    headline=lambda r: [("Round", str(r["view"]["round"])),
                        ("Phase", r["view"]["phase_label"]),
                        ("Dice left", str(r["view"]["dice_left"]))],
    roll=_roll,
    roll_label="Roll the action",
    page=TRACKER_PAGE,
)


# --- what a threat level means ------------------------------------------------------

PHASE_ODDS_FIELDS = side_fields(
    "The players' side: more dice, more actions in the offense phase.",
    "The enemy's side: more dice, more attacks in the defence phase.")


def _phase_figures(odds: ex.PhaseOdds, groups: dict[str, tuple[Outcome, ...] | None]) -> Result:
    out: Result = {}
    for key, outcomes in groups.items():
        value = odds.expected(outcomes)
        out[key] = float(value)
        out[key + "_exact"] = str(value)
    return out


def _phase_compute(inputs: dict[str, Any]) -> Result:
    off = ex.phase_odds(Phase.OFFENSE, inputs["offense_dice"], inputs["offense_extra"])
    dfn = ex.phase_odds(Phase.DEFENCE, inputs["defence_dice"], inputs["defence_extra"])
    cut_short = 1 - dfn.distribution(ex.ULTRAS)[0]
    return {
        "offense": _phase_figures(off, {"actions": None, "damage_dealt": ex.DAMAGE_DEALT,
                                        "complications": ex.COMPLICATIONS,
                                        "ultras": ex.ULTRAS, "momentum": ex.MOMENTUM}),
        "defence": {**_phase_figures(dfn, {"actions": None, "damage_taken": ex.DAMAGE_TAKEN,
                                           "complications": ex.COMPLICATIONS,
                                           "momentum": ex.MOMENTUM}),
                    "ultra_ends_phase": float(cut_short), "ultra_ends_phase_exact": str(cut_short)},
        **to_json("damage_dealt", off.distribution(ex.DAMAGE_DEALT)),
        **to_json("damage_taken", dfn.distribution(ex.DAMAGE_TAKEN)),
    }


def _phase_explain(inputs: dict[str, Any], result: Result) -> str:
    o, d = result["offense"], result["defence"]
    rows = [
        ["Actions", f"{o['actions']:.2f}", f"{d['actions']:.2f}"],
        ["Damage dealt by the players' side", f"{o['damage_dealt']:.2f}", "-"],
        ["Damage taken by the players' side", "-", f"{d['damage_taken']:.2f}"],
        ["Complications", f"{o['complications']:.2f}", f"{d['complications']:.2f}"],
        ["Momentum marks", f"{o['momentum']:.2f}", f"{d['momentum']:.2f}"],
    ]
    return (
        f"Expected values for one offense phase with {inputs['offense_dice']} dice and one "
        f"defence phase with {inputs['defence_dice']} dice, worked out exactly over every "
        f"way the phase can go ({rule('how dice are spent', TRACKER_PAGE, 'spending-dice')}, "
        f"{rule('removing dice', TRACKER_PAGE, 'removing-dice')}).\n\n"
        + table(["Per phase", "Offense", "Defence"], rows)
        + f"\n\nA damaging action counts once, whatever the damage rolled. An ultra success "
          f"on defence ends the phase early in {percent(d['ultra_ends_phase'])} of defence "
          f"phases. A lone die left over cannot be rolled and is lost "
          f"([ruling](/rulings/#a-single-die-left-over))."
    )


PHASE_ODDS = Calculator(
    name="phases.phase_odds",
    title="What a threat level means",
    summary="Exact expected actions, damage dealt and damage taken in one offense and one "
            "defence phase for given action dice.",
    fields=PHASE_ODDS_FIELDS,
    compute=_phase_compute,
    explain=_phase_explain,
    headline=lambda r: [("Actions on offense", f"{r['offense']['actions']:.2f}"),
                        ("Damage dealt", f"{r['offense']['damage_dealt']:.2f}"),
                        ("Actions on defence", f"{r['defence']['actions']:.2f}"),
                        ("Damage taken", f"{r['defence']['damage_taken']:.2f}")],
    charts=(Chart("damage_dealt", "Damaging actions in the offense phase", "Actions"),
            Chart("damage_taken", "Hits taken in the defence phase", "Hits")),
    page=TRACKER_PAGE,
)


# --- the tracker app's data ---------------------------------------------------------

#: the tracker's saved fight: its format version, the log steps kept, and the limits a
#: saved or loaded fight is read within ({history: [{state, view: {goal: {...}}}]} is 5
#: deep)
SAVE_VERSION = 1
MAX_HISTORY = 300
MAX_FILE_CHARS = 2_000_000
MAX_DEPTH = 8


def tracker_app_data() -> dict[str, Any]:
    """What the tracker (``app`` phases.tracker) takes from the core at build time: the
    keys of a state (a newer version's extra keys are dropped when a fight is read) and
    the saved fight's format and limits, none of them retyped in the scripts."""
    return {"state_keys": [name for name, _ in STATE_PARTS], "version": SAVE_VERSION,
            "max_history": MAX_HISTORY, "max_file_chars": MAX_FILE_CHARS, "max_depth": MAX_DEPTH}
