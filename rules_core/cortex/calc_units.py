"""Calculators that build pools: a fireteam's pool (Part I) and a firefight attack (Part II)."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.cortex.calc_dice import DICE_HELP
from rules_core.cortex.dice import MAX_POOL, DieField, name, names, pool_parser
from rules_core.cortex.odds import contest_odds
from rules_core.cortex.pools import (
    InjuryRule,
    Side,
    Term,
    attack_terms,
    defence_terms,
    operator_die,
    parse_members,
)
from rules_core.cortex.tables import MAX_FIRETEAM, RANGE_LABELS, Range
from rules_core.dice.distribution import percent
from rules_core.explain import rule, table
from rules_core.fields import BoolField, ChoiceField, TextField

FIRETEAMS = "cortex/fireteams"
FIREFIGHTS = "cortex/firefights"
#: which page states the rule behind each pool term's anchor
ANCHOR_PAGE = {
    "attack-and-defence-pools": FIREFIGHTS, "distance-penalties": FIREFIGHTS,
    "cover-penalties": FIREFIGHTS, "grouping-combatants": "cortex/enemies",
    "injuries-in-the-pools": "cortex/harm",
}


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


# --- firefight attack and defence pools ------------------------------------------------

def _side_fields(side: str, kind: str, approach: int, skill: int, quality: str
                 ) -> tuple[Any, ...]:
    title = side.capitalize()
    return (
        ChoiceField(f"{side}_kind", f"{title} is", initial=kind,
                    choices=(("character", "A character"), ("unit", "A unit of combatants"))),
        DieField(f"{side}_approach", f"{title}'s Approach", initial=approach,
                 shown_if=(f"{side}_kind", ("character",))),
        DieField(f"{side}_direct_action", f"{title}'s Direct Action", initial=skill,
                 shown_if=(f"{side}_kind", ("character",))),
        TextField(f"{side}_quality", f"{title}'s quality dice", initial=quality,
                  parse=pool_parser(1, MAX_FIRETEAM), shown_if=(f"{side}_kind", ("unit",)),
                  placeholder="d6 d6 d6", help="One die per member (1 to 6)."),
        TextField(f"{side}_other", f"{title}'s other dice", optional=True,
                  parse=pool_parser(0, 8, empty_ok=True), placeholder="d6",
                  help="Specializations, assets, advantages, grenadier dice (up to 8)."),
    )


FIREFIGHT_FIELDS = (
    *_side_fields("attacker", "character", 8, 10, "d6 d6 d6"),
    *_side_fields("defender", "unit", 6, 6, "d6 d6 d6 d6"),
    ChoiceField("range", "Distance", default="adjacent",
                choices=tuple((r.value, RANGE_LABELS[r]) for r in Range)),
    DieField("cover_rating", "Zone's Cover Rating", optional=True, initial=8, none_label="No cover",
             help="The cover the defender's zone offers."),
    BoolField("exposed", "Defender gets no cover (flanked, or a surveillance drone overhead)",
              default=False),
    DieField("armor", "Defender's armor asset", optional=True, none_label="None"),
    BoolField("marksman", "Attacker's Marksman spends Edge (armor does not count)", default=False),
    TextField("attacker_injuries", "Injury dice on the attacking side", optional=True,
              parse=pool_parser(0, MAX_FIRETEAM, empty_ok=True), placeholder="d6",
              help="They strengthen the defence pool."),
    TextField("defender_injuries", "Injury dice on the defending side", optional=True,
              parse=pool_parser(0, MAX_FIRETEAM, empty_ok=True), placeholder="d6",
              help="They strengthen the attack pool."),
    ChoiceField("injury_rule", "Which injury dice count", default="every",
                choices=(("every", "Every injury die (as written)"),
                         ("highest", "Only the highest (side note)"),
                         ("average", "One die of the average size (side note)"))),
)


def _side(inputs: dict[str, Any], side: str) -> Side:
    other = tuple(inputs[f"{side}_other"] or ())
    if inputs[f"{side}_kind"] == "character":
        return Side(True, inputs[f"{side}_approach"], inputs[f"{side}_direct_action"], (), other)
    return Side(False, quality=tuple(inputs[f"{side}_quality"]), other=other)


def _terms_json(terms: list[Term]) -> list[dict[str, Any]]:
    return [{"die": t.die, "source": t.source,
             "rule": f"/{ANCHOR_PAGE[t.anchor]}/#{t.anchor}"} for t in terms]


def _firefight_compute(inputs: dict[str, Any]) -> Result:
    rule_ = InjuryRule(inputs["injury_rule"])
    attack = attack_terms(_side(inputs, "attacker"), inputs["defender_injuries"] or [], rule_)
    defence = defence_terms(
        _side(inputs, "defender"), Range(inputs["range"]), inputs["cover_rating"],
        inputs["exposed"], inputs["armor"], inputs["marksman"],
        inputs["attacker_injuries"] or [], rule_)
    attack_pool = sorted((t.die for t in attack), reverse=True)
    defence_pool = sorted((t.die for t in defence), reverse=True)
    result: Result = {"attack_pool": attack_pool, "defence_pool": defence_pool,
                      "attack_terms": _terms_json(attack), "defence_terms": _terms_json(defence)}
    if len(attack_pool) <= MAX_POOL and len(defence_pool) <= MAX_POOL:
        p_win = contest_odds(attack_pool, defence_pool).p_win
        result.update(p_win=float(p_win), p_win_exact=str(p_win))
    return result


def _firefight_explain(inputs: dict[str, Any], result: Result) -> str:
    def rows(terms: list[dict[str, Any]]) -> list[list[str]]:
        return [[name(t["die"]), f"[{t['source']}]({t['rule']})"] for t in terms]

    text = ("**Attack pool**\n\n" + table(["Die", "From"], rows(result["attack_terms"]))
            + "\n\n**Defence pool**\n\n" + table(["Die", "From"], rows(result["defence_terms"])))
    if inputs["exposed"] and inputs["cover_rating"]:
        text += (f"\n\nThe defender is flanked or watched by a drone, so the zone's cover adds "
                 f"nothing ({rule('flanking', FIREFIGHTS, 'flanking')}).")
    if "p_win" in result:
        link = (f"/cortex/rolls/?odds.attacker={','.join(map(str, result['attack_pool']))}"
                f"&odds.defender={','.join(map(str, result['defence_pool']))}")
        text += (f"\n\nThe attacker wins {percent(result['p_win'])} of the time. "
                 f"[Open these pools in the attack odds calculator]({link}) for the margin, "
                 f"the effect dice and the members taken out.")
    else:
        text += f"\n\nA pool has more than {MAX_POOL} dice, too many for the exact odds here."
    return text


FIREFIGHT_POOLS = Calculator(
    name="cortex.firefight_pools", title="Attack and defence pools in a firefight",
    summary="Both pools of a Part II attack: traits, range, cover, armor, injuries.",
    fields=FIREFIGHT_FIELDS, compute=_firefight_compute, explain=_firefight_explain,
    headline=lambda r: [("Attack pool", names(r["attack_pool"])),
                        ("Defence pool", names(r["defence_pool"]))]
    + ([("Attacker wins", percent(r["p_win"]))] if "p_win" in r else []),
    page=FIREFIGHTS,
)

CALCULATORS = (FIRETEAM_POOL, FIREFIGHT_POOLS)
