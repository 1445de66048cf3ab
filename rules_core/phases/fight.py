"""A whole fight with a momentum goal as an exact Markov chain (source: 2d6 combat
phases, "Combat rounds", "Action dice tracker", "Outcomes" and "Combat momentum"): the system's implementation of the one fight interface,
:class:`rules_core.solver.Fight`.

Between rounds the fight is three numbers: the **marks on the momentum tracker**, when
the side can only take so much, the **full-damage results it has taken** (failed
defence actions), and, when the enemy has a damage track, the **damaging attacks it has
taken** (offense partial successes, successes and ultra successes; Rulings, "Damage to
the enemy"); without a limit or a track they are not counted and stay 0. One round is
played action by action through the tracker's own transition
(:func:`rules_core.phases.tracker.advance`), every outcome of each action weighed by its
exact chance (:func:`rules_core.phases.action.outcome_distribution`), so the chain
follows every tracker rule: the automatic third die, removed dice, a lone die lost, a
defence ultra ending the phase. The fight ends the moment the tracker fills (the goal is
reached), the moment the enemy has taken the damaging attacks that put it down, or, if a
limit is set, the moment the side has taken that many full-damage results.

The same walk, started at one phase with no goal, gives how the action dice of a phase
run out (:func:`phase_endings`).

Rulings (Rulings page, "A fight to the goal"): the referee keeps both pools as set for
the whole fight; the fight stops mid-round as soon as it is decided.

Party and hit points (Rulings page, "Hit points and party size"; the source gives
neither): each character attacks once per phase, so with a party size an offense phase
also ends, its dice left lost, once every character still standing has acted. Hit points
become a number of failed defences a character (or, with no party size, the whole side)
can take; the enemy either works on one character until it is down (``spread`` false)
or lands each hit on the least hurt one still standing. Who is down follows from the
number of failed defences alone, so the chain's state stays three numbers.
A pool of two dice is one two-die action (Rulings, "A pool of two dice").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from rules_core import solver
from rules_core.cascade import Cascade, by_steps
from rules_core.phases.action import outcome_distribution
from rules_core.phases.expectations import ExtraDie, sample_faces
from rules_core.phases.tables import KEPT, MIN_POOL, OUTCOME_LABELS, Outcome, Phase
from rules_core.phases.tracker import (
    Action,
    EndPhase,
    Start,
    Step,
    TrackerState,
    advance,
    dice_for_action,
    roll_action,
)

GOAL = "Goal reached"
ENEMY_DOWN = "Enemy down"
WORN_DOWN = "Side worn down"
OUTCOMES = (GOAL, ENEMY_DOWN, WORN_DOWN)
#: offense outcomes that deal damage to the enemy (source: Offense outcomes)
DAMAGING = (Outcome.PARTIAL, Outcome.SUCCESS, Outcome.ULTRA)

#: (momentum marks, full-damage results taken, damaging attacks on the enemy)
State = tuple[int, int, int]

#: how a phase can end, for :func:`phase_endings`
ALL_SPENT = "Every die spent"
LONE_DIE = "One die left over"
CUT_SHORT = "Cut short by an ultra"
ENDINGS = (ALL_SPENT, LONE_DIE, CUT_SHORT)


@dataclass(frozen=True)
class Fight:
    """The referee's pools, how each side uses the extra die, and the goal."""

    offense_dice: int
    defence_dice: int
    goal_spaces: int
    offense_extra: str = ExtraDie.AUTO
    defence_extra: str = ExtraDie.AUTO
    first_phase: Phase = Phase.OFFENSE
    damage_limit: int | None = None  # full-damage results the side can take; None: no limit
    party_size: int | None = None  # characters who attack once each per phase; None: no cap
    hits_each: int | None = None  # failed defences that put one character down; None: never
    spread: bool = False  # each hit on the least hurt character, not one until it is down
    other_tasks: bool = False  # once all have attacked, the dice left still roll (no cap)
    enemy_hits: int | None = None  # damaging attacks that put the enemy down; None: never

    def standing(self, taken: int) -> int | None:
        """Characters still standing after ``taken`` failed defences (None: no party
        size, so the offense is not capped)."""
        if self.party_size is None:
            return None
        if self.hits_each is None:
            return self.party_size
        if self.spread:  # everyone reaches hits_each - 1 before the first falls
            down = max(0, taken - self.party_size * (self.hits_each - 1))
        else:
            down = taken // self.hits_each
        return max(0, self.party_size - down)

    def pool(self, phase: Phase) -> int:
        return self.offense_dice if phase is Phase.OFFENSE else self.defence_dice

    def extra(self, phase: Phase) -> str:
        return self.offense_extra if phase is Phase.OFFENSE else self.defence_extra

    def outcome(self, state: State) -> str | None:
        """Goal reached, enemy down, side worn down, or None while the fight goes on (an
        action that both fills the tracker and downs the enemy reaches the goal)."""
        marks, taken, dealt = state
        if marks >= self.goal_spaces:
            return GOAL
        if self.enemy_hits is not None and dealt >= self.enemy_hits:
            return ENEMY_DOWN
        if self.damage_limit is not None and taken >= self.damage_limit:
            return WORN_DOWN
        return None

    @property
    def outcome_order(self) -> tuple[str, ...]:
        """Without a damage limit the side cannot be worn down, nor the enemy without a
        damage track."""
        return tuple(o for o, on in zip(OUTCOMES, (True, self.enemy_hits is not None,
                                                   self.damage_limit is not None)) if on)

    def start(self) -> State:
        """No marks, no damage taken or dealt."""
        return (0, 0, 0)

    def losses(self, state: State) -> dict[str, int]:
        """Full-damage results taken (``a``), counted only with a damage limit, and
        damaging attacks on the enemy (``b``), only with an enemy damage track."""
        out = {"a": state[1]} if self.damage_limit is not None else {}
        if self.enemy_hits is not None:
            out["b"] = state[2]
        return out

    def step(self, state: State) -> solver.Moves:
        """One round from ``(marks, taken, dealt)``, exactly."""
        marks, taken, dealt = state
        room = None if self.damage_limit is None else self.damage_limit - taken
        enemy = None if self.enemy_hits is None else self.enemy_hits - dealt
        return solver.whole_moves(((m, taken + t, dealt + d), p) for (m, t, d), p
                                  in _round_moves(self, marks, taken, room, enemy))

    def sample(self, state: State, dice: solver.Dice) -> tuple[State, str]:
        """One round with real dice through :func:`roll_action` (the faces are kept by
        ``dice``), stopping the moment the fight is decided."""
        marks, taken, dealt = state
        tracker = self.round_start(marks)
        parts: list[str] = []
        while True:
            use = uses_extra(tracker, self.extra(tracker.phase))
            step = roll_action(tracker, use, dice)
            acting = self.standing(taken)
            taken += taken_by(step)
            dealt += dealt_by(step, tracker, acting) if self.enemy_hits is not None else 0
            outcome = step.report.outcome or Outcome.FAILURE  # an action always has one
            parts.append(f"{step.report.phase.value} {' '.join(map(str, step.report.faces))}: "
                         f"{OUTCOME_LABELS[outcome].lower()}"
                         + (", the enemy takes damage" if self.enemy_hits is not None
                            and dealt_by(step, tracker, acting) else ""))
            decided = self.outcome((step.state.goal_marked, taken, dealt)) is not None
            after = self.cap_offense(step.state, acting)
            if after is not step.state:
                parts.append(f"all {acting} standing characters have attacked")
            if decided or after.round != tracker.round:
                break
            tracker = after
        marks = step.state.goal_marked
        standing = self.standing(taken)
        line = (", ".join(parts) + f" (momentum {marks}/{self.goal_spaces}, "
                f"full damage taken {taken}"
                + (f", {standing}/{self.party_size} characters standing"
                   if standing is not None and self.hits_each is not None else "")
                + (f", damaging attacks on the enemy {dealt}/{self.enemy_hits}"
                   if self.enemy_hits is not None else "") + ")")
        return (marks, taken, dealt), line

    def cap_offense(self, state: TrackerState, acting: int | None) -> TrackerState:
        """Each character attacks once per phase (source: Combat rounds): once ``acting``
        characters have acted in an offense phase, it ends and its dice left are lost
        (the tracker's own end of phase). Unchanged otherwise, and always with
        ``other_tasks``: the dice left then go to actions that are not attacks."""
        if (acting is None or self.other_tasks or state.phase is not Phase.OFFENSE
                or state.actions < acting):
            return state
        return advance(state, EndPhase()).state

    def round_start(self, marks: int) -> TrackerState:
        """The tracker at the start of a round with ``marks`` on the momentum tracker."""
        return opening(self.offense_dice, self.defence_dice, self.first_phase,
                       self.goal_spaces, marks)


def opening(offense_dice: int, defence_dice: int, first: Phase, goal_spaces: int = 0,
            marks: int = 0) -> TrackerState:
    """The tracker at the start of a round. Built here rather than by the tracker's
    ``Start``, which keeps to the referee's 3 to 7 dice: a whole fight also takes a pool
    of two, one two-die action (Rulings, "A pool of two dice")."""
    if min(offense_dice, defence_dice) >= MIN_POOL:
        state = advance(None, Start(offense_dice, defence_dice, first, goal_spaces)).state
        return replace(state, goal_marked=marks)
    return TrackerState(offense_dice, defence_dice, first, 1, first,
                        offense_dice if first is Phase.OFFENSE else defence_dice, 0,
                        goal_spaces, marks)


def uses_extra(state: TrackerState, extra: str) -> bool:
    """Whether the side takes the optional third die on this action."""
    return extra == ExtraDie.ALWAYS and state.dice_left > KEPT


@lru_cache(maxsize=16)
def _odds(phase: Phase, dice: int) -> tuple[tuple[Outcome, Fraction], ...]:
    """The action-odds calculator's exact outcome chances, computed once per roll size."""
    return tuple((o, p) for o, p in outcome_distribution(phase, dice).items() if p)


@lru_cache(maxsize=4096)
def action_moves(state: TrackerState, extra: str) -> tuple[tuple[Step, Fraction], ...]:
    """Every way the next action can go: the tracker's step for each outcome, with its
    exact chance (faces that give the outcome are fed to :func:`advance`)."""
    use = uses_extra(state, extra)
    spent = dice_for_action(state, use)
    return tuple((advance(state, Action(sample_faces(state.phase, spent, outcome), use)), p)
                 for outcome, p in _odds(state.phase, spent))


def taken_by(step: Step) -> int:
    """1 when the action was a failed defence: the character takes full damage."""
    return int(step.report.phase is Phase.DEFENCE and step.report.outcome is Outcome.FAILURE)


def dealt_by(step: Step, before: TrackerState, acting: int | None) -> int:
    """1 when the action was an attack that deals damage: a partial success, a success
    or an ultra success on offense (source: Offense outcomes), taken while a character
    had still to attack (``acting``: characters standing, None for no party size; the
    dice left once all have attacked go to other tasks, which deal none)."""
    attack = acting is None or before.actions < acting
    return int(attack and step.report.phase is Phase.OFFENSE
               and step.report.outcome in DAMAGING)


#: every action's chance is a whole number of 216ths (2 dice: 36ths; 3 dice: 216ths)
DEN = 6 ** (KEPT + 1)


@lru_cache(maxsize=4096)
def _weighted_moves(state: TrackerState, extra: str) -> tuple[tuple[Step, int], ...]:
    r""":func:`action_moves` with each chance as a whole number of :data:`DEN`\ ths, so the
    walk within a round adds and multiplies integers only."""
    moves = tuple((step, p * DEN) for step, p in action_moves(state, extra))
    if any(w.denominator != 1 for _, w in moves):  # pragma: no cover - dice are d6s
        raise ValueError(f"an action's chance is not a whole number of {DEN}ths")
    return tuple((step, int(w)) for step, w in moves)


@lru_cache(maxsize=512)
def _round_moves(fight: Fight, marks: int, before: int, room: int | None,
                 enemy: int | None = None) -> tuple[tuple[State, Fraction], ...]:
    r"""One round from ``marks``: the marks reached, damage taken and damaging attacks
    on the enemy, up to the moment the round ends or the fight is decided (``before``:
    failed defences taken before the round, which set who is standing; ``room``: damage
    the side can still take, ``enemy``: damaging attacks the enemy can still take, None
    for no limit). Walked action by action; after ``depth`` actions every weight is a
    whole number of ``DEN ** depth``\ ths."""
    start = fight.round_start(marks)
    walking: dict[tuple[TrackerState, int, int], int] = {(start, 0, 0): 1}
    done: dict[State, Fraction] = {}
    depth = 0
    while walking:
        depth += 1
        nxt: dict[tuple[TrackerState, int, int], int] = {}
        ended: dict[State, int] = {}
        for (state, taken, dealt), w in walking.items():
            acting = fight.standing(before + taken)
            for step, q in _weighted_moves(state, fight.extra(state.phase)):
                hurt = taken + (taken_by(step) if room is not None else 0)
                hit = dealt + (dealt_by(step, state, acting) if enemy is not None else 0)
                new = fight.cap_offense(step.state, acting)
                if (new.goal_marked >= fight.goal_spaces or new.round != state.round
                        or (room is not None and hurt >= room)
                        or (enemy is not None and hit >= enemy)):
                    key = (new.goal_marked, hurt, hit)
                    ended[key] = ended.get(key, 0) + w * q
                else:
                    nxt[(new, hurt, hit)] = nxt.get((new, hurt, hit), 0) + w * q
        for key, w in ended.items():
            done[key] = done.get(key, Fraction(0)) + Fraction(w, DEN ** depth)
        walking = nxt
    return tuple(done.items())


#: transitions one answer may evaluate (``solver.solve(fight, max_work=MAX_WORK)``). Without a damage limit the chain is at most 21
#: states wide and never comes near it; with one, the exact fractions grow long over many
#: rounds, and this keeps the worst case to a few seconds in CPython.
MAX_WORK = 60_000


@lru_cache(maxsize=64)
def phase_endings(phase: Phase, dice: int, extra: str) -> dict[tuple[int, int, str], Fraction]:
    """How one phase of ``dice`` action dice runs out: the exact chance of each
    (actions taken, dice removed, ending), ending one of :data:`ENDINGS`."""
    start = opening(dice, dice, phase)
    walking: dict[tuple[TrackerState, int], Fraction] = {(start, 0): Fraction(1)}
    out: dict[tuple[int, int, str], Fraction] = {}
    while walking:
        nxt: dict[tuple[TrackerState, int], Fraction] = {}
        for (state, removed), p in walking.items():
            for step, q in action_moves(state, extra):
                gone = removed + int(step.report.die_removed)
                if not step.report.phase_ended:
                    nxt[(step.state, gone)] = nxt.get((step.state, gone), Fraction(0)) + p * q
                    continue
                left = state.dice_left - step.report.dice_spent - int(step.report.die_removed)
                ending = (CUT_SHORT if left >= KEPT else LONE_DIE if left == 1 else ALL_SPENT)
                key = (state.actions + 1, gone, ending)
                out[key] = out.get(key, Fraction(0)) + p * q
        walking = nxt
    return out


# ---- how a fight is answered (rules_core.cascade) ------------------------------------

#: with a damage limit (and no hit points), round cap x spaces x limit past this and the
#: exact walk is not tried (about a second of exact arithmetic in CPython; without a
#: limit the chain is tiny)
LIMITED_SIZE = 2400
#: with hit points, the momentum marks x failed defences past this and the exact walk is
#: not tried: each is one round walked action by action (up to about 1.1 ms at 7 dice a
#: side, not counted by the solver's cost), so at most about 0.45 s
MAX_HP_STATES = 400
#: with the enemy's damage track, the same products times the damaging attacks that put
#: it down (a third number in the state) may be at most MAX_HP_STATES with hit points,
#: and LIMITED_SIZE x ENEMY_FACTOR otherwise, for the exact walk to be tried
ENEMY_FACTOR = 4
#: the exact walk's cost budget (moves x 64-bit words of the exact masses) per round of
#: the cap, with hit points or the enemy's track: COST_PER_ROUND for each of the first
#: COST_ROUNDS rounds, COST_PER_LATER_ROUND for each after (a round late in a long fight
#: costs more time per unit); measured on the worst inputs the form takes
COST_PER_ROUND = 20_000
COST_PER_LATER_ROUND = 8_000
COST_ROUNDS = 20
#: the pruned walk's budget at a round cap of 20 (moves followed, and the states whose
#: round is built, each counted as BUILD_WORK moves: building one walks the round action
#: by action), about half a second of CPython; three times it at 100
MAX_PRUNED_WORK, BUILD_WORK = 60_000, 40
#: fights one simulation step plays (a short run, so that the first answer comes soon
#: while each state's round is still being built the first time it is met), the most a
#: simulation plays, and the most rounds
SIM_BATCH, SIM_MAX_FIGHTS, SIM_MAX_ROUNDS = 10, 250_000, 500_000


def cost_budget(max_rounds: int) -> int:
    """The exact walk's ``max_cost`` for a fight with hit points or the enemy's track at
    this round cap."""
    return (COST_PER_ROUND * min(max_rounds, COST_ROUNDS)
            + COST_PER_LATER_ROUND * max(0, max_rounds - COST_ROUNDS))


def cascade(fight: Fight, max_rounds: int, untried: str = "") -> Cascade:
    """How the fight is answered: the exact walk within :data:`MAX_WORK` (and, with hit
    points or the enemy's track, :func:`cost_budget`), unless ``untried`` says why not
    (:func:`rules_core.phases.inputs.past_exact`); the pruned walk within
    :data:`MAX_PRUNED_WORK`; then a simulation (:func:`rules_core.cascade.by_steps`)."""
    counted = fight.hits_each is not None or fight.enemy_hits is not None
    exact = None if untried else (
        {"max_work": MAX_WORK * max_rounds, "max_cost": cost_budget(max_rounds)} if counted
        else {"max_work": MAX_WORK})
    return by_steps(((Fraction(1), fight),), max_rounds, exact=exact,
                    pruned_work=solver.scaled_budget(MAX_PRUNED_WORK, max_rounds),
                    build_work=BUILD_WORK, untried=untried, batch=SIM_BATCH,
                    max_fights=SIM_MAX_FIGHTS, max_work=SIM_MAX_ROUNDS)
