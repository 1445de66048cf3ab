"""The action dice tracker as a pure state machine (source: 2d6 combat phases, "Combat
rounds", "Action dice tracker", "Outcomes" and "Combat momentum").

:func:`advance` takes a state and an event and returns the next state with a report of
what happened. An event the rules do not allow raises :class:`InputError` naming the
problem; states are immutable, so a refused event leaves the caller's state as it was.

Rulings applied here (see the Rulings page, "2d6 combat phases"):

* an action spends 2 dice, or 3 with the extra die; with exactly 3 left it spends 3;
* the die a failed offense (or a successful defence) removes comes from the dice still
  left after the action, whether or not the action used the extra die; none left, none
  removed;
* a phase ends when fewer than 2 dice are left: a lone die cannot make an action roll;
* a defence ultra success ends the defence phase at once and starts the offense phase;
* successes and ultra successes, on offense or defence, mark the momentum tracker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from rules_core.errors import InputError
from rules_core.phases.action import Resolution, resolve
from rules_core.phases.tables import (
    KEPT,
    MAX_POOL,
    MIN_POOL,
    OUTCOME_LABELS,
    PHASE_LABELS,
    SHORT_MEANING,
    SIDES,
    Outcome,
    Phase,
)

#: Most dice a phase can hold after the referee adds dice mid-phase (e.g. a "+1 defence
#: die" complication).
MAX_LEFT = 10
#: Largest momentum tracker.
MAX_GOAL = 20
#: Bounds that keep a stored state sane.
MAX_ROUND = 9999
MAX_ACTIONS = MAX_LEFT


@dataclass(frozen=True)
class TrackerState:
    """Where the fight stands."""

    offense_dice: int  # pool the referee set for offense phases
    defence_dice: int  # pool the referee set for defence phases
    first_phase: Phase  # the phase each round opens with (offense unless ambushed)
    round: int
    phase: Phase
    dice_left: int  # action dice left in the current phase (always 2 or more)
    actions: int  # actions taken so far in the current phase
    goal_spaces: int = 0  # momentum tracker size, 0 when there is no goal
    goal_marked: int = 0

    def pool(self, phase: Phase) -> int:
        return self.offense_dice if phase is Phase.OFFENSE else self.defence_dice


@dataclass(frozen=True)
class Start:
    """Begin (or restart) a fight with both pools set by the referee."""

    offense_dice: int
    defence_dice: int
    first_phase: Phase = Phase.OFFENSE
    goal_spaces: int = 0


@dataclass(frozen=True)
class Action:
    """One action roll; ``faces`` holds 2 or 3 dice (None: roll them for me)."""

    faces: tuple[int, ...] | None
    extra_die: bool = False
    note: str = ""


@dataclass(frozen=True)
class EndPhase:
    """The referee ends the current phase early; its unspent dice are lost."""


@dataclass(frozen=True)
class SetPools:
    """New threat levels, used from the next phase (and at once if no one has acted)."""

    offense_dice: int
    defence_dice: int


@dataclass(frozen=True)
class Adjust:
    """Add (or take away) dice in the current phase, e.g. a "+1 defence die" result."""

    change: int


@dataclass(frozen=True)
class Look:
    """Change nothing: check a stored state and get its view (after a page reload)."""


@dataclass(frozen=True)
class SetGoal:
    """Set up (or clear, with 0 spaces) the momentum tracker, or correct its marks."""

    spaces: int
    marked: int = 0


Event = Start | Action | EndPhase | SetPools | Adjust | SetGoal | Look


@dataclass(frozen=True)
class Report:
    """What an event did, for the log (``text`` is one line of plain text)."""

    event: str
    round: int
    phase: Phase
    text: str
    faces: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    total: int | None = None
    outcome: Outcome | None = None
    dice_spent: int = 0
    extra_die_automatic: bool = False
    die_removed: bool = False
    goal_marked: bool = False
    phase_ended: bool = False


@dataclass(frozen=True)
class Step:
    """The next state and the report of how it was reached."""

    state: TrackerState
    report: Report


def _check_pool(field: str, dice: int) -> None:
    if not MIN_POOL <= dice <= MAX_POOL:
        raise InputError(field, f"the referee sets from {MIN_POOL} to {MAX_POOL} dice per side, "
                                f"received {dice}.")


def start(event: Start) -> TrackerState:
    """The state at the start of a fight."""
    _check_pool("event.offense_dice", event.offense_dice)
    _check_pool("event.defence_dice", event.defence_dice)
    if not 0 <= event.goal_spaces <= MAX_GOAL:
        raise InputError("event.goal_spaces", f"must be from 0 to {MAX_GOAL}, "
                                              f"received {event.goal_spaces}.")
    phase = event.first_phase
    return TrackerState(event.offense_dice, event.defence_dice, phase, 1, phase,
                        event.offense_dice if phase is Phase.OFFENSE else event.defence_dice,
                        0, event.goal_spaces, 0)


def dice_for_action(state: TrackerState, extra_die: bool) -> int:
    """How many dice the next action spends: 2, or 3 with the extra die; exactly 3
    left means the third is spent automatically (source: Action dice tracker, note)."""
    if state.dice_left == KEPT + 1:
        return KEPT + 1
    if extra_die:
        if state.dice_left < KEPT + 1:
            raise InputError("event.extra_die",
                             f"only {state.dice_left} dice are left in this phase, so there is "
                             "no die to spare for advantage or disadvantage; roll 2.")
        return KEPT + 1
    return KEPT


def _next_phase(state: TrackerState) -> TrackerState:
    phase = state.phase.other
    new_round = state.round + (1 if phase is state.first_phase else 0)
    return replace(state, phase=phase, round=min(new_round, MAX_ROUND),
                   dice_left=state.pool(phase), actions=0)


def _phase_over(state: TrackerState, why: str) -> tuple[TrackerState, str]:
    """Close the current phase and open the other; the sentence saying so."""
    nxt = _next_phase(state)
    return nxt, (f"{why} The {state.phase.value} phase is over; round {nxt.round} "
                 f"{nxt.phase.value} phase begins with {nxt.dice_left} dice.")


def _after_spending(state: TrackerState, left: int) -> tuple[TrackerState, str, bool]:
    """Move on to the next phase when fewer than 2 dice are left."""
    if left >= KEPT:
        return replace(state, dice_left=left), f"{left} {state.phase.value} dice left.", False
    why = ("No dice left." if left == 0 else
           "1 die left, which cannot make an action roll on its own.")
    nxt, text = _phase_over(state, why)
    return nxt, text, True


def _action(state: TrackerState, event: Action) -> Step:
    spent = dice_for_action(state, event.extra_die)
    faces = event.faces
    why = (" (exactly three dice are left, so the third is used automatically)"
           if state.dice_left == KEPT + 1 and not event.extra_die else "")
    if faces is None:
        raise InputError("event.faces", f"this action rolls {spent} dice{why}: give the "
                                        "faces the table rolled, or roll them here.")
    if len(faces) != spent:
        raise InputError("event.faces", f"this action rolls {spent} dice{why}; "
                                        f"received {len(faces)} faces.")
    res: Resolution = resolve(state.phase, faces)
    left = state.dice_left - spent
    removes = ((state.phase is Phase.OFFENSE and res.outcome is Outcome.FAILURE)
               or (state.phase is Phase.DEFENCE and res.outcome is Outcome.SUCCESS))
    removed = removes and left > 0
    left -= 1 if removed else 0
    marks = (res.outcome in (Outcome.SUCCESS, Outcome.ULTRA)
             and state.goal_marked < state.goal_spaces)
    acted = replace(state, actions=min(state.actions + 1, MAX_ACTIONS),
                    goal_marked=state.goal_marked + (1 if marks else 0))
    auto = spent == KEPT + 1 and not event.extra_die
    dice_text = " ".join(str(f) for f in res.faces)
    kept_text = "+".join(str(f) for f in res.kept)
    parts = [f"{event.note.strip()}: " if event.note.strip() else "",
             f"{PHASE_LABELS[state.phase]} action {state.actions + 1}: rolled {dice_text}",
             " (third die automatic)" if auto else "",
             f", kept {kept_text} = {res.total}: {OUTCOME_LABELS[res.outcome]}, "
             f"{SHORT_MEANING[state.phase][res.outcome].lower()}."]
    if removes and not removed:
        parts.append(" No die left to remove.")
    if marks:
        parts.append(f" Momentum {acted.goal_marked}/{acted.goal_spaces}.")
    if state.phase is Phase.DEFENCE and res.outcome is Outcome.ULTRA:
        nxt, text = _phase_over(acted, "Ultra success on defence:")
        ended = True
    else:
        nxt, text, ended = _after_spending(acted, left)
    report = Report("action", state.round, state.phase, "".join(parts) + " " + text,
                    res.faces, res.kept, res.total, res.outcome, spent, auto, removed,
                    marks, ended)
    return Step(nxt, report)


def advance(state: TrackerState | None, event: Event) -> Step:
    """The next state of the tracker after ``event``, with a report.

    Raises InputError (and so leaves ``state`` in force) for an event the rules refuse.
    """
    if isinstance(event, Start):
        new = start(event)
        return Step(new, Report("start", new.round, new.phase,
                                f"Fight begins: {new.offense_dice} offense dice, "
                                f"{new.defence_dice} defence dice; round 1 opens with the "
                                f"{new.phase.value} phase."))
    if state is None:
        raise InputError("state", "no fight is under way; start one first "
                                  "(an event of type start with both pools).")
    if isinstance(event, Action):
        return _action(state, event)
    if isinstance(event, Look):
        return Step(state, Report("look", state.round, state.phase, "No change."))
    if isinstance(event, EndPhase):
        nxt, text = _phase_over(
            state, f"The referee ends the phase with {state.dice_left} dice unspent.")
        return Step(nxt, Report("end_phase", state.round, state.phase, text, phase_ended=True))
    if isinstance(event, SetPools):
        _check_pool("event.offense_dice", event.offense_dice)
        _check_pool("event.defence_dice", event.defence_dice)
        new = replace(state, offense_dice=event.offense_dice, defence_dice=event.defence_dice)
        when = "from the next phase"
        if state.actions == 0:
            new = replace(new, dice_left=new.pool(state.phase))
            when = "now (no one has acted in this phase yet)"
        return Step(new, Report("set_pools", state.round, state.phase,
                                f"Threat set to {event.offense_dice} offense and "
                                f"{event.defence_dice} defence dice, {when}."))
    if isinstance(event, Adjust):
        left = state.dice_left + event.change
        if event.change == 0 or not 0 <= left <= MAX_LEFT:
            raise InputError("event.change", f"must add or take away dice leaving 0 to "
                                             f"{MAX_LEFT} in the phase ({state.dice_left} are "
                                             f"left now), received {event.change}.")
        word = "added to" if event.change > 0 else "taken from"
        nxt, text, ended = _after_spending(state, left)
        return Step(nxt, Report("adjust", state.round, state.phase,
                                f"{abs(event.change)} {state.phase.value} dice {word} the phase. "
                                + text, phase_ended=ended))
    if isinstance(event, SetGoal):
        if not 0 <= event.spaces <= MAX_GOAL or not 0 <= event.marked <= event.spaces:
            raise InputError("event.spaces", f"a momentum tracker has 0 to {MAX_GOAL} spaces "
                                             "and no more marks than spaces, received "
                                             f"{event.spaces} spaces, {event.marked} marked.")
        text = (f"Momentum tracker: {event.marked}/{event.spaces} spaces marked."
                if event.spaces else "Momentum tracker cleared.")
        return Step(replace(state, goal_spaces=event.spaces, goal_marked=event.marked),
                    Report("set_goal", state.round, state.phase, text))
    raise InputError("event", f"unknown event {event!r:.60}.")  # pragma: no cover


def next_state(state: TrackerState | None, event: Event) -> TrackerState:
    """The pure transition function: ``(state, event) -> next state``."""
    return advance(state, event).state


class Roller(Protocol):
    """What rolls the dice: :class:`random.Random`, or a whole fight's
    :class:`rules_core.solver.Dice`, which also keeps every face."""

    def randint(self, low: int, high: int, /) -> int: ...


def roll_action(state: TrackerState, extra_die: bool, rng: Roller, note: str = "") -> Step:
    """Roll real dice for the next action and feed them to the same transition."""
    faces = tuple(rng.randint(1, SIDES) for _ in range(dice_for_action(state, extra_die)))
    return advance(state, Action(faces, extra_die, note))
