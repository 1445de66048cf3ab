"""Calculators of the size-and-range page: the range band finder and the size x range
table."""

from __future__ import annotations

from typing import Any

from rules_core.calculator import Calculator, Result
from rules_core.explain import rule, signed, table
from rules_core.gunplay.difficulty import band_limits, range_band
from rules_core.gunplay.inputs import (
    PAGE,
    RANGE_PAGE,
    band_sentence,
    effective_range,
    person,
    range_fields,
    resolve_band,
    resolve_size,
    size_fields,
    size_words,
)
from rules_core.gunplay.presets import BY_KEY, CUSTOM
from rules_core.gunplay.tables import BASE_DIFFICULTY, LABELS, SIZE_RANGE, RangeBand, Size

MARK = "▶"

# --- range band finder ------------------------------------------------------------


def _band_compute(inputs: dict[str, Any]) -> Result:
    effective, distance = effective_range(inputs), inputs["distance_m"]
    band = range_band(effective, distance)
    return {
        "band": band.value if band else "beyond",
        "in_range": band is not None,
        "effective_range_m": effective,
        "limits_m": {b.value: list(lim) for b, lim in band_limits(effective).items()},
    }


def _band_explain(inputs: dict[str, Any], result: Result) -> str:
    effective, distance = result["effective_range_m"], inputs["distance_m"]
    rows = []
    for band, (start, end) in result["limits_m"].items():
        closing = "]" if band == "maximum" else ")"
        label = LABELS[RangeBand(band)]
        if band == result["band"]:
            label = f"**{MARK} {label}**"
        rows.append([label, f"[{start:g} m, {end:g} m{closing}"])
    weapon = inputs.get("weapon") or CUSTOM
    source = "" if weapon == CUSTOM else (
        f" ({BY_KEY[weapon].label.lower()}: an illustration, not a figure from the rules)")
    text = (f"With an effective range of {effective:g} m{source} the bands are "
            f"({rule('range bands', RANGE_PAGE, 'range-bands')}):\n\n"
            + table(["Band", "Distance"], rows))
    if result["in_range"]:
        text += f"\n\n{distance:g} m falls in the **{result['band']}** band."
    else:
        text += (f"\n\n{distance:g} m is **beyond the effective range**: the rules give no "
                 "band for it ([ruling](/rulings/#beyond-the-effective-range)).")
    text += ("\n\nA distance exactly on a boundary counts in the farther band "
             "([ruling](/rulings/#range-band-boundaries)).")
    return text


def _band_headline(result: Result) -> list[tuple[str, str]]:
    label = LABELS[RangeBand(result["band"])] if result["in_range"] else "Beyond effective range"
    return [("Range band", label), ("Effective range", f"{result['effective_range_m']:g} m")]


RANGE_BAND = Calculator(
    name="gunplay.range_band",
    title="Range band finder",
    summary="Which range band a distance falls in for a weapon's effective range.",
    fields=range_fields(with_band=False),
    compute=_band_compute,
    explain=_band_explain,
    headline=_band_headline,
    page=RANGE_PAGE,
)


# --- the size x range table, one cell highlighted ------------------------------------


def _table_compute(inputs: dict[str, Any]) -> Result:
    size, band = resolve_size(inputs), resolve_band(inputs)
    modifier = SIZE_RANGE[size][band]
    return {
        "size": size.value,
        "band": band.value,
        "modifier": modifier,
        "dc_before_other_terms": BASE_DIFFICULTY + modifier,
        "table": {
            "sizes": [s.value for s in Size],
            "bands": [b.value for b in RangeBand],
            "modifiers": {s.value: {b.value: SIZE_RANGE[s][b] for b in RangeBand} for s in Size},
        },
    }


def _table_check(inputs: dict[str, Any]) -> None:
    resolve_band(inputs)  # refuses a distance past the effective range, naming distance_m


def size_range_markdown(size: Size, band: RangeBand) -> str:
    """The whole size x range table as Markdown with the chosen cell (and its row and
    column headings) marked."""
    header = ["Size"] + [f"**{LABELS[b]}**" if b is band else LABELS[b] for b in RangeBand]
    rows = []
    for s in Size:
        row = [f"**{LABELS[s]}**" if s is size else LABELS[s]]
        for b in RangeBand:
            cell = signed(SIZE_RANGE[s][b])
            row.append(f"**{MARK} {cell}**" if (s, b) == (size, band) else cell)
        rows.append(row)
    return table(header, rows)


def _table_explain(inputs: dict[str, Any], result: Result) -> str:
    size, band = Size(result["size"]), RangeBand(result["band"])
    lines = [band_sentence(inputs, band)]
    if inputs.get("target_stance") is not None:
        lines.append(f"A person who is {person(inputs['target_stance'])} "
                     f"counts as a **{size.value}** target "
                     f"({rule('stance changes size', RANGE_PAGE, 'a-persons-stance-sets-their-size')}).\n")
    lines.append(
        f"{size_words(inputs, size)} at {band.value} range: **{signed(result['modifier'])}** "
        f"({rule('size and range table', RANGE_PAGE, 'the-size-and-range-table')}); "
        f"the cell is marked {MARK} below.\n")
    lines.append(size_range_markdown(size, band))
    lines.append(
        f"\nWith the base difficulty of {BASE_DIFFICULTY} that makes "
        f"**{result['dc_before_other_terms']}** before movement, stance, aim and conditions "
        f"are added ({rule('determining the difficulty', PAGE, 'determining-the-difficulty')}).")
    return "\n".join(line for line in lines if line)


RANGE_TABLE = Calculator(
    name="gunplay.range_table",
    title="Size and range table",
    summary="The size x range modifier, with its cell marked in the full table.",
    fields=size_fields() + range_fields(with_band=True),
    check=_table_check,
    compute=_table_compute,
    explain=_table_explain,
    headline=lambda r: [("Size x range", signed(r["modifier"])),
                        ("Target", f"{LABELS[Size(r['size'])]} at {r['band']} range"),
                        ("Difficulty so far", str(r["dc_before_other_terms"]))],
    page=RANGE_PAGE,
)
