"""The engagement of the bursts page (source: d10 ranged combat, "Bursts and Full Auto",
"Sustained Fire"): sustained fire over combat rounds until the target has taken enough hits
or the weapon is empty, or a duel of two shooters (the chain itself is in
:mod:`rules_core.gunplay.fight` and :mod:`rules_core.gunplay.duel`)."""

from __future__ import annotations

import random
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import rule
from rules_core.fields import BoolField, ChoiceField, Field, IntField
from rules_core.gunplay import fight as gun_fight
from rules_core.gunplay.burst import bullet_needs
from rules_core.gunplay.duel import Duel
from rules_core.gunplay.fight import OUT_OF_AMMO, SAME_TIME, TARGET_DOWN, TURNS, Fire
from rules_core.gunplay.inputs import BONUS, BURST_PAGE, HANDLING_PAGE, PAGE, plus
from rules_core.gunplay.tables import AIM_PER_ACTION, MAX_AIM, RELOAD_ACTIONS
from rules_core.messages import count

ANCHOR = "sustained-fire"
SIDES = (("a", "Rounds fired"), ("b", "Hits on the target"), ("c", "Hits on the first shooter"))
AMMO_LABEL = "Rounds carried"
HITS_LABEL = "Hits to stop the target"

DUEL_CHOICES = (("none", "No: a target that does not shoot back"),
                ("turns", "Duel in turns: this shooter first"),
                ("turns_b", "Duel in turns: the second shooter first"),
                (SAME_TIME, "Duel: both fire at the same time"))
DUELS = tuple(v for v, _ in DUEL_CHOICES[1:])
#: the readings of a round fought at the same time (Rulings: a duel of two shooters)
WHOLE_ROUND, BY_ACTION = "round", "action"


def _shooter_fields(prefix: str, who: str, dc: int, bonus: int, burst: int, recoil: int,
                    ammo: int, hits: int, shown: tuple[str, tuple[str, ...]] | None,
                    ) -> tuple[Field, ...]:
    """One shooter's inputs (``prefix`` "" for the first shooter, "b_" for the second)."""
    def label(text: str) -> str:
        return f"{who}: {text[0].lower()}{text[1:]}" if who else text
    return (
        IntField(f"{prefix}dc", label("Difficulty (DC)"), default=dc, minimum=-60, maximum=80,
                 shown_if=shown),
        IntField(f"{prefix}bonus", label(BONUS.label), default=bonus, minimum=-30, maximum=50,
                 help=BONUS.help, shown_if=shown),
        IntField(f"{prefix}burst", label("Rounds per burst"), default=burst, minimum=1,
                 maximum=100, shown_if=shown,
                 help="1 for single shots; the burst or full-auto length otherwise."),
        IntField(f"{prefix}recoil", label("Recoil modifier"), default=recoil, minimum=0,
                 maximum=20, shown_if=shown,
                 help="Added to the DC for each bullet after the first in a burst."),
        IntField(f"{prefix}ammo", label(AMMO_LABEL), default=ammo, minimum=1, maximum=200,
                 shown_if=shown,
                 help="Every round the shooter has: 30 for one rifle magazine, 100 for a "
                      "belt, 90 for three magazines of 30."),
        IntField(f"{prefix}magazine", label(MAGAZINE_LABEL), default=0, minimum=0,
                 maximum=200, shown_if=shown,
                 help="0: every round is in the weapon from the start (a belt, or one "
                      "magazine). Otherwise the rounds carried come in magazines of this "
                      "size, the last one holding what is left over."),
        IntField(f"{prefix}reload_actions", label("Actions per reload"),
                 default=RELOAD_ACTIONS, minimum=1, maximum=4, shown_if=shown,
                 help=f"Firing actions a magazine swap takes: {RELOAD_ACTIONS} unless the "
                      "weapon's description says otherwise."),
        IntField(f"{prefix}hits_needed", label(HITS_LABEL if not who else HITS_B_LABEL),
                 default=hits, minimum=1, maximum=100, shown_if=shown,
                 help="How many hits take the other side out of the fight (the GM's call)."),
        IntField(f"{prefix}bursts_per_round", label("Bursts per combat round"), default=1,
                 minimum=1, maximum=5, shown_if=shown,
                 help="Firing actions each combat round; a reload takes one of them."),
        IntField(f"{prefix}aim", label("Aim actions per combat round"), default=0, minimum=0,
                 maximum=MAX_AIM, shown_if=shown,
                 help=f"Each action spent taking careful aim changes the DC by "
                      f"{AIM_PER_ACTION:+d} for a burst fired the same round."),
    )


MAGAZINE_LABEL = "Rounds per magazine"
HITS_B_LABEL = "Hits to stop the first shooter"
SHOWN_IN_DUEL = ("duel", DUELS)

FIELDS = (
    *_shooter_fields("", "", 12, 5, 3, 2, 30, 3, None),
    BoolField("short_burst", "Fire a short last burst", default=True,
              help="When fewer rounds are left in the magazine than a full burst, fire them "
                   "anyway. Off: the leftover rounds stay in the magazine."),
    BoolField("aim_every_burst", "Aim helps every burst of the round", default=False,
              help="Off: careful aim lowers the DC of the round's first burst only. On: of "
                   "every burst fired that round."),
    ChoiceField("duel", "Does the target shoot back?", default="none", choices=DUEL_CHOICES),
    ChoiceField("same_time", "At the same time, settled", default=WHOLE_ROUND,
                shown_if=("duel", (SAME_TIME,)),
                choices=((WHOLE_ROUND, "Whole round: both fire every action, hits judged "
                                       "at its end"),
                         (BY_ACTION, "Action by action: stop at the first pair of actions "
                                     "that downs someone")),
                help="How the two rounds line up when both shooters fire at once."),
    *_shooter_fields("b_", "Second shooter", 12, 5, 1, 0, 15, 2, SHOWN_IN_DUEL),
    fight_result.round_cap_field(),
)


def _shooter(inputs: dict[str, Any], prefix: str) -> Fire:
    return Fire(inputs[f"{prefix}dc"], inputs[f"{prefix}bonus"], inputs[f"{prefix}burst"],
                inputs[f"{prefix}recoil"], inputs[f"{prefix}ammo"],
                inputs[f"{prefix}hits_needed"], inputs[f"{prefix}bursts_per_round"],
                inputs["short_burst"], inputs[f"{prefix}magazine"],
                inputs[f"{prefix}reload_actions"], inputs[f"{prefix}aim"],
                inputs["aim_every_burst"])


def _fight(inputs: dict[str, Any]) -> Fire | Duel:
    fire = _shooter(inputs, "")
    if inputs["duel"] == "none":
        return fire
    order = SAME_TIME if inputs["duel"] == SAME_TIME else TURNS
    return Duel(fire, _shooter(inputs, "b_"), order, inputs["duel"] == "turns_b",
                order == SAME_TIME and inputs["same_time"] == BY_ACTION)


def _check(inputs: dict[str, Any]) -> None:
    prefixes = ("", "b_") if inputs["duel"] != "none" else ("",)
    for prefix in prefixes:
        ammo, burst, magazine = (inputs[f"{prefix}{k}"] for k in ("ammo", "burst", "magazine"))
        field = next(f for f in FIELDS if f.name == f"{prefix}magazine")
        if magazine > ammo:
            raise InputError(f"{prefix}magazine",
                             f"{field.label} ({magazine}) is more than the {ammo} "
                             f"{AMMO_LABEL.lower()}: give 0 (no magazines) or a size from 1 "
                             f"to {ammo}.")
        holds = magazine or ammo
        if not inputs["short_burst"] and burst > holds:
            what = f"a magazine of {holds}" if magazine else f"the {ammo} {AMMO_LABEL.lower()}"
            raise InputError(f"{prefix}burst",
                             f"Rounds per burst ({burst}) is more than {what}, and only full "
                             f"bursts are fired, so the shooter could not fire at all: give a "
                             f"burst of 1 to {holds} rounds or allow a short last burst.")


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    fight = _fight(inputs)
    hits = max(fight.a.hits_needed, fight.b.hits_needed) if isinstance(fight, Duel) else 0
    return gun_fight.cascade(fight, inputs["max_rounds"], hits)


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    fight = refined.cascade.fight
    assert isinstance(fight, (Fire, Duel))
    result = fight_result.refined_result(refined, SIDES if isinstance(fight, Duel) else SIDES[:2])
    if result["method"] == "simulation":
        result["simulated_because"] = (f"{refined.why_not_exact} For exact odds, lower "
                                       f"{HITS_LABEL} and {HITS_B_LABEL}, or the round cap.")
    fire = fight.a if isinstance(fight, Duel) else fight
    result["bursts_in_weapon"], result["reloads"], result["rounds_to_empty"] = fire.plan()
    if isinstance(fight, Duel):
        _, result["b_reloads"], result["b_rounds_to_empty"] = fight.b.plan()
    return result


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def _fired(fire: Fire) -> str:
    """What one firing action fires, in words: a shot, or a burst."""
    return "shot" if fire.burst == 1 else "burst"


def _about(fire: Fire, who: str) -> str:
    """One shooter's weapon and round in words."""
    needs = bullet_needs(fire.dc_for(True), min(fire.burst, 4), fire.recoil)
    needs_text = ", ".join(str(n) for n in needs) + (", ..." if fire.burst > 4 else "")
    per = ("one firing action" if fire.bursts_per_round == 1
           else f"{fire.bursts_per_round} firing actions")
    kind = "single shot" if fire.burst == 1 else f"burst of {fire.burst}"
    text = (f"{who} has {fire.ammo} rounds"
            + (f" in magazines of {fire.capacity}" if fire.magazine else " in the weapon")
            + f" and {per} each combat round, each a {kind} settled by one roll of 1d10 "
              f"{plus(fire.bonus)}")
    if fire.aim:
        aimed = "every burst of that round" if fire.aim_every_burst else \
            "the first burst of that round"
        text += (f", after {count(fire.aim, 'action')} of careful aim that change the DC by "
                 f"{AIM_PER_ACTION * fire.aim:+d} for {aimed} "
                 f"({rule('taking aim', PAGE, 'taking-aim')})")
    if fire.burst == 1:
        text += f". From DC {fire.dc_for(True)} the roll must reach {needs_text} to hit. "
    else:
        text += (f". From DC {fire.dc_for(True)} the bullets of a burst need {needs_text}; "
                 f"the roll lands every bullet whose number it reaches. ")
    if fire.magazine:
        text += (f"When the magazine cannot fire the next {_fired(fire)}, the next firing action "
                 f"goes to swapping in a fresh one ({count(fire.reload_actions, 'action')}; "
                 f"{rule('reloading', HANDLING_PAGE, 'reloading')}). ")
    bursts, reloads, rounds = fire.plan()
    text += (f"The load gives {count(bursts, _fired(fire))}"
             + (f" and {count(reloads, 'reload')}" if reloads else "")
             + f", so the weapon is empty after {count(rounds, 'combat round')} at the "
               "latest. ")
    return text


def _explain(inputs: dict[str, Any], result: Result) -> str:
    fight = _fight(inputs)
    fire = fight.a if isinstance(fight, Duel) else fight
    text = ("The fight is a chain of states: what is left in each weapon and the hits "
            "each target has taken. Every burst is one attack "
            f"({rule('bursts and full auto', BURST_PAGE, 'bursts-and-full-auto')}, "
            f"{rule('how a shot is resolved', PAGE, 'how-a-shot-is-resolved')}), and "
            "every burst is a new roll, so recoil starts again from the DC "
            "([ruling](/rulings/#sustained-fire-over-several-rounds)).\n\n")
    if isinstance(fight, Duel):
        text += _about(fight.a, "The first shooter") + "\n\n" + \
            _about(fight.b, "The second shooter") + "\n\n"
        if fight.order == SAME_TIME and fight.by_action:
            text += ("Both shooters fire at the same time, action by action: their first "
                     "firing actions land together, then their second ones, and the round "
                     "stops at the first pair that downs someone, so a shooter downed by "
                     "that pair fires nothing more; both can go down in the same pair "
                     "(**both down**). ")
        elif fight.order == SAME_TIME:
            text += ("Both shooters fire each combat round from where the round began, and "
                     "the hits land together, so both can go down in the same round "
                     "(**both down**). ")
        else:
            first = "second" if fight.b_first else "first"
            text += (f"Each combat round the {first} shooter fires the whole round first; "
                     "the other fires back only if still standing. ")
        text += (f"The duel ends when one shooter has taken the hits that stop them "
                 f"({fight.b.hits_needed} for the first shooter, {fight.a.hits_needed} for "
                 f"the second), or when neither weapon can fire "
                 f"([ruling](/rulings/#a-duel-of-two-shooters)). ")
    else:
        text += _about(fire, "The shooter") + (
            f"The fight stops at **{TARGET_DOWN.lower()}** once the target has taken "
            f"{count(fire.hits_needed, 'hit')}, or at **{OUT_OF_AMMO.lower()}** when the "
            f"weapon cannot fire another {_fired(fire)}. ")
    if fire.ammo % fire.burst or (fire.magazine and fire.capacity % fire.burst):
        text += ("A magazine that holds less than a full burst "
                 + ("fires it as a short burst. " if fire.short_burst
                    else "keeps those rounds: only full bursts are fired. "))
    if result["rounds_to_empty"] > inputs["max_rounds"]:
        text += (f"The fire can last past the round cap of {inputs['max_rounds']}, and a "
                 f"fight still going then counts as *{solver.STILL_FIGHTING}*.")
    duel = isinstance(fight, Duel)
    shooter, target = ("the first shooter", "the second shooter") if duel else \
        ("the shooter", "the target")
    text += ("\n\n" + fight_result.by_round_table(result)
             + f"\n\nOn average {shooter} uses {result['expected_losses_a']:.1f} "
               f"rounds and {target} takes {result['expected_losses_b']:.2f} hits (counting "
               f"no more than the {fire.hits_needed} that stop it).")
    if duel:
        text += (f" The first shooter takes {result['expected_losses_c']:.2f} hits on "
                 "average.")
    note = fight_result.method_note(result, "fight")
    return text + (f"\n\n{note}" if note else "")


def _headline(result: Result) -> list[tuple[str, str]]:
    rows = fight_result.headline(result)
    at = len(rows) - len(fight_result.bound_row(result))  # the precision stays last
    rows.insert(at, ("Rounds fired on average", f"{result['expected_losses_a']:.1f}"))
    return rows


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fight = _fight(inputs)
    played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
    lost = fight.losses(played.state)
    spent, hits = lost["a"], lost["b"]
    rolled = {
        "outcome": played.outcome,
        "rounds": played.rounds,
        "rounds_fired": spent,
        "hits": hits,
        "dice": played.dice,  # one {"die": "d10", "face": f} per burst
        "log": played.log,
        "summary": f"{played.outcome} after {count(played.rounds, 'combat round')}: "
                   f"{count(hits, 'hit')} for {spent} rounds fired.",
    }
    if "c" in lost:
        rolled["hits_on_first"] = lost["c"]
        rolled["summary"] = (f"{played.outcome} after {count(played.rounds, 'combat round')}: "
                             f"{count(hits, 'hit')} on the second shooter, "
                             f"{count(lost['c'], 'hit')} on the first.")
    return rolled


ENGAGEMENT = Calculator(
    name="gunplay.engagement",
    title="Sustained fire",
    summary="Exact odds of stopping a target before the weapon runs dry, round by round, "
            "with recoil and bursts.",
    fields=FIELDS,
    check=_check,
    compute=_compute,
    sharpen=ANSWERS,
    explain=_explain,
    headline=_headline,
    charts=fight_result.charts(SIDES, loss_label="Count"),
    roll=_roll,
    roll_label="Fire until it ends",
    page=BURST_PAGE,
    hand_on=hands_on_to("gunplay.balance"),
)
