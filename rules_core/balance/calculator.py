"""A system's balance calculator, ``<system>.balance``, declared from its whole fight and
the inputs that may vary (:class:`Balance`): the same form, result, headline, chart and
explanation for every system. The search is :mod:`rules_core.balance.search`."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_core import cascade
from rules_core.balance.search import (
    LEVELS,
    MAX_POINTS,
    Outcome,
    Point,
    Search,
    Variable,
    fight_inputs,
    wanted_chance,
)
from rules_core.calculator import Calculator, Chart, HandOn, Result
from rules_core.dice.distribution import one_in, percent
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import ChoiceField, IntField, TextField, initial_inputs
from rules_core.messages import MAX_DEPTH, describe, parse_json

#: the hand-on key of a whole fight's own inputs (handon.js reads the widget's form, not
#: its result), and of the inputs of the fight found ("Use this fight": every field)
FIGHT_INPUTS, EVERY_FIELD = "@inputs", "*"


@dataclass(frozen=True)
class Balance:
    """What a system declares for its balance calculator."""

    name: str
    fight: Calculator
    variables: tuple[Variable, ...]
    outcomes: tuple[Outcome, ...]
    #: the fight the form starts with (the whole fight's own starting inputs by default)
    start: dict[str, Any] | None = None
    default_vary: str = ""
    default_outcome: str = ""
    #: what the value found changes, for the page that made the fight to take or not
    #: (the army battle's roster scaled, for the army builder): (the fight, the input
    #: varied, the value found) -> the change, or None
    suggest: Callable[[dict[str, Any], str, Point], dict[str, Any] | None] | None = None

    def variable(self, key: str) -> Variable:
        return next(v for v in self.variables if v.key == key)

    def outcome(self, key: str) -> Outcome:
        return next(o for o in self.outcomes if o.key == key)

    # ---- the form ----------------------------------------------------------------------

    def fields(self) -> tuple[Any, ...]:
        start = self.start if self.start is not None else initial_inputs(self.fight.fields)

        def parse_fight(field: str, raw: Any) -> dict[str, Any]:
            value = parse_json(raw, field, MAX_DEPTH) if isinstance(raw, str) else raw
            if not isinstance(value, dict):
                raise InputError(field, f"must be the whole fight's inputs as a JSON object; "
                                        f"received {describe(value)}.")
            fight_inputs(self.fight, value, field)
            return value

        def parse_wanted(field: str, raw: Any) -> float:
            return wanted_chance(raw)

        return (
            TextField("fight", "The fight", initial=json.dumps(start, separators=(",", ":")),
                      parse=parse_fight, max_length=20_000,
                      help=f"The inputs of {self.fight.title.lower()}, as its "
                           f"\"{HAND_LABEL}\" button hands them on."),
            ChoiceField("vary", "Input to vary", default=self.default_vary or self.variables[0].key,
                        choices=tuple((v.key, v.label) for v in self.variables)),
            IntField("low", "From", optional=True, minimum=-1000, maximum=1000,
                     help="Empty: the smallest value the input takes."),
            IntField("high", "To", optional=True, minimum=-1000, maximum=1000,
                     help="Empty: the largest value a search covers."),
            ChoiceField("outcome", "Outcome", default=self.default_outcome or self.outcomes[0].key,
                        choices=tuple((o.key, o.label) for o in self.outcomes)),
            TextField("wanted", "Chance wanted", initial="even", default="even", parse=parse_wanted,
                      placeholder="even, hard, deadly, 0.4, 40%",
                      help="; ".join(f"{k}: {percent(p)}" for k, (p, _) in LEVELS.items())
                           + "; or any chance."),
        )

    def span(self, inputs: dict[str, Any]) -> tuple[int, int]:
        """The range searched: the one given; else the input's own, or as much of it as a
        search covers, around the fight's own value."""
        var = self.variable(inputs["vary"])
        width = (var.most_values - 1) * var.step
        now = min(max(var.read(inputs["fight"]), var.minimum), var.maximum)
        around = min(max(var.minimum, now - (width // 2 // var.step) * var.step),
                     max(var.minimum, var.maximum - width))
        low = around if inputs.get("low") is None else inputs["low"]
        high = (min(var.maximum, low + width) if inputs.get("high") is None
                else inputs["high"])
        return low, high

    def check(self, inputs: dict[str, Any]) -> None:
        """The range, against the input varied and the budget; the fights at its ends."""
        var = self.variable(inputs["vary"])
        low, high = self.span(inputs)
        for key, value in (("low", low), ("high", high)):
            if not var.minimum <= value <= var.maximum:
                raise InputError(key, f"must be within {var.label}'s own range, {var.minimum} "
                                      f"to {var.maximum}; received {value}.")
            if (value - var.minimum) % var.step:
                raise InputError(key, f"must be one of the values {var.label} takes, "
                                      f"{var.minimum}, {var.minimum + var.step} and so on up to "
                                      f"{var.maximum}; received {value}.")
        if high < low:
            raise InputError("high", f"is {high}, below From ({low}): the range is empty. Give "
                                     f"a To of at least {low}.")
        values = (high - low) // var.step + 1
        if values > var.most_values:
            raise InputError("high", f"gives {values} values of {var.label}, more than "
                                     f"a search can work through in good time (at most "
                                     f"{var.most_values}); narrow the range, say {low} to "
                                     f"{low + (var.most_values - 1) * var.step}.")
        for key, value in (("low", low), ("high", high)):
            fight_inputs(self.fight, var.put(inputs["fight"], value), key)

    # ---- the answers -------------------------------------------------------------------

    def search(self, inputs: dict[str, Any], wanted: cascade.Precision = cascade.DEFAULT,
               first_after: float | None = None) -> Search:
        low, high = self.span(inputs)
        clean = fight_inputs(self.fight, inputs["fight"], "fight")
        return Search(self.fight, inputs["fight"], self.variable(inputs["vary"]),
                      self.outcome(inputs["outcome"]).names(clean), inputs["wanted"], low, high,
                      final=wanted)

    def result(self, inputs: dict[str, Any], search: Search) -> Result:
        var, outcome = self.variable(inputs["vary"]), self.outcome(inputs["outcome"])
        best = search.found or search.nearest()
        point = lambda p: {"value": p.value, "chance": p.chance, "error": p.error,  # noqa: E731
                           "method": p.method}
        low, high = self.span(inputs)
        suggested = ({"suggestion": self.suggest(inputs["fight"], var.key, best)}
                     if self.suggest is not None else {})
        return {
            "vary": var.key, "vary_label": var.label, "outcome": outcome.label,
            "wanted": search.wanted, "low": low, "high": high,
            **point(best),
            "neighbours": [point(p) for p in search.neighbours(best.value)],
            "curve": {str(p.value): p.chance for p in search.curve()},
            "curve_line": search.wanted,
            "tried": [{**point(p), "why": p.why} for p in search.points],
            "steady": search.steady(),
            "crossings": [[a.value, b.value] for a, b in search.crossings()],
            "check": search.check() if search.done else None,
            "fight_inputs": best.inputs,
            "settled": search.done, "stopped": search.stopped,
            "precision": precision_words(best, search.done),
            **suggested,
        }


#: the level the whole fight's button asks its balance search for, and its label
HAND_LEVEL = "even"
HAND_LABEL = f"Make it {HAND_LEVEL}"


def precision_words(p: Any, settled: bool) -> str:
    """The precision of the value found, in words (the widget's status line)."""
    said = ("exact" if p.method == "exact" else
            f"exact to within {one_in(p.error)}" if p.method == "pruned" else
            f"within {100 * p.error:.1f} points (95% interval)")
    return said + ("" if settled else "; still searching")


def headline(result: Result) -> list[tuple[str, str]]:
    rows = [(f"{result['vary_label']}", str(result["value"])),
            (f"Chance: {result['outcome']}", percent(result["chance"])),
            ("Wanted", percent(result["wanted"]))]
    rows += [(f"At {n['value']}", percent(n["chance"])) for n in result["neighbours"]]
    rows.append(("Precision", result["precision"]))
    return rows


CHART = Chart("curve", "Chance against the input varied", "Value", ordered=False,
              line="curve_line")


def explain(inputs: dict[str, Any], result: Result) -> str:
    """The account of the search: what was tried and how each point was found."""
    label, wanted = result["vary_label"], result["wanted"]
    lines = [f"Looking for the value of **{label}** from {result['low']} to {result['high']} "
             f"that gives **{result['outcome']}** a chance of **{percent(wanted)}**, every "
             f"point from the whole fight's own answer (exact where it can be, else simulated "
             f"and said so). First a curve of a few values spread over the range (a quick "
             f"simulation of each where the fight can be simulated, worked out properly once it "
             f"lies next to the wanted line), then the gap between the two values either side "
             f"of the wanted chance halved until they are neighbours; at most {MAX_POINTS} "
             f"values tried. The value found is worked out as precisely as the whole fight "
             f"works out on its own. What the named chances (even, hard, deadly) stand for: "
             f"{rule('fair fight levels', 'rulings', 'fair-fight-levels')}.", ""]
    if not result["steady"]:
        lines += ["**The chance does not move one way with this input**: it rises and falls "
                  "over the range, so every point was filled in between and each crossing of the "
                  "wanted line is listed.", ""]
    cross = result["crossings"]
    if cross:
        lines += ["Crossings of the wanted line: " + ", ".join(
            f"between {a} and {b}" if a != b else f"at {a}" for a, b in cross) + ".", ""]
    else:
        lines += ["The wanted chance is never crossed in this range: the nearest value is at "
                  "its edge. Widen the range or vary another input.", ""]
    rows = [[str(i), str(t["value"]), percent(t["chance"]),
             "exact" if t["method"] == "exact" else f"± {100 * t['error']:.1f} points "
             f"({'simulated' if t['method'] == 'simulation' else 'walk bound'})", t["why"]]
            for i, t in enumerate(result["tried"], 1)]
    lines += [table(["Try", label, "Chance", "How found", "Step"], rows), ""]
    if result.get("suggestion"):
        lines += [f"**A change to the roster, for the army builder**: "
                  f"{escape(result['suggestion']['summary'])} *Use this fight* offers it to the "
                  f"builder, which makes it only when you apply it.", ""]
    if result["check"]:
        lines.append(f"The whole fight with {label} {result['value']} gives "
                     f"{percent(result['chance'])}, the same figure it gives on its own "
                     f"(the result's `check`).")
    return "\n".join(lines)


def answers(spec: Balance) -> cascade.Sharpened:
    """The balance's answers as they sharpen: the search, run like a fight's refinement."""
    return cascade.Sharpened.searching(
        lambda inputs, wanted, first_after: spec.search(inputs, wanted, first_after),
        spec.result)


def calculator(spec: Balance, compute: Any, sharpen: cascade.Sharpened, page: str) -> Calculator:
    """The system's ``<system>.balance`` (``compute``, its settled answer, is defined in the
    system's own module, where the calculator is declared)."""
    return Calculator(
        name=spec.name,
        title="Make it a fair fight",
        summary=f"The value of one input of {spec.fight.title.lower()} that gives an outcome "
                "the chance you want: even, hard, deadly or any chance.",
        fields=spec.fields(),
        check=spec.check,
        compute=compute,
        sharpen=sharpen,
        explain=explain,
        headline=headline,
        charts=(CHART,),
        page=page,
        hand_on=HandOn("fight_inputs", "Use this fight", ((spec.fight.name, EVERY_FIELD),),
                       tells=("suggestion",) if spec.suggest is not None else ()),
    )


def hands_on_to(balance_name: str) -> HandOn:
    """The whole fight's button that hands its inputs to its balance calculator."""
    return HandOn(FIGHT_INPUTS, HAND_LABEL, ((balance_name, "fight"),), also=(("wanted", HAND_LEVEL),))
