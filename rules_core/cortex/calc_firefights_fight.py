"""The firefights page's whole-firefight calculator: two units fight it out, exact odds of
how it ends (the page's other calculators are in :mod:`rules_core.cortex.calc_firefights`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Result
from rules_core.cortex import fight as F
from rules_core.cortex.contest import EffectLimit, roll_pool
from rules_core.cortex.dice import DieField, names, pool_parser
from rules_core.cortex.effect import Rules
from rules_core.cortex.inputs import EFFECT_LIMIT_FIELD, RULES_FIELD, SURPLUS_FIELD
from rules_core.cortex.tables import MAX_FIRETEAM, RANGE_LABELS, Range
from rules_core.dice.distribution import percent
from rules_core.explain import rule, table
from rules_core.fields import ChoiceField, IntField, TextField
from rules_core.messages import count

FIREFIGHTS = "cortex/firefights"
HARM = "cortex/harm"
ROLLS = "cortex/rolls"
SIDES = (("a", "Side A's members lost"), ("b", "Side B's members lost"))
MAX_ASSETS = 2  # keeps the largest defence pool at 12 dice, the exact odds' limit
#: plot points a side may bring: each multiplies the fight's states
MAX_PLOT_POINTS = 3


def _side_fields(side: str, quality: str, cover: int | None) -> tuple[Any, ...]:
    title = f"Side {side.upper()}"
    return (
        TextField(f"{side}_quality", f"{title}'s quality dice", initial=quality,
                  parse=pool_parser(1, MAX_FIRETEAM), placeholder="d8 d8 d6",
                  help="One die per member, 1 to 6; they fall in the order set below."),
        TextField(f"{side}_assets", f"{title}'s assets", optional=True,
                  parse=pool_parser(0, MAX_ASSETS, empty_ok=True), placeholder="d6",
                  help="Up to 2 dice rolled in every attack and defence: technology, "
                       "a Tactics die, prepared assets."),
        DieField(f"{side}_armor", f"{title}'s armor asset", optional=True, none_label="None"),
        DieField(f"{side}_cover", f"Cover Rating of {title}'s zone", optional=True,
                 initial=cover, none_label="No cover"),
        IntField(f"{side}_plot_points", f"{title}'s plot points", default=0, minimum=0,
                 maximum=MAX_PLOT_POINTS,
                 help="Each buys one more effect die on a winning attack, when a die is left "
                      "over to add."),
    )


FIELDS = (
    *_side_fields("a", "d8 d8 d6 d6", 6),
    *_side_fields("b", "d6 d6 d6 d6 d6", 8),
    ChoiceField("distance", "Distance between the units", default="adjacent",
                choices=tuple((r.value, RANGE_LABELS[r]) for r in Range)),
    ChoiceField("order", "Turns", default="alternate",
                choices=(("alternate", "Alternating: the second unit answers with its survivors"),
                         ("at_once", "Both units shoot at once (a variant)"))),
    ChoiceField("first", "Who acts first", default="a", shown_if=("order", ("alternate",)),
                choices=(("a", "Side A (the attackers, usually)"), ("b", "Side B"),
                         ("roll", "Roll-off: each unit's quality dice and assets"))),
    ChoiceField("ties", "Initiative ties", default="again", shown_if=("first", ("roll",)),
                choices=(("again", "Roll again"), ("a", "Side A goes first"),
                         ("b", "Side B goes first"))),
    ChoiceField("falls", "Which members fall first", default="lowest",
                choices=(("lowest", "Lowest quality first (Part I's advice)"),
                         ("highest", "Highest quality first: each die takes the best "
                                     "member it reaches"))),
    ChoiceField("plot_spend", "Spend a plot point", default=F.SPEND_FIRST,
                choices=((F.SPEND_FIRST, "On the first win with a die left to add"),
                         (F.SPEND_TAKES_OUT, "Only when the extra die takes out a member"),
                         (F.SPEND_EVERY_WIN, "On every winning attack while any are left"))),
    RULES_FIELD, SURPLUS_FIELD, EFFECT_LIMIT_FIELD,
    fight_result.round_cap_field(),
)


def _unit(inputs: dict[str, Any], side: str) -> F.Unit:
    return F.Unit(tuple(sorted(inputs[f"{side}_quality"])), tuple(inputs[f"{side}_assets"] or ()),
                  inputs[f"{side}_armor"], inputs[f"{side}_cover"],
                  inputs[f"{side}_plot_points"], inputs["falls"] == "highest")


def fight_of(inputs: dict[str, Any]) -> F.Fight:
    """The fight described by validated inputs."""
    return F.Fight(_unit(inputs, "a"), _unit(inputs, "b"), Range(inputs["distance"]),
                   Rules(inputs["rules"]), inputs["surplus"] == "carried",
                   EffectLimit(inputs["effect_limit"]), inputs["plot_spend"])


def _first_chance(inputs: dict[str, Any], fight: F.Fight) -> Fraction:
    if inputs["first"] == "roll":
        return F.first_chance(fight, inputs["ties"])
    return Fraction(0) if inputs["first"] == "b" else Fraction(1)


def _orders(inputs: dict[str, Any], fight: F.Fight) -> list[tuple[str, Fraction]]:
    """Who starts the rounds, with its chance (both at once: one order)."""
    if inputs["order"] == "at_once":
        return [(F.AT_ONCE, Fraction(1))]
    p_a = _first_chance(inputs, fight)
    return [(side, w) for side, w in (("a", p_a), ("b", 1 - p_a)) if w]


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    fight = fight_of(inputs)
    return F.cascade(fight, _orders(inputs, fight), inputs["max_rounds"])


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    result = fight_result.refined_result(refined, SIDES)
    if result["method"] == "simulation":
        result["simulated_because"] = (f"{refined.why_not_exact} For exact odds, lower the "
                                       "round cap, the members (or their dice, assets, armor, "
                                       "cover and plot points), or take the lowest quality "
                                       "first.")
    fight = fight_of(inputs)
    start = F.START
    a_attack, b_defence = fight.pools("a", start)
    b_attack, a_defence = fight.pools("b", start)
    if inputs["order"] == "alternate":
        p_a = _first_chance(inputs, fight)
        result.update(p_a_first=float(p_a), p_a_first_exact=str(p_a))
    result.update(a_attack_pool=list(a_attack), b_defence_pool=list(b_defence),
                  b_attack_pool=list(b_attack), a_defence_pool=list(a_defence))
    return result


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def _explain(inputs: dict[str, Any], result: Result) -> str:
    if inputs["order"] == "at_once":
        turns = ("Variant: both units shoot at once from where the round started, so both "
                 "can fall in the same round.")
    else:
        ties = {"again": "ties are rolled again", "a": "ties go to Side A",
                "b": "ties go to Side B"}.get(inputs.get("ties") or "again", "")
        first = {"a": "Side A acts first in every round",
                 "b": "Side B acts first in every round",
                 "roll": f"Each unit rolls its quality dice and assets once, before the fight; "
                         f"the higher total goes first in every round ({ties}), which is "
                         f"Side A {percent(result['p_a_first'])} of the time"}[inputs["first"]]
        turns = (f"{first}. The second unit attacks with the members still standing after "
                 f"the first attack.")
    limit = ("one effect die, plus one per 3 full points of margin"
             if inputs["effect_limit"] == "margin" else "every die left over as an effect die")
    harm = ("Part II: any number of dice that each take a member out, only one that merely "
            "injures" if inputs["rules"] == "part2" else
            "Part I: small dice become a complication that later dice step up")
    fall = ("lowest quality first" if inputs["falls"] == "lowest" else
            "each die taking out the best member it reaches (highest quality first)")
    lost_words = ("they fall lowest first, so the count lost is enough"
                  if inputs["falls"] == "lowest" else "which dice, not only how many")
    spend = {F.SPEND_FIRST: "at the first win where it adds a die",
             F.SPEND_TAKES_OUT: "only when the extra die takes out one more member",
             F.SPEND_EVERY_WIN: "on every winning attack while any are left (one a win, "
                                "even when no die is left to add)"}[inputs["plot_spend"]]
    points = "" if not (inputs["a_plot_points"] or inputs["b_plot_points"]) else (
        f" Plot points (Side A {inputs['a_plot_points']}, Side B {inputs['b_plot_points']}) "
        f"each buy one more effect die from the dice left over, spent {spend} "
        f"([ruling](/rulings/#plot-points-in-a-firefight)).")
    text = [
        f"**Who acts when.** The sides take turns activating one unit at a time "
        f"({rule('initiative', FIREFIGHTS, 'initiative')}); with one unit a side, a round is "
        f"one attack each way. {turns} "
        f"([ruling](/rulings/#a-firefight-round-who-rolls-when))",
        f"**The pools, rebuilt for every attack.** The attacker rolls the quality dice of its "
        f"members still standing and its assets "
        f"({rule('grouping combatants', 'cortex/enemies', 'grouping-combatants')}), plus the "
        f"target's injury die if it has one "
        f"({rule('injuries in the pools', HARM, 'injuries-in-the-pools')}). The target rolls "
        f"its standing members' dice and assets, the range die "
        f"({rule('distance penalties', FIREFIGHTS, 'distance-penalties')}), cover: the "
        f"smaller of its zone's Cover Rating and its lowest standing member's die "
        f"({rule('cover penalties', FIREFIGHTS, 'cover-penalties')}), its armor and the "
        f"attacker's injury die ({rule('attack and defence pools', FIREFIGHTS, 'attack-and-defence-pools')}).",
        table(["At the start", "Side A attacks", "Side B attacks"],
              [["Attack pool", names(result["a_attack_pool"]), names(result["b_attack_pool"])],
               ["Defence pool", names(result["b_defence_pool"]), names(result["a_defence_pool"])]]),
        f"**One attack.** A contest: the attack must beat the defence total "
        f"({rule('contests', ROLLS, 'contests')}); a win gives {limit} "
        f"({rule('extra effect dice', HARM, 'extra-effect-dice')}; "
        f"[ruling](/rulings/#how-many-effect-dice-a-win-gives)). The dice are assigned to the "
        f"target under {harm}, {fall}, in the order best for the attacker "
        f"({rule('assigning effect dice', HARM, 'assigning-effect-dice')}). Members out leave "
        f"the pools; an injury stays on the unit and feeds the other side's pools."
        f"{points}",
        f"**The state.** Which members are out ({lost_words}), each unit's injury die and "
        f"the plot points it has spent. The odds follow every state round by "
        f"round until one unit has nobody left; a fight still going after "
        f"{inputs['max_rounds']} rounds is reported as \"{solver.STILL_FIGHTING}\"."
        + (f" At the busiest round {result['peak_states']} states were live."
           if result.get("method") != "simulation" else ""),
        *filter(None, [fight_result.method_note(result, "fight")]),
        fight_result.by_round_table(result),
    ]
    return "\n\n".join(text)


def _headline(result: Result) -> list[tuple[str, str]]:
    rows = fight_result.headline(result)
    at = len(rows) - len(fight_result.bound_row(result))  # the precision stays last
    rows[at:at] = [("Side A loses on average", f"{result['expected_losses_a']:.2f}"),
                   ("Side B loses on average", f"{result['expected_losses_b']:.2f}")]
    return rows


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    fight = fight_of(inputs)
    dice = solver.Dice(rng)
    log: list[str] = []
    first = F.AT_ONCE if inputs["order"] == "at_once" else inputs["first"]
    if first == "roll":
        a_pool = sorted(fight.a.quality + fight.a.assets, reverse=True)
        b_pool = sorted(fight.b.quality + fight.b.assets, reverse=True)
        while first == "roll":
            dice.label = "Initiative Side A"
            ra = roll_pool(a_pool, dice)  # type: ignore[arg-type]  # Dice rolls as Random does
            dice.label = "Initiative Side B"
            rb = roll_pool(b_pool, dice)  # type: ignore[arg-type]
            tie = ra.total == rb.total
            first = ("a" if ra.total > rb.total else "b" if rb.total > ra.total
                     else "roll" if inputs["ties"] == "again" else inputs["ties"])
            log.append(f"Initiative: Side A {ra.total}, Side B {rb.total}"
                       + (": tie, roll again." if first == "roll" else
                          f": tie, Side {first.upper()} acts first." if tie else
                          f": Side {first.upper()} acts first."))
    played = solver.play(F.Firefight(fight, first), max_rounds=inputs["max_rounds"], rng=rng,
                         dice=dice)
    lost = F.losses(played.state)
    return {"outcome": played.outcome, "rounds": played.rounds, "lost_a": lost["a"],
            "lost_b": lost["b"], "log": log + played.log, "dice": played.dice,
            "summary": f"{played.outcome} after {count(played.rounds, 'round')}: Side A lost "
                       f"{lost['a']}, Side B lost {lost['b']}."}


ENGAGEMENT = Calculator(
    name="cortex.engagement", title="A whole firefight",
    summary="Two units fight it out: exact odds of who is left standing, when, and the losses.",
    fields=FIELDS, compute=_compute, sharpen=ANSWERS, explain=_explain,
    headline=_headline,
    charts=fight_result.charts(SIDES, "Members lost"),
    roll=_roll, roll_label="Fight it out", page=FIREFIGHTS,
    hand_on=hands_on_to("cortex.balance"),
)
