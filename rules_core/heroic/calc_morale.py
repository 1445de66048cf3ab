"""Heroic Combat morale roller and the reference widgets for tactics and actions
(source: Heroic Combat, Morale, Combat Tactics, Actions)."""

from __future__ import annotations

import random
from typing import Any

from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent, to_json
from rules_core.errors import InputError
from rules_core.explain import rule, signed, table
from rules_core.fields import BoolField, ChoiceField, IntField
from rules_core.heroic import morale
from rules_core.heroic.calc_melee import roll_3d6, tactic_field
from rules_core.heroic.ranged import shots_allowed
from rules_core.heroic.tables import (
    ACTION_CLASSES,
    ACTION_IN_ATTACK_PENALTY,
    ACTIONS,
    MORALE_BREAK,
    PART_OF_ATTACK,
    TACTIC_BY_KEY,
)

PAGE = "heroic/morale"
TACTICS_PAGE = "heroic/tactics"
ACTIONS_PAGE = "heroic/actions"
BIG = 100_000

GROUP = ("subject", ("group",))
SOLO = ("subject", ("solitary",))

FIELDS = (
    ChoiceField("subject", "Who checks", default="group",
                choices=(("group", "A group"), ("solitary", "A solitary creature"))),
    IntField("group_start", "Members at the start", initial=12, minimum=1, maximum=BIG,
             shown_if=GROUP),
    IntField("group_now", "Members still fighting", initial=7, minimum=0, maximum=BIG,
             shown_if=GROUP),
    IntField("fell_this_round", "Members who fell this round", default=1, minimum=0,
             maximum=BIG, shown_if=GROUP),
    IntField("hp_start", "Starting HP", initial=40, minimum=1, maximum=BIG, shown_if=SOLO),
    IntField("hp_lost", "HP lost so far", initial=15, minimum=0, maximum=10 * BIG,
             shown_if=SOLO),
    IntField("hp_lost_this_round", "HP lost this round", default=1, initial=8, minimum=0,
             maximum=10 * BIG, shown_if=SOLO),
    IntField("opponents", "Opponents still fighting", initial=6, minimum=1, maximum=BIG),
    BoolField("cornered", "Cannot retreat, and the enemy takes no surrender", default=False),
    IntField("fearlessness", "Fearlessness level", default=0, minimum=0, maximum=30),
    IntField("cowardice", "Cowardice: its Fright Check penalty", default=0, minimum=0,
             maximum=30, help="The size of the penalty, e.g. 4 for -4; 0 without Cowardice."),
)


def _check(inputs: dict[str, Any]) -> None:
    if inputs["subject"] == "group":
        start, now = inputs["group_start"], inputs["group_now"]
        if now > start:
            raise InputError("group_now", f"is {now}, more than the {start} the group started "
                                          f"with; casualties cannot exceed the members.")
        if now == 0:
            raise InputError("group_now", "is 0: nobody is left to check morale.")
        if inputs["fell_this_round"] > start - now:
            raise InputError("fell_this_round", f"is {inputs['fell_this_round']}, more than the "
                                                f"{start - now} lost in all.")
    elif inputs["hp_lost_this_round"] > inputs["hp_lost"]:
        raise InputError("hp_lost_this_round", f"is {inputs['hp_lost_this_round']}, more than the "
                                               f"{inputs['hp_lost']} HP lost in all.")


def _state(inputs: dict[str, Any]) -> tuple[bool, int, int, int]:
    """(solitary, start, now, lost this round) in members or HP."""
    if inputs["subject"] == "solitary":
        return (True, inputs["hp_start"], inputs["hp_start"] - inputs["hp_lost"],
                inputs["hp_lost_this_round"])
    return False, inputs["group_start"], inputs["group_now"], inputs["fell_this_round"]


def _modifiers(inputs: dict[str, Any]) -> list[morale.Modifier]:
    solitary, start, now, _ = _state(inputs)
    return morale.modifiers(solitary=solitary, start=start, now=now,
                            opponents=inputs["opponents"], cornered=inputs["cornered"],
                            fearlessness=inputs["fearlessness"], cowardice=inputs["cowardice"])


def _compute(inputs: dict[str, Any]) -> Result:
    solitary, start, now, this_round = _state(inputs)
    mods = _modifiers(inputs)
    total = sum(m.value for m in mods)
    p = morale.p_break(total)
    return {
        "check_due": morale.is_due(start, start - now, this_round),
        "lost": start - now,
        "modifiers": [{"reason": m.reason, "value": m.value} for m in mods],
        "total_modifier": total,
        "p_break": float(p),
        "p_break_exact": str(p),
        **to_json("totals", morale.total_distribution(total)),
    }


def _due_text(inputs: dict[str, Any], result: Result) -> str:
    solitary, start, now, this_round = _state(inputs)
    what = "HP" if solitary else "members"
    lost = f"{result['lost']} of {start} {what} lost"
    third = 3 * result["lost"] >= start
    if result["check_due"]:
        return f"{lost}, at least a third, with a loss this round: **a check is due**."
    if not third:
        return f"{lost}, less than a third: **no check is due** yet."
    return f"{lost}, but nothing this round: **no check is due** this round."


def _explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[m["reason"], signed(m["value"])] for m in result["modifiers"]] or [["None", "0"]]
    rows.append(["**Total**", f"**{signed(result['total_modifier'])}**"])
    need = MORALE_BREAK - result["total_modifier"]
    return "\n".join([
        _due_text(inputs, result) + f" ({rule('when to check', PAGE, 'when-morale-is-checked')})",
        "", table(["Modifier", "Value"], rows), "",
        f"Roll 3d6 and add {signed(result['total_modifier'])}: a total of {MORALE_BREAK} or more "
        f"breaks the side, so a roll of {need} or more on the dice "
        f"({rule('the morale roll', PAGE, 'the-morale-roll')}). Chance to break: "
        f"**{percent(result['p_break'])}** (exactly {result['p_break_exact']}).",
    ])


def _headline(result: Result) -> list[tuple[str, str]]:
    return [("Check due", "Yes" if result["check_due"] else "No"),
            ("Modifier", signed(result["total_modifier"])),
            ("Chance to break", percent(result["p_break"]))]


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    total_mod = sum(m.value for m in _modifiers(inputs))
    solitary, start, now, this_round = _state(inputs)
    due = morale.is_due(start, start - now, this_round)
    dice = roll_3d6(rng)
    broke = morale.breaks(sum(dice), total_mod)
    verdict = ("BREAKS: flees or surrenders (Retreat next turn if fleeing)" if broke
               else "holds and fights on")
    note = "" if due else " (no check was due)"
    return {
        "dice": [{"die": "d6", "face": f} for f in dice],
        "total": sum(dice) + total_mod,
        "breaks": broke,
        "summary": f"Morale{note}: {'+'.join(map(str, dice))} = {sum(dice)} "
                   f"{signed(total_mod) if total_mod else '+0'} = {sum(dice) + total_mod}: {verdict}",
    }


MORALE = Calculator(
    name="heroic.morale",
    title="Morale roller",
    summary="Whether a morale check is due, its modifiers, the exact chance to break, and a roll.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    explain=_explain,
    headline=_headline,
    charts=(Chart("totals", "Morale roll, 3d6 + modifiers (13 or more breaks)", "Total",
                  zone=(morale.MORALE_BREAK, "breaks")),),
    roll=_roll,
    roll_label="Roll morale",
    page=PAGE,
)


# --- reference: what a tactic allows ----------------------------------------------

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


# --- reference: fitting an action into a round --------------------------------------

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
