"""A whole fight's answer as a calculator shows it: the result JSON, the charts, the
headline and the by-round table, the same for every system (the presentation above
:mod:`rules_core.solver`, which knows nothing of forms or pages)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules_core.calculator import Chart
from rules_core.cascade import Refinement
from rules_core.dice.distribution import one_in, percent
from rules_core.explain import table
from rules_core.fields import IntField
from rules_core.solver import (
    PRUNE_FLOOR,
    STILL_FIGHTING,
    TOP_ROUNDS,
    Odds,
    Pruned,
    Simulated,
    wilson,
)

#: an exact chance is given in the result only while its numerator and denominator have
#: at most this many digits together (Python refuses to print an integer of more than
#: 4,300 digits; a reader never needs one): past it the result keeps the float alone
MAX_EXACT_DIGITS = 4_000
#: log10(2), for counting an integer's decimal digits from its bits without printing it
_DIGITS_PER_BIT = 0.30103


def exact(p: Fraction) -> str | None:
    """``p`` as an exact string, or None when it is too long to be of use."""
    bits = p.numerator.bit_length() + p.denominator.bit_length()
    return str(p) if bits * _DIGITS_PER_BIT <= MAX_EXACT_DIGITS else None


def _exact_map(chances: Mapping[Any, Fraction]) -> dict[str, str] | None:
    out = {str(k): exact(p) for k, p in chances.items()}
    return None if None in out.values() else {k: v for k, v in out.items() if v is not None}


def round_cap_field(initial: int = 20, maximum: int = TOP_ROUNDS, word: str = "Round"
                    ) -> IntField:
    """The round cap every whole fight takes: past it the fight counts as still going
    (``word``: what the system calls a round, such as the SUCS "Turn")."""
    return IntField("max_rounds", f"{word} cap", default=initial, minimum=1, maximum=maximum,
                    help=f"{word}s played before a fight still going is reported as "
                         f"\"{STILL_FIGHTING}\".")


def to_result(odds: Odds | Pruned | Simulated, sides: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The JSON result every whole-fight calculator returns.

    ``outcomes`` / ``outcomes_exact``: final outcome -> chance (floats / exact strings,
    the exact ones sum to exactly 1). ``by_round`` / ``by_round_exact``: round -> outcome
    -> chance the fight has ended that way by then. ``end_round`` / ``end_round_exact``:
    the round the fight ends in (the chart; :data:`STILL_FIGHTING` last when possible).
    ``expected_rounds``. For each side ``(key, title)``: ``losses_<key>`` and its exact
    twin, the distribution of what that side lost. An ``_exact`` twin is left out when
    one of its fractions is past :data:`MAX_EXACT_DIGITS`, and always for a pruned walk
    (:class:`rules_core.solver.Pruned`, in floating point), whose ``error_bound`` is the
    chance it dropped, and for a simulation (:class:`rules_core.solver.Simulated`), whose
    ``method`` is "simulation", with its ``trials`` and each outcome's 95% ``intervals``.
    """
    by_round: Sequence[Mapping[str, Any]] = odds.by_round
    result: dict[str, Any] = {
        "outcomes": {k: float(p) for k, p in odds.outcomes.items()},
        "by_round": {str(r): {k: float(p) for k, p in row.items()}
                     for r, row in enumerate(by_round, 1)},
        "expected_rounds": float(odds.expected_rounds),
        "max_rounds": odds.max_rounds,
        "peak_states": odds.peak_states,
    }
    end_round: dict[str, Any] = {str(r): p for r, p in odds.ends_in.items()}
    if STILL_FIGHTING in odds.outcomes:
        end_round[f"Past {odds.max_rounds}"] = odds.outcomes[STILL_FIGHTING]
    result["end_round"] = {k: float(p) for k, p in end_round.items()}
    dists: dict[str, Mapping[int, Any]] = {key: odds.losses.get(key, {0: Fraction(1)})
                                           for key, _title in sides}
    for key, dist in dists.items():
        result[f"losses_{key}"] = {str(k): float(p) for k, p in dist.items()}
        result[f"expected_losses_{key}"] = float(sum(k * p for k, p in dist.items()))
    if isinstance(odds, Pruned):
        result["error_bound"] = odds.pruned
        return result
    if isinstance(odds, Simulated):
        result.update(method="simulation", trials=odds.trials,
                      intervals={k: list(v) for k, v in odds.intervals.items()})
        return result
    rows = [_exact_map(row) for row in odds.by_round]
    exacts: dict[str, Any] = {
        "outcomes_exact": _exact_map(odds.outcomes),
        "expected_rounds_exact": exact(odds.expected_rounds),
        "by_round_exact": (None if None in rows else
                           {str(r): row for r, row in enumerate(rows, 1)}),
        "end_round_exact": _exact_map(end_round),
        **{f"losses_{key}_exact": _exact_map(dist) for key, dist in dists.items()},
    }
    result.update({k: v for k, v in exacts.items() if v is not None})
    return result


def charts(sides: Sequence[tuple[str, str]] = (), loss_label: str = "Lost",
           word: str = "Round") -> tuple[Chart, ...]:
    """The charts every whole fight shows: outcomes, the round it ends, each side's losses
    (``word``: what the system calls a round, such as the SUCS "Turn")."""
    return (
        Chart("outcomes", "How the fight ends", "Outcome", ordered=False),
        Chart("end_round", f"{word} the fight ends in", word),
        *(Chart(f"losses_{key}", title, loss_label) for key, title in sides),
    )


def refined_result(refined: Refinement, sides: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """:func:`to_result` of a refinement's latest answer, with how it was found: its
    ``method`` ("exact"; "pruned", a walk with its least likely ways dropped, whose
    ``error_bound`` is what was dropped; "simulation"), whether it is ``settled``, why
    refining ``stopped`` and its ``precision`` in words. A pruned walk that dropped
    nothing is exact."""
    assert refined.answer is not None
    result = to_result(refined.answer, sides)
    method = refined.method
    if method == "pruned" and not result.get("error_bound"):
        method = "exact"
    result.update(method=method, settled=refined.done, stopped=refined.stopped)
    result["precision"] = precision_text(result)
    return result


def add_summed(result: dict[str, Any], summed: Mapping[str, Sequence[str]]) -> None:
    """Outcomes that add up several of the fight's own (a side beaten: wiped out or broken),
    each a name of its own in ``result["summed"]``; a simulation's with its own 95%
    interval (of the fights that ended in any of them) in ``result["summed_intervals"]``."""
    result["summed"] = {name: sum(result["outcomes"].get(n, 0.0) for n in parts)
                        for name, parts in summed.items()}
    if result.get("method") == "simulation":
        trials = result["trials"]
        shares = {name: wilson(round(p * trials), trials) for name, p in result["summed"].items()}
        result["summed"] = {name: e.p for name, e in shares.items()}
        result["summed_intervals"] = {name: (e.low, e.high) for name, e in shares.items()}


def precision_text(result: Mapping[str, Any]) -> str:
    """How precise a whole fight's answer is, in words: "exact", "exact to within 1 in 61
    million" or "within 0.4 points either way, 38,000 fights played"."""
    if result.get("method") == "simulation":
        widest = max(high - low for low, high in result["intervals"].values()) / 2
        said = (f"within {100 * widest:.1f} points either way (95% interval), "
                f"{result['trials']:,} fights played")
        if result.get("stopped") == "cap":
            return said + "; stopped at the work cap, the most a simulation plays"
        return said + ("" if result.get("settled", True) else "; still refining")
    bound = result.get("error_bound")
    return f"exact to within {one_in(bound)}" if bound else "exact"


def headline(result: Mapping[str, Any], word: str = "round") -> list[tuple[str, str]]:
    """The figures shown large: each outcome's chance (a simulation's with its 95%
    interval), then the expected rounds (``word``: the system's, such as "turn"), then
    the answer's precision."""
    rows = outcome_rows(result)
    rows.append((f"Expected {word}s" + (" (average)" if result.get("method") == "simulation"
                                        else ""), f"{result['expected_rounds']:.2f}"))
    return rows + bound_row(result)


def outcome_rows(result: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each outcome's chance as the headline shows it; a simulated share is followed by
    its 95% interval, "40.1% (37.0% to 43.2%)"."""
    intervals = result.get("intervals", {})
    rows = []
    for name, p in result["outcomes"].items():
        low_high = intervals.get(name)
        rows.append((name, percent(p) + (f" ({percent(low_high[0])} to {percent(low_high[1])})"
                                         if low_high else "")))
    return rows


def bound_row(result: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The headline's row saying how precise the answer is (for a result of the
    cascade; a pruned walk's bound for any other)."""
    if "precision" in result:
        return [("Precision", str(result["precision"]))]
    bound = result.get("error_bound")
    return [("Each chance exact to within", one_in(bound))] if bound else []


def pruned_note(result: Mapping[str, Any], floor: float, fight: str = "fight") -> str:
    """The explanation's paragraph for an answer from the pruned walk
    (:func:`rules_core.solver.solve_pruned`)."""
    if not result["error_bound"]:
        return (f"**Exact.** The {fight} was walked with any way less likely than "
                f"{one_in(floor)} to be dropped, but no way was ever that unlikely: nothing was "
                "dropped, so every chance shown is exact (worked out in floating point, whose "
                "rounding is far smaller than any figure shown).")
    bound = one_in(result["error_bound"])
    return (f"**Exact to within {bound}.** The {fight} is too large to follow every way it "
            f"can go, so each round was worked out for every way the {fight} could stand at "
            f"once, and any way less likely than {one_in(floor)} was dropped as the walk "
            f"went. What was dropped comes to {bound} in all: each chance shown is at most "
            "that much below the exact one, never above it (the figures are worked out in "
            "floating point, whose rounding is far smaller).")


def simulation_note(result: Mapping[str, Any], why: str, fight: str = "fight") -> str:
    """The explanation's paragraph and table for a simulated answer
    (:func:`rules_core.solver.simulated`); ``why``: why no walk answers it."""
    rows = [[name, percent(p), f"{percent(result['intervals'][name][0])} to "
                               f"{percent(result['intervals'][name][1])}"]
            for name, p in result["outcomes"].items()]
    return (f"**A simulation, not exact odds.** {why} So the {fight} was played "
            f"{result['trials']:,} times, every roll drawn at its exact chance (always the same "
            f"seed, so the same inputs give the same figures). Each chance is given with its 95% "
            f"interval:\n\n"
            + table(["Outcome", f"Share of {fight}s", "95% interval"], rows))


def by_round_table(result: Mapping[str, Any], rounds: int = 10, word: str = "round") -> str:
    """A Markdown table of the chance the fight has ended by each round (``word``: what
    the system calls it), per outcome."""
    # the outcomes a fight can end in by a round (the last round's row has them all; a
    # calculator may rename the one still going at the cap, which is never in a row)
    names = [n for n in list(result["by_round"].values())[-1] if n != STILL_FIGHTING]
    rows = []
    for r, row in list(result["by_round"].items())[:rounds]:
        rows.append([r, *(percent(row.get(n, 0.0)) for n in names),
                     percent(sum(row.get(n, 0.0) for n in names))])
    return table([f"By {word}", *names, "Over by then"], rows)


def rename_outcomes(result: dict[str, Any], names: Mapping[str, str]) -> None:
    """Rename outcomes (``names``: old -> new, such as "Side A wins" -> "Red platoon
    wins") everywhere a result keys by them: the chances, their intervals and the
    by-round rows, floats and exact twins alike."""
    def renamed(row: Mapping[str, Any]) -> dict[str, Any]:
        return {names.get(k, k): v for k, v in row.items()}
    for key in ("outcomes", "outcomes_exact", "intervals"):
        if isinstance(result.get(key), dict):
            result[key] = renamed(result[key])
    for key in ("by_round", "by_round_exact"):
        if isinstance(result.get(key), dict):
            result[key] = {r: renamed(row) for r, row in result[key].items()}


def method_note(result: Mapping[str, Any], fight: str = "fight") -> str:
    """The explanation's paragraph on how an answer of the cascade was found: a
    simulation's (:func:`simulation_note`, with the result's ``simulated_because``), a
    pruned walk's (:func:`pruned_note`), or "" for the exact walk's."""
    if result.get("method") == "simulation":
        return simulation_note(result, str(result.get("simulated_because", "")), fight)
    if "error_bound" in result:
        return pruned_note(result, PRUNE_FLOOR, fight)
    return ""
