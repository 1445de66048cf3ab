"""Calculator of the tactics page: what one combat tactic allows (source: Heroic Combat,
Combat Tactics)."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.explain import rule, signed, table
from rules_core.heroic.inputs import TACTICS_PAGE, tactic_field
from rules_core.heroic.ranged import shots_allowed
from rules_core.heroic.tables import TACTIC_BY_KEY


def _tactic_compute(inputs: dict[str, Any]) -> Result:
    t = TACTIC_BY_KEY[inputs["tactic"]]
    return {
        "name": t.name, "movement": t.movement, "melee": t.melee, "ranged": t.ranged,
        "ranged_adds_acc": t.ranged_adds_acc, "ranged_moving": t.ranged_moving,
        "defense": t.defense, "withdrawal": t.key == "all_out_defensive",
        "shots_fast": shots_allowed(t, True, False),
        "shots_fast_draw": shots_allowed(t, True, True),
        "shots_slow": shots_allowed(t, False, False),
        "actions_allowed": t.ranged is not None, "note": t.note,
    }


def _mod(value: int | None, acc: bool = False) -> str:
    if value is None:
        return "no attacks"
    return f"+{value} + Acc" if acc else signed(value)


def _tactic_explain(inputs: dict[str, Any], r: Result) -> str:
    ranged = _mod(r["ranged"], r["ranged_adds_acc"])
    if r["ranged_moving"]:
        ranged += ", and the worse of -2 or Bulk after moving more than Move x 2 yards"
    rows = [["Movement", r["movement"]], ["Melee attacks", _mod(r["melee"])],
            ["Ranged attacks", ranged], ["Defence", signed(r["defense"])],
            ["Shots, weapon reloading in 2 s or less",
             f"{r['shots_fast']} ({r['shots_fast_draw']} with Fast-Draw)"],
            ["Shots, slower weapon", str(r["shots_slow"])],
            ["Withdraw from melee without a free attack", "Yes" if r["withdrawal"] else "No"],
            ["Actions in place of attacking or moving", "Yes" if r["actions_allowed"] else "No"]]
    text = table([r["name"], "Allows"], rows)
    if r["note"]:
        text += "\n\n" + r["note"]
    return text + f"\n\nSee {rule('the eight tactics', TACTICS_PAGE, 'the-eight-tactics')}."


TACTIC = Calculator(
    name="heroic.tactic",
    title="What a tactic allows",
    summary="Movement, attack and defence modifiers, shots and options of one combat tactic.",
    fields=(tactic_field("tactic", "Tactic", ""),),
    compute=_tactic_compute,
    explain=_tactic_explain,
    headline=lambda r: [("Move", r["movement"]), ("Melee", _mod(r["melee"])),
                        ("Ranged", _mod(r["ranged"], r["ranged_adds_acc"])),
                        ("Defence", signed(r["defense"]))],
    page=TACTICS_PAGE,
)
