"""What a threat level means: exact odds for one whole phase (source: 2d6 combat phases,
"Action dice tracker" and "Outcomes").

A Markov chain over the tracker's own states: from each state, every outcome of the
next action is weighed by its exact chance and fed to :func:`tracker.advance` (with a
set of faces that produces that outcome), until the phase ends. So these odds follow
every rule the tracker follows: the automatic third die, removed dice, lone dice lost,
and a defence ultra success cutting the phase short.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules_core.phases.action import outcome_distribution, resolve
from rules_core.phases.tables import KEPT, SIDES, Outcome, Phase
from rules_core.phases.tracker import Action, Start, TrackerState, advance, dice_for_action

#: counts of each outcome over the phase, in Outcome order
Tally = tuple[int, ...]


class ExtraDie:
    """When the side uses the optional extra die."""

    AUTO = "auto"  # only the automatic one, when exactly three dice are left
    ALWAYS = "always"  # on every action that has three or more dice left

    ALL = (AUTO, ALWAYS)


#: the choices a form offers for :class:`ExtraDie`
EXTRA_CHOICES = ((ExtraDie.AUTO, "Only when exactly three dice are left"),
                 (ExtraDie.ALWAYS, "On every action with three or more dice left"))


@cache
def sample_faces(phase: Phase, dice: int, outcome: Outcome) -> tuple[int, ...]:
    """The first roll (in face order) of ``dice`` dice that gives ``outcome``."""
    for faces in itertools.product(range(1, SIDES + 1), repeat=dice):
        if resolve(phase, faces).outcome is outcome:
            return faces
    raise ValueError(f"no roll of {dice} dice gives {outcome.value}")  # never: all are possible


def phase_start(phase: Phase, dice: int) -> TrackerState:
    """A tracker at the start of a ``phase`` with ``dice`` action dice."""
    return advance(None, Start(dice, dice, first_phase=phase)).state


@cache
def tally_distribution(state: TrackerState, extra: str) -> dict[Tally, Fraction]:
    """Exact distribution of the outcome counts from ``state`` to the end of its phase."""
    use_extra = extra == ExtraDie.ALWAYS and state.dice_left > KEPT
    spent = dice_for_action(state, use_extra)
    result: dict[Tally, Fraction] = {}
    for outcome, p in outcome_distribution(state.phase, spent).items():
        step = advance(state, Action(sample_faces(state.phase, spent, outcome), use_extra))
        here = tuple(int(o is outcome) for o in Outcome)
        rest = ({(0,) * len(Outcome): Fraction(1)} if step.report.phase_ended
                else tally_distribution(step.state, extra))
        for tally, q in rest.items():
            key = tuple(a + b for a, b in zip(here, tally))
            result[key] = result.get(key, Fraction(0)) + p * q
    return result


@dataclass(frozen=True)
class PhaseOdds:
    """Exact distributions of what one phase produces."""

    phase: Phase
    dice: int
    extra: str
    tallies: dict[Tally, Fraction]

    def distribution(self, outcomes: tuple[Outcome, ...] | None = None) -> dict[int, Fraction]:
        """Distribution of the number of actions with one of ``outcomes`` (None: all)."""
        wanted = [i for i, o in enumerate(Outcome) if outcomes is None or o in outcomes]
        dist: dict[int, Fraction] = {}
        for tally, p in self.tallies.items():
            n = sum(tally[i] for i in wanted)
            dist[n] = dist.get(n, Fraction(0)) + p
        return dict(sorted(dist.items()))

    def expected(self, outcomes: tuple[Outcome, ...] | None = None) -> Fraction:
        return sum((n * p for n, p in self.distribution(outcomes).items()), Fraction(0))


#: outcomes that deal damage on offense, that hurt on defence, that mark momentum
DAMAGE_DEALT = (Outcome.PARTIAL, Outcome.SUCCESS, Outcome.ULTRA)
DAMAGE_TAKEN = (Outcome.FAILURE,)
COMPLICATIONS = (Outcome.PARTIAL,)
MOMENTUM = (Outcome.SUCCESS, Outcome.ULTRA)
ULTRAS = (Outcome.ULTRA,)


def phase_odds(phase: Phase, dice: int, extra: str = ExtraDie.AUTO) -> PhaseOdds:
    """Exact odds for a whole ``phase`` started with ``dice`` action dice."""
    if extra not in ExtraDie.ALL:
        raise ValueError(f"extra must be one of {ExtraDie.ALL}")
    return PhaseOdds(phase, dice, extra, tally_distribution(phase_start(phase, dice), extra))
