"""Calculator of the army builder's page: two rosters fight a whole battle (source: SUCS,
"Order of Play": a game of 4-10 turns agreed before play; the attack paragraph,
"Suppressed Units", the terrain's cover).

Each roster line becomes as many units as its count, with its quality, every weapon it
pays for (one used a turn), armor and stealth, in the side's terrain cover; the battle is the whole-engagement fight
(:mod:`rules_core.sucs.fight`), an exchange of fire in which every unit can reach every
enemy, for the turns agreed. A side holds the field when the other has no unit left.

The answer is exact while the battle fits the exact walk's limits (the same plan as the
whole-engagement calculator); past them, the walk with the least likely branches pruned
(:func:`rules_core.solver.solve_pruned`) when it fits its own budget, with the chance it
dropped as the error bound (at most one in a million); past that, a **simulation** of
seeded battles with real dice, said as such, with each chance's 95% interval (see the
Rulings page, "Army against army").
"""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from dataclasses import dataclass
from typing import Any

from rules_core import cascade, fight_result, solver
from rules_core.balance.calculator import hands_on_to
from rules_core.calculator import Calculator, Chart, Result
from rules_core.dice.distribution import percent
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import ChoiceField, IntField, TextField
from rules_core.sucs import fight as sucs_fight
from rules_core.sucs import quick, roster
from rules_core.sucs.calc_actions_fight import (
    activation_words,
    fighting_numbers,
    order_fields,
    roll_modifier_field,
)
from rules_core.sucs.calc_roster import _parse_roster
from rules_core.sucs.cost import price
from rules_core.sucs.fight import Fight, Round
from rules_core.sucs.tables import OUT_OF_COMMAND
from rules_core.sucs.turn import Fighter, Rules
from rules_core.sucs.unitfields import collect_problems, unit_from_clean

PAGE = "sucs/roster"
#: the turns of a game, agreed before play (source: Order of Play)
MIN_TURNS, MAX_TURNS = 4, 10
MAX_BATTLE_UNITS = roster.MAX_BATTLE_UNITS
MAX_COVER = 6
SIDES = (("a", "Side A points lost"), ("b", "Side B points lost"))
HOLDS = {"a": "Side A holds the field", "b": "Side B holds the field"}
STANDING = "Both still standing"


@dataclass(frozen=True)
class Line:
    """One roster line on the field: its name, count, points each and fighting numbers."""

    name: str
    count: int
    cost: int
    fighter: Fighter


def lines_of(army: dict[str, Any], cover: int, roll_modifier: int = 0) -> list[Line]:
    """A normalized roster's lines, each unit in the side's terrain cover, with the side's
    modifier to attack rolls and every weapon the cost builder's unit has (the one the
    roster line prices)."""
    out = []
    for entry in army["units"]:
        clean, _ = collect_problems(entry["stats"], "stats")
        assert clean is not None  # the roster was normalized
        unit = unit_from_clean(clean)
        out.append(Line(entry["name"], entry["count"], price(unit).cost,
                        Fighter(entry["name"], unit.quality, unit.attack, unit.targets,
                                unit.armor, cover, stealthy=unit.stealth,
                                commander=unit.commander, roll_modifier=roll_modifier,
                                alt_weapons=tuple((w.attack, w.targets)
                                                  for w in unit.alt_weapons))))
    return out


class Battle(Fight):
    """The whole-engagement fight between two rosters' units, whose losses are the points
    each side has lost (and, per kind of unit, how many of it)."""

    def __init__(self, a: list[Line], b: list[Line], rules: Rules, max_work: int,
                 names: tuple[str, str] = ("Side A", "Side B")) -> None:
        self.lines = {"a": a, "b": b}
        units = {s: tuple(line.fighter for line in lines for _ in range(line.count))
                 for s, lines in self.lines.items()}
        self.costs = {s: tuple(line.cost for line in lines for _ in range(line.count))
                      for s, lines in self.lines.items()}
        #: each unit's kind: lines with the same fighting numbers and cost are one kind
        self.kind_of: dict[str, list[int]] = {}
        self.kinds: dict[str, list[tuple[str, ...]]] = {}
        for s, lines in self.lines.items():
            keys: dict[tuple[Any, ...], int] = {}
            named: list[list[str]] = []
            self.kind_of[s] = []
            for line in lines:
                key = (line.fighter.stats, line.cost)
                if key not in keys:
                    keys[key] = len(named)
                    named.append([])
                if line.name not in named[keys[key]]:
                    named[keys[key]].append(line.name)
                self.kind_of[s] += [keys[key]] * line.count
            self.kinds[s] = [tuple(n) for n in named]
        #: the losses' keys of each side's kinds, "a:0" its first
        self._loss_keys = {s: [f"{s}:{k}" for k in range(len(self.kinds[s]))] for s in "ab"}
        super().__init__(units["a"], units["b"], rules, max_work=max_work, kinds=self.kind_of,
                         names=names)

    def outcome(self, rnd: Round) -> str | None:
        won = super().outcome(rnd)
        return None if won is None else HOLDS["a" if won == sucs_fight.A_WINS else "b"]

    @property
    def outcome_order(self) -> tuple[str, ...]:
        return (HOLDS["a"], HOLDS["b"])

    def losses(self, rnd: Round) -> dict[str, int]:
        """Points lost per side, and units lost per kind ("a:0" the side's first kind)."""
        # once per fight simulated: the destroyed units' places, then their points and kinds
        out: dict[str, int] = {}
        for s, units in zip("ab", rnd[1]):
            kind_of, keys = self.kind_of[s], self._loss_keys[s]
            gone = [i for i, u in enumerate(units) if u is None]
            costs = self.costs[s]
            out[s] = sum([costs[i] for i in gone])
            per = [0] * len(keys)
            for i in gone:
                per[kind_of[i]] += 1
            out.update(zip(keys, per))
        return out


#: what follows "#" in the army builder's share links (sucs_roster_lib.js HASH_KEY)
SHARE_KEY = "roster="
#: the compressed format's mark (sharelink.js): raw deflate, base64url
PACKED = "z."


def unshare(name: str, text: str) -> str:
    """The roster JSON an army builder share link carries (the whole address, or what
    follows "#roster="): raw-deflated JSON in base64url behind "z.", or plain base64url
    JSON (sharelink.js writes both). A cut or damaged link is refused, saying so."""
    code = text.strip().split("#", 1)[-1].removeprefix(SHARE_KEY)
    packed = code.startswith(PACKED)
    code = code.removeprefix(PACKED)
    damaged = InputError(name, "the share link is cut off or damaged; copy it again from the "
                               "army builder (Copy share link), or paste the roster's JSON.")
    if not re.fullmatch(r"[A-Za-z0-9_-]+", code) or len(code) % 4 == 1:
        raise damaged
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        if packed:
            unpacker = zlib.decompressobj(-15)
            # at most four bytes a character of the longest roster, as the builder reads it
            data = unpacker.decompress(data, 4 * roster.MAX_ROSTER_CHARS)
            if unpacker.unconsumed_tail or not unpacker.eof:
                raise ValueError("cut off, or more than a roster holds")
        return data.decode("utf-8")
    except (ValueError, zlib.error):
        raise damaged from None


def side_roster(name: str, raw: Any) -> dict[str, Any]:
    if isinstance(raw, str) and not raw.lstrip().startswith("{"):
        raw = unshare(name, raw)
    army = _parse_roster(name, raw)
    count = sum(u["count"] for u in army["units"])
    if count == 0:
        raise InputError(name, "the roster has no units; add at least one.")
    if count > MAX_BATTLE_UNITS:
        raise InputError(name, f"a battle takes at most {MAX_BATTLE_UNITS} units a side, counts "
                               f"included; the roster has {count}. Fight with part of it "
                               "(lower the counts or make a smaller roster).")
    return army


def starter(name: str, units: list[tuple[str, int, dict[str, Any]]]) -> str:
    return json.dumps({**roster.blank(name, 0), "units": [
        {"name": n, "count": c, "preset": None, "stats": stats} for n, c, stats in units]})


RIFLES = {"quality": 3, "attack": 1, "armor": 0}
VETERANS = {"quality": 4, "attack": 2, "armor": 1}
GUNNERS = {"quality": 3, "attack": 1, "targets": 2, "armor": 0}

FIELDS = (
    TextField("roster_a", "Side A roster (JSON or a share link)", parse=side_roster,
              max_length=roster.MAX_ROSTER_CHARS,
              initial=starter("Riflemen", [("Rifle squad", 2, RIFLES)]),
              help=f"A roster in the site's format; at most {MAX_BATTLE_UNITS} units, counts "
                   "included. The army builder fills it in."),
    TextField("roster_b", "Side B roster (JSON or a share link)", parse=side_roster,
              max_length=roster.MAX_ROSTER_CHARS,
              initial=starter("Raiders", [("Veterans", 1, VETERANS), ("Gun team", 1, GUNNERS)]),
              help="The enemy, written the same way, or the link another player shared "
                   "from the army builder."),
    IntField("a_cover", "Side A terrain cover", default=0, minimum=0, maximum=MAX_COVER,
             help="Cover of the ground side A holds: light forest +1, and so on."),
    IntField("b_cover", "Side B terrain cover", default=0, minimum=0, maximum=MAX_COVER,
             help="Cover of the ground side B holds."),
    roll_modifier_field("a"),
    roll_modifier_field("b"),
    IntField("turns", "Turns agreed", default=6, minimum=MIN_TURNS, maximum=MAX_TURNS,
             help="A game lasts 4 to 10 turns, agreed before play."),
    ChoiceField("targeting", "Each unit fires at", default="likeliest",
                choices=(("likeliest", "The enemy it is likeliest to destroy"),
                         ("list", "The first enemy left in the enemy's roster order")),
                help="Either way, fire goes to the most suppressed of identical units."),
    *order_fields("the roster"),
    ChoiceField("no_commander", "A roster with no commander", default="organized",
                choices=(("organized", "Fights with two actions a turn"),
                         ("leaderless", "Acts once a turn, out of command, from the start")),
                help="A roster's commanders are its units marked Commander: when a side "
                     "loses the last one, its units act once a turn, out of command, either "
                     "way."),
)


#: inputs added later (issue 42), with the value a battle built from older inputs takes
LATER_INPUTS = {"a_roll_modifier": 0, "b_roll_modifier": 0, "order": "least_suppressed",
                "weapon_choice": "best"}


def battle_of(inputs: dict[str, Any], max_work: int = sucs_fight.UNCOUNTED) -> Battle:
    """The battle the inputs describe; ``max_work`` bounds an exact turn walk."""
    sides = [inputs["roster_a"], inputs["roster_b"]]
    later = {name: inputs.get(name, default) for name, default in LATER_INPUTS.items()}
    return Battle(lines_of(sides[0], inputs["a_cover"], later["a_roll_modifier"]),
                  lines_of(sides[1], inputs["b_cover"], later["b_roll_modifier"]),
                  Rules(targeting=inputs["targeting"], no_commander=inputs["no_commander"],
                        order=later["order"], weapon_choice=later["weapon_choice"]),
                  max_work,
                  (str(sides[0]["name"]), str(sides[1]["name"])))


def outcome_names(battle: Battle) -> dict[str, str]:
    """The battle's outcomes as a reader sees them: each side by its roster's name."""
    return {HOLDS[s]: f"{battle.names[s]} holds the field" for s in "ab"} | {
        solver.STILL_FIGHTING: STANDING}


def _survivors(battle: Battle, losses: dict[str, dict[int, float]]) -> list[dict[str, Any]]:
    """Per kind of unit: how many there were, how many stand at the end on average, and the
    chance that at least one does."""
    rows = []
    for s in "ab":
        for k, names in enumerate(battle.kinds[s]):
            count = battle.kind_of[s].count(k)
            dist = losses.get(f"{s}:{k}", {0: 1.0})
            rows.append({"side": s, "names": list(names), "count": count,
                         "expected": count - sum(n * p for n, p in dist.items()),
                         "any_left": 1 - dist.get(count, 0.0)})
    return rows


def _cascade(inputs: dict[str, Any]) -> cascade.Cascade:
    turns, tried = inputs["turns"], sucs_fight.EXACT_TRY_WORK
    return sucs_fight.cascade(battle_of(inputs, tried), battle_of(inputs), turns, tried,
                              sucs_fight.limits(turns)[1], sucs_fight.PRUNED_TRY_WORK,
                              quick.play_quickly)


def _result(inputs: dict[str, Any], refined: cascade.Refinement) -> Result:
    battle = refined.cascade.fight
    assert isinstance(battle, Battle) and refined.answer is not None
    result = fight_result.refined_result(refined, SIDES)
    fight_result.rename_outcomes(result, outcome_names(battle))
    result["chart_titles"] = {f"losses_{s}": f"{battle.names[s]} points lost" for s in "ab"}
    result["survivors"] = _survivors(battle, {k: {n: float(p) for n, p in d.items()}
                                              for k, d in refined.answer.losses.items()})
    result["names"] = battle.names
    result["points"] = {s: sum(battle.costs[s]) for s in "ab"}
    return result


ANSWERS = cascade.Sharpened(_cascade, _result)


def _compute(inputs: dict[str, Any]) -> Result:
    """The settled answer (the API's): see :mod:`rules_core.cascade`."""
    return ANSWERS.compute(inputs)


def _headline(result: Result) -> list[tuple[str, str]]:
    rows = fight_result.outcome_rows(result) + fight_result.bound_row(result)
    rows += [(f"{result['names'][s]}: points lost on average",
              f"{result[f'expected_losses_{s}']:.1f} of "
                                               f"{result['points'][s]}") for s in "ab"]
    return rows


def _explain(inputs: dict[str, Any], result: Result) -> str:
    battle = battle_of(inputs)
    names = result["names"]
    text = ""
    for s in "ab":
        rows = [[escape(line.name), str(line.count), str(line.cost),
                 fighting_numbers(line.fighter)] for line in battle.lines[s]]
        text += (f"**{escape(names[s])}** (side {s.upper()}), {result['points'][s]} points, in "
                 f"cover {inputs[f'{s}_cover']}.\n\n"
                 + table(["Unit", "Count", "Points each", "Fights as"], rows) + "\n\n")
    aim = ("the enemy it is likeliest to destroy" if inputs["targeting"] == "likeliest"
           else "the first enemy still standing in the enemy roster's order")
    text += (f"**The battle.** {inputs['turns']} turns, as agreed before play "
             f"({rule('order of play', 'sucs', 'order-of-play')}): the "
             f"{rule('whole engagement', 'sucs/actions', 'a-whole-engagement')} between every "
             "unit of the two rosters, an exchange of fire in which every unit can reach every "
             f"enemy. Each unit fires at {aim}, the most suppressed of identical units first "
             f"({rule('army against army', 'rulings', 'sucs-army-against-army')}). A side "
             "holds the field when the other has no unit left; after the last turn with "
             f"both sides on the field the battle is \"{STANDING}\". "
             + activation_words(battle) + "\n\n")
    text += _commanders(battle, inputs) + "\n\n"
    if result["method"] == "exact":
        text += ("**Exact.** Every way the battle can go was followed with its exact chance "
                 f"(at most {result['peak_states']} states at once).\n\n")
    elif result.get("error_bound"):
        text += fight_result.pruned_note(result, sucs_fight.PRUNE_FLOOR, "battle") + "\n\n"
    else:
        text += fight_result.simulation_note(
            result, "The battle is too large for the exact walk, even with its least likely "
                    "branches dropped.", "battle") + "\n\n"
    rows = [[escape(names[r["side"]]), escape(", ".join(r["names"])), str(r["count"]),
             f"{r['expected']:.2f}", percent(r["any_left"])] for r in result["survivors"]]
    text += ("**Units surviving.**\n\n"
             + table(["Side", "Unit", "Fielded", "Standing at the end, on average",
                      "At least one left"], rows)
             + "\n\n" + fight_result.by_round_table(result, word="turn"))
    return text


def _commanders(battle: Battle, inputs: dict[str, Any]) -> str:
    """What the battle does with each side's commanders, in words."""
    parts = []
    for s in "ab":
        named = [f"{escape(line.name)} x{line.count}" for line in battle.lines[s]
                 if line.fighter.commander]
        if named:
            parts.append(f"{escape(battle.names[s])}'s commanders are {', '.join(named)}")
        elif inputs["no_commander"] == "leaderless":
            parts.append(f"{escape(battle.names[s])} has none, so its units act once a turn, "
                         "out of command, from the start")
        else:
            parts.append(f"{escape(battle.names[s])} has none and fights with two actions a "
                         "turn (the other reading is a switch)")
    said = "; ".join(parts)
    return ("**Commanders.** " + said[0].upper() + said[1:] + ". When a side loses its "
            "last commander, each of its units left acts once a turn and fires out of command "
            f"(target number +{OUT_OF_COMMAND}) for the rest of the battle "
            f"({rule('commanders', 'sucs/units', 'commanders')}; "
            f"{rule('army against army', 'rulings', 'sucs-army-against-army')}).")


def _roll(inputs: dict[str, Any], rng: random.Random) -> Result:
    battle = battle_of(inputs)
    played = solver.play(battle, max_rounds=inputs["turns"], rng=rng)
    outcome = outcome_names(battle).get(played.outcome, played.outcome)
    lost = battle.losses(played.state)
    names = battle.names
    return {"outcome": outcome, "rounds": played.rounds, "log": played.log,
            "account": played.account, "dice": played.dice, "losses": {s: lost[s] for s in "ab"},
            "summary": f"{outcome} after {played.rounds} turn{'s' * (played.rounds != 1)}: "
                       f"{names['a']} lost {lost['a']} points, {names['b']} lost {lost['b']}."}


BATTLE = Calculator(
    name="sucs.roster_battle",
    title="Army against army",
    summary="Two rosters fight a battle of 4-10 turns: who holds the field, in which turn, the "
            "points each side loses and the units left; exact for small armies, exact to "
            "within one in a million for middling ones, a labelled simulation past that.",
    fields=FIELDS,
    compute=_compute,
    sharpen=ANSWERS,
    explain=_explain,
    headline=_headline,
    charts=(Chart("outcomes", "How the battle ends", "Outcome", ordered=False),
            Chart("end_round", "Turn the battle ends in", "Turn"),
            *(Chart(f"losses_{key}", title, "Points lost") for key, title in SIDES)),
    roll=_roll,
    roll_label="Play the battle",
    page=PAGE,
    hand_on=hands_on_to("sucs.roster_balance"),
)
