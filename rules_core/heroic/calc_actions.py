"""Calculator of the actions page: fitting an action into the round (source: Heroic
Combat, Actions)."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.explain import rule
from rules_core.fields import BoolField, ChoiceField
from rules_core.heroic.inputs import ACTIONS_PAGE, tactic_field
from rules_core.heroic.tables import (
    ACTION_CLASSES,
    ACTION_IN_ATTACK_PENALTY,
    ACTIONS,
    PART_OF_ATTACK,
    TACTIC_BY_KEY,
)

WAYS = {
    "short": ["Give up half the movement your tactic allows",
              f"Fold it into an attack, which is then at {ACTION_IN_ATTACK_PENALTY}",
              "Give up all your movement for this and a second short action",
              "Give up all your attacks for this and a second short action"],
    "medium": ["Give up all the movement your tactic allows",
               "Give up all your attacks"],
    "long": ["Stay where you are and give up all your attacks"],
}


def _action_compute(inputs: dict[str, Any]) -> Result:
    label, kind = ACTIONS[inputs["action"]]
    tactic = TACTIC_BY_KEY[inputs["tactic"]]
    allowed = tactic.ranged is not None
    free = inputs["action"] in PART_OF_ATTACK and inputs["with_attack"] and allowed
    return {"action": label, "class": kind, "seconds": ACTION_CLASSES[kind][1],
            "allowed": allowed, "part_of_attack": free,
            "ways": ([] if free or not allowed else WAYS[kind])}


def _action_explain(inputs: dict[str, Any], r: Result) -> str:
    tactic = TACTIC_BY_KEY[inputs["tactic"]]
    head = (f"*{r['action']}* is a **{r['class']}** action ({r['seconds']}) "
            f"({rule('action lengths', ACTIONS_PAGE, 'short-medium-and-long-actions')}).")
    if r["part_of_attack"]:
        return head + (f"\n\nBut done with an attack with that same weapon it costs nothing: "
                       f"{PART_OF_ATTACK[inputs['action']]} is part of the attack "
                       f"({rule('exceptions', ACTIONS_PAGE, 'exceptions')}). No movement given "
                       f"up, no -6.")
    if not r["allowed"]:
        return head + f"\n\nUnder {tactic.name} no action may replace attacking or moving."
    text = head + f"\n\nUnder {tactic.name} you can fit it in by one of these:\n\n" + "\n".join(
        f"- {way}" for way in r["ways"])
    if inputs["action"] == "wait":
        text += (f"\n\nName the trigger and the response in advance; see "
                 f"{rule('Wait', ACTIONS_PAGE, 'wait')}.")
    return text


ACTION = Calculator(
    name="heroic.action",
    title="Fitting an action into the round",
    summary="How long an action is and what you give up to take it.",
    fields=(ChoiceField("action", "Action", default="draw",
                        choices=tuple((k, v[0]) for k, v in ACTIONS.items())),
            tactic_field("tactic", "Your tactic", ""),
            BoolField("with_attack", "Done with an attack with the same weapon", default=True,
                      shown_if=("action", tuple(PART_OF_ATTACK)),
                      help="Reloading between shots, readying an unwieldy weapon after its "
                           "blow, choosing grip and reach: part of that attack.")),
    compute=_action_compute,
    explain=_action_explain,
    headline=lambda r: [("Length", f"{r['class'].capitalize()} ({r['seconds']})"),
                        ("Cost", "None: part of the attack" if r["part_of_attack"]
                         else "Allowed now" if r["allowed"] else "Not allowed now")],
    page=ACTIONS_PAGE,
)
