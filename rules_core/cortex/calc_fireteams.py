"""Calculator of the fireteams page (Part I): a fireteam's dice pool, Tactics plus
operator dice for player characters or one quality die per combatant."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.cortex.dice import DieField, name, names, pool_parser
from rules_core.cortex.inputs import DICE_HELP
from rules_core.cortex.pools import operator_die, parse_members
from rules_core.cortex.tables import MAX_FIRETEAM
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, TextField

FIRETEAMS = "cortex/fireteams"


# --- fireteam pool --------------------------------------------------------------------

FIRETEAM_FIELDS = (
    ChoiceField("kind", "Fireteam", default="pc",
                choices=(("pc", "Player characters"), ("npc", "Non-player combatants"))),
    DieField("tactics", "Leader's Tactics die", initial=8, shown_if=("kind", ("pc",)),
             help="The Tactics specialization of the fireteam's designated leader."),
    TextField("members", "Members: Direct Action / CQB", initial="d8/d10, d8, d10/d6, d6/d6",
              parse=parse_members, shown_if=("kind", ("pc",)), placeholder="d8/d10, d8, d6/d6",
              help="One entry per member, separated by commas: the Direct Action die, then "
                   "/ and the CQB specialization if the character has it (3 to 6 members)."),
    TextField("quality", "Members' quality dice", initial="d8 d8 d6 d6",
              parse=pool_parser(1, MAX_FIRETEAM), shown_if=("kind", ("npc",)),
              placeholder="d8 d8 d6 d6", help="One die per combatant, 1 to 6. " + DICE_HELP),
)


def _fireteam_compute(inputs: dict[str, Any]) -> Result:
    if inputs["kind"] == "npc":
        quality = inputs["quality"]
        contributions = [{"member": i, "die": q, "rule": "quality",
                          "text": f"quality die {name(q)}"} for i, q in enumerate(quality, 1)]
        return {"pool": list(quality), "tactics": None, "contributions": contributions}
    contributions = []
    for i, member in enumerate(inputs["members"], start=1):
        die, key, text = operator_die(member)
        contributions.append({"member": i, "direct_action": member.direct_action,
                              "cqb": member.cqb, "die": die, "rule": key, "text": text})
    pool = [inputs["tactics"]] + [c["die"] for c in contributions]
    return {"pool": pool, "tactics": inputs["tactics"], "contributions": contributions}


def _fireteam_explain(inputs: dict[str, Any], result: Result) -> str:
    if inputs["kind"] == "npc":
        return (f"A non-player fireteam rolls one quality die per combatant "
                f"({rule('NPC fireteams', FIRETEAMS, 'npc-fireteams')}): "
                f"**{names(result['pool'])}**.")
    rows = [["Leader's Tactics die", name(result["tactics"]), "The team's first die"]]
    rows += [[f"Member {c['member']}", name(c["die"]), c["text"]]
             for c in result["contributions"]]
    return (f"A player fireteam rolls its leader's Tactics die and one operator die per "
            f"member ({rule('player fireteams', FIRETEAMS, 'player-fireteams')}; the CQB "
            f"rule: {rule('operator dice', FIRETEAMS, 'operator-dice')}).\n\n"
            + table(["Die", "Adds", "Why"], rows)
            + f"\n\nPool: **{names(result['pool'])}**. A CQB die equal to Direct Action steps "
              f"it up, like a lower one ([ruling](/rulings/#cqb-die-equal-to-direct-action)).")


FIRETEAM_POOL = Calculator(
    name="cortex.fireteam_pool", title="Fireteam pool builder",
    summary="A fireteam's dice pool: Tactics plus operator dice, or NPC quality dice.",
    fields=FIRETEAM_FIELDS, compute=_fireteam_compute, explain=_fireteam_explain,
    headline=lambda r: [("Pool", names(r["pool"])), ("Dice", str(len(r["pool"])))],
    page=FIRETEAMS,
)
