"""SUCS roster calculators: check a roster, import a roster file (source: SUCS, "Unit
Costs" and "Special rules for commanders")."""

from __future__ import annotations

import json
from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.errors import InputError
from rules_core.explain import escape, rule, table
from rules_core.fields import TextField
from rules_core.messages import parse_json
from rules_core.sucs import legality, roster
from rules_core.sucs.calc_costs import UNIT_COST
from rules_core.sucs.calc_tech_levels import PRESETS
from rules_core.sucs.cost import Unit, price
from rules_core.sucs.inputs import list_choices
from rules_core.sucs.presets import by_id
from rules_core.sucs.roster import MAX_DEPTH, MAX_FILE_CHARS, normalize_roster, parse_file
from rules_core.sucs.tables import QUALITY, QUALITY_BASE
from rules_core.sucs.unitfields import MAX_TARGETS

PAGE = "sucs/roster"
SEVERITY = {"illegal": "Breaks a rule", "over_limit": "Over the points limit",
            "advice": "Advice"}


def _parse_roster(name: str, raw: Any) -> dict[str, Any]:
    """A roster as a JSON object, or as its JSON text."""
    if isinstance(raw, str):
        raw = parse_json(raw, name, MAX_DEPTH)
    roster, problems = normalize_roster(raw)
    if roster is None:
        listed = " ".join(p["message"] for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise InputError(name, f"is not a valid roster: {listed}{more}")
    return roster


def _check_compute(inputs: dict[str, Any]) -> Result:
    return legality.check(inputs["roster"])


def _check_explain(inputs: dict[str, Any], result: Result) -> str:
    rows = [[escape(u["name"]), str(u["count"]), str(u["cost"]), str(u["subtotal"])]
            for u in result["units"]]
    rows.append(["**Total**", "", "", f"**{result['total']}**"])
    text = table(["Unit", "Count", "Each", "Points"], rows)
    if result["points_limit"]:
        text += f"\n\nLimit {result['points_limit']} points: " + (
            f"**{result['total'] - result['points_limit']} over**." if result["over_limit"]
            else f"{result['remaining']} to spare.")
    for w in result["warnings"]:
        text += f"\n\n- **{SEVERITY[w['severity']]}:** {escape(w['message'])}"
    text += (f"\n\nThe checks follow the rules for "
             f"{rule('commanders', 'sucs/units', 'commanders')} and "
             f"{rule('altitude', 'sucs/units', 'altitude')}.")
    return text


ROSTER_CHECK = Calculator(
    name="sucs.roster_check",
    title="Roster check",
    summary="A roster's total, its points limit and every legality warning, each saying what "
            "to change.",
    fields=(TextField("roster", "Roster (JSON)", parse=_parse_roster,
                      max_length=MAX_FILE_CHARS,
                      initial=json.dumps(roster.blank("Empty roster", 100)),
                      help="A roster in the site's format (see the army builder)."),),
    compute=_check_compute,
    explain=_check_explain,
    headline=lambda r: [("Total", str(r["total"])),
                        ("Limit", str(r["points_limit"] or "none")),
                        ("Legal", "yes" if r["legal"] else "no")],
    page=PAGE,
)


def _file(name: str, raw: Any) -> str:
    if not isinstance(raw, str):
        raise InputError(name, "expected the file's text.")
    return raw


def _import_compute(inputs: dict[str, Any]) -> Result:
    rosters, problems = parse_file(inputs["file"])
    return {"accepted": not problems, "problems": problems, "rosters": rosters,
            "count": len(rosters)}


def _import_explain(inputs: dict[str, Any], result: Result) -> str:
    if result["accepted"]:
        names = ", ".join(escape(r["name"]) for r in result["rosters"])
        return f"The file holds {result['count']} valid roster(s): {names}."
    lines = "\n".join(f"- {escape(p['message'])}"
                      for p in result["problems"])
    return ("The file was refused and nothing was imported "
            f"({rule('roster files', PAGE, 'roster-files')}):\n\n{lines}")


ROSTER_IMPORT = Calculator(
    name="sucs.roster_import",
    title="Roster file import",
    summary="Checks a roster file before anything is saved: every problem is listed.",
    fields=(TextField("file", "Roster file (its text)", parse=_file,
                      max_length=2 * MAX_FILE_CHARS, initial="{}"),),
    compute=_import_compute,
    explain=_import_explain,
    headline=lambda r: [("File", "accepted" if r["accepted"] else "refused"),
                        ("Rosters", str(r["count"])),
                        ("Problems", str(len(r["problems"])))],
    page=PAGE,
)


# --- the army builder's data --------------------------------------------------------

#: the roster a first visit starts with
STARTER_NAME, STARTER_LIMIT = "My first army", 200


def _check_facts(unit: Unit) -> dict[str, bool]:
    """What the builder needs to know of a published unit, before the rules engine has
    started, to tell whether a roster of published units is legal: whether the unit
    breaks a rule on its own (:func:`legality.unit_warnings`), and whether it is a
    commander (a roster with none breaks a rule: :func:`legality.roster_warnings`)."""
    return {"legal_alone": not any(w.severity == "illegal"
                                   for w in legality.unit_warnings(None, "", unit)),
            "commander": unit.commander}


def roster_app_data() -> dict[str, Any]:
    """What the army builder (``app`` sucs.roster) takes from the core at build time:
    the unit form's fields, the published units with their full cost (worked out once,
    by :func:`rules_core.sucs.cost.price`), the lists, the file format and limits, the
    target numbers, and the starter roster with its check. No number here is retyped
    in the template or the scripts."""
    starter = roster.blank(STARTER_NAME, STARTER_LIMIT)
    presets = PRESETS.compute({"tech_level": None})["units"]
    units = by_id()
    return {
        "spec": UNIT_COST.spec(),
        "presets": [{**p, "total_cost": price(units[p["id"]].unit).cost,
                     **_check_facts(units[p["id"]].unit)} for p in presets],
        "lists": [list(choice) for choice in list_choices()],
        "rules": {
            "format": roster.ROSTER_FORMAT, "collection": roster.COLLECTION_FORMAT,
            "version": roster.VERSION, "starter_limit": STARTER_LIMIT, "max_name": roster.MAX_NAME,
            "max_units": roster.MAX_UNITS, "max_count": roster.MAX_COUNT,
            "max_limit": roster.MAX_LIMIT, "max_file_chars": MAX_FILE_CHARS,
            "max_roster_chars": roster.MAX_ROSTER_CHARS,
            "max_depth": MAX_DEPTH, "max_rosters": roster.MAX_ROSTERS,
            "read_units": roster.READ_UNITS, "read_rosters": roster.READ_ROSTERS,
            "storage_chars": roster.STORAGE_CHARS,
            "battle_units": roster.MAX_BATTLE_UNITS, "max_targets": MAX_TARGETS,
            "target_number": {str(q): tn for q, (tn, _) in QUALITY.items()},
        },
        "quality_bases": [QUALITY_BASE[q] for q in sorted(QUALITY_BASE)],
        "first": starter,
        "check": legality.check(starter),
    }
