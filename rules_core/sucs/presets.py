"""The published unit lists (source: SUCS, the tables "TL 0-2 armies" to "TL 12-15
armies"), read from ``units.toml`` and checked on import.

Every row keeps its published cells; :func:`preset_unit` reads them with
:mod:`rules_core.sucs.notation` and the cost formula prices them, so each published
"extra cost" can be compared with the computed one.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules_core.sucs import notation
from rules_core.sucs.cost import MOBILITIES, Unit, price
from rules_core.sucs.tables import ERAS

COLUMNS = ("extra cost", "attack", "armor", "speed", "range", "transport", "stealth",
           "support")
COMMANDER_NAMES = ("commander", "officer")


class PresetDataError(ValueError):
    """units.toml is malformed; the message names the list and the row."""


@dataclass(frozen=True)
class Preset:
    """One published unit: its list, its printed cells, the unit read from them."""

    id: str
    list_id: str
    list_title: str
    name: str
    cells: dict[str, str]
    published_extra: int
    unit: Unit

    @property
    def computed_extra(self) -> int:
        return price(self.unit).extra

    @property
    def reproduced(self) -> bool:
        return self.published_extra == self.computed_extra


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def preset_unit(name: str, cells: dict[str, str], mobility: str | None) -> Unit:
    """Read one row's cells into a Unit (quality 3; the lists give extra cost only)."""
    weapons = notation.parse_weapons(cells["attack"])
    if not re.fullmatch(r"\d{1,2}", cells["armor"]):
        raise notation.NotationError(f"armor {cells['armor']!r} is not a whole number")
    speed, must_move, altitude = notation.parse_speed(cells["speed"])
    range_, min_range = notation.parse_range(cells["range"])
    transport, restricted = notation.parse_transport(cells["transport"])
    if mobility is None:
        mobility = "air" if altitude >= 1 else "ground"
    if mobility not in MOBILITIES:
        raise notation.NotationError(f"mobility {mobility!r} is not one of {MOBILITIES}")
    return Unit(
        quality=3, attack=weapons[0].attack, targets=weapons[0].targets,
        alt_weapons=weapons[1:], armor=int(cells["armor"]), speed=speed,
        must_move=must_move, range=range_, min_range=min_range, altitude=altitude,
        mobility=mobility, stealth=notation.parse_stealth(cells["stealth"]),
        transport=transport, transport_restricted=restricted,
        support=notation.parse_support(cells["support"]),
        commander=name in COMMANDER_NAMES,
    )


def _read_list(entry: Any, index: int) -> list[Preset]:
    if not isinstance(entry, dict) or not isinstance(entry.get("title"), str):
        raise PresetDataError(f"units.toml: list {index + 1} has no title")
    title = entry["title"]
    list_id = entry.get("id")
    if list_id not in ERAS:
        raise PresetDataError(f"units.toml, {title}: id {list_id!r} is not one of {list(ERAS)}")
    rows = entry.get("units")
    if not isinstance(rows, list) or not rows:
        raise PresetDataError(f"units.toml, {title}: no units")
    out: list[Preset] = []
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        where = f"units.toml, {title}, row {number}"
        if not isinstance(row, dict) or not isinstance(row.get("unit"), str):
            raise PresetDataError(f"{where}: each row needs a unit name")
        name = row["unit"]
        cells_list = row.get("cells")
        if not isinstance(cells_list, list) or len(cells_list) != len(COLUMNS) or not all(
                isinstance(c, str) for c in cells_list):
            raise PresetDataError(f"{where} ({name}): expected {len(COLUMNS)} text cells: "
                                  + ", ".join(COLUMNS))
        unknown = set(row) - {"unit", "cells", "mobility"}
        if unknown:
            raise PresetDataError(f"{where} ({name}): unknown keys {sorted(unknown)}")
        cells = {column: cell for column, cell in zip(COLUMNS, cells_list)}
        try:
            published = notation.parse_cost(cells["extra cost"])
            unit = preset_unit(name, cells, row.get("mobility"))
        except notation.NotationError as err:
            raise PresetDataError(f"{where} ({name}): {err}") from err
        preset_id = f"{list_id}/{slug(name)}"
        if preset_id in seen:
            raise PresetDataError(f"{where}: {name!r} appears twice in the list")
        seen.add(preset_id)
        out.append(Preset(preset_id, list_id, title, name, cells, published, unit))
    return out


def load(text: str) -> tuple[Preset, ...]:
    """Parse and check the unit lists. Raises PresetDataError citing the list and row."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PresetDataError(f"units.toml is not valid TOML: {err}") from err
    lists = data.get("lists")
    if not isinstance(lists, list) or not lists:
        raise PresetDataError("units.toml: no [[lists]]")
    presets: list[Preset] = []
    for index, entry in enumerate(lists):
        presets += _read_list(entry, index)
    ids = [p.list_id for p in presets]
    missing = [lid for lid in ERAS if lid not in ids]
    if missing:
        raise PresetDataError(f"units.toml: the tech-level lists {missing} are missing")
    return tuple(presets)


@cache
def presets() -> tuple[Preset, ...]:
    """Every published unit, in list order (read once)."""
    text = resources.files("rules_core.sucs").joinpath("units.toml").read_text("utf-8")
    return load(text)


def by_id() -> dict[str, Preset]:
    return {p.id: p for p in presets()}


def list_titles() -> dict[str, str]:
    """List id -> title, in order."""
    out: dict[str, str] = {}
    for p in presets():
        out.setdefault(p.list_id, p.list_title)
    return out
