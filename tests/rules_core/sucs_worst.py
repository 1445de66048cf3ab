"""The heaviest inputs the SUCS engagement form accepts, generated: the most units a
side, every unit different, stealth and automatic fire, close combat, the highest round
cap, under each reading. Shared by the budget test and ``benchmarks/sucs_engagement.py``."""

from __future__ import annotations

from typing import Any

from rules_core.fields import IntField
from rules_core.sucs.calc_actions_fight import FIELDS, MAX_ALT_WEAPONS, MAX_UNITS
from rules_core.sucs.calc_actions_fight import MAX_START_MARKERS as MAX_MARKERS

#: the round cap's largest value, read from the form
MAX_ROUNDS = next(f for f in FIELDS if f.name == "max_rounds")
assert isinstance(MAX_ROUNDS, IntField)
TOP = MAX_ROUNDS.maximum


def _units(extras: str, qualities: str = "12345", armor: int = 2, weapons: bool = False) -> str:
    """MAX_UNITS units, no two alike: varied quality, attack, automatic fire and armor
    (and, with ``weapons``, as many other weapons as a unit may have)."""
    out = []
    for n in range(MAX_UNITS):
        q = qualities[n % len(qualities)]
        hits = f"x{n // 2 + 2}" if n % 2 else ""
        others = "".join(f" or {(n + k) % 4}x{k + 1}" for k in range(1, MAX_ALT_WEAPONS + 1)) \
            if weapons else ""
        out.append(f"{q}/{n % 3 + 1}{hits}{others}/{(n + armor) % 4} {extras}".strip())
    return ", ".join(out)


SIX_STEALTHY = _units("s")
SIX_OTHER = _units("c1", qualities="54321", armor=1)
SIX_TOUGH = _units("d s", armor=3)
SIX_ARMED = _units("s", weapons=True)
SIX_ARMED_OTHER = _units("c1", qualities="54321", armor=1, weapons=True)


def worst_inputs() -> list[tuple[str, dict[str, Any]]]:
    """(label, inputs) for the heaviest fights the form takes."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("melee three a side (issue 29)", {"side_a": "3/1/1, 3/2/1, 4/1/0",
                                           "side_b": "3/1x2/0, 3/1/1, 4/2/2", "mode": "melee"}),
        ("six different units charge one", {"side_a": SIX_OTHER, "side_b": "3/1/0",
                                             "mode": "melee"}),
        ("page default, melee, round cap 100", {"mode": "melee", "max_rounds": TOP}),
        # identical units whose markers make the pruned walk's activations costly (1.2 s
        # before its budget counted them)
        ("three rifle squads a side, melee, five markers, 10 rounds",
         {"side_a": "3/1/0, 3/1/0, 3/1/0", "side_b": "3/1/0, 3/1/0, 3/1/0", "mode": "melee",
          "a_markers": MAX_MARKERS, "b_markers": MAX_MARKERS, "max_rounds": 10}),
    ]
    for mode in ("melee", "ranged"):
        for suppression in ("reorganize", "penalty"):
            for rounds in (20, TOP):
                cases.append((f"six stealthy vs six different, {mode}, {suppression}, "
                              f"{rounds} rounds",
                              {"side_a": SIX_STEALTHY, "side_b": SIX_OTHER, "mode": mode,
                               "suppression": suppression, "max_rounds": rounds}))
    cases.append(("six tough dug-in stealthy a side, ranged, 100 rounds",
                  {"side_a": SIX_TOUGH, "side_b": SIX_TOUGH, "max_rounds": TOP,
                   "two_roll_rule": False}))
    cases.append(("six tough a side, melee, armor out of the roll, 100 rounds",
                  {"side_a": SIX_TOUGH, "side_b": SIX_OTHER, "mode": "melee",
                   "armor_modifies_roll": False, "bonus_over": "target_number",
                   "max_rounds": TOP}))
    cases.append(("six a side, melee, every side setting, 100 rounds",
                  {"side_a": SIX_STEALTHY, "side_b": SIX_OTHER, "mode": "melee",
                   "a_markers": 5, "b_markers": 5, "a_support": "armor",
                   "b_support": "attack", "a_out_of_command": True, "first": "b",
                   "melee_suppressed": "reorganize", "hopeless_reorganizes": True,
                   "max_rounds": TOP}))
    for rounds in (20, TOP):
        cases.append((f"six a side without commanders (one action), melee, markers, {rounds} rounds",
                      {"side_a": SIX_STEALTHY, "side_b": SIX_OTHER, "mode": "melee",
                       "a_one_action": True, "b_one_action": True, "a_markers": 2,
                       "max_rounds": rounds}))
    # issue 42: every unit with every weapon it may have, each activation order, modifiers
    for order in ("least_suppressed", "list", "likeliest"):
        for mode, rounds in (("ranged", 20), ("melee", TOP)):
            cases.append((f"six a side with three weapons each, {order}, {mode}, {rounds} rounds",
                          {"side_a": SIX_ARMED, "side_b": SIX_ARMED_OTHER, "mode": mode,
                           "order": order, "a_roll_modifier": 3, "b_roll_modifier": -2,
                           "max_rounds": rounds}))
    cases.append(("six identical rifles a side in list order, melee, markers, 100 rounds",
                  {"side_a": ", ".join(["3/1/0"] * MAX_UNITS),
                   "side_b": ", ".join(["3/1/0"] * MAX_UNITS), "mode": "melee",
                   "order": "list", "weapon_choice": "fallback", "a_markers": 2,
                   "max_rounds": TOP}))
    cases.append(("one a side, melee as written, markers at the start, 100 rounds",
                  {"side_a": "3/1/1", "side_b": "3/1/1", "mode": "melee", "a_markers": 5,
                   "b_markers": 5, "max_rounds": TOP}))
    return cases
