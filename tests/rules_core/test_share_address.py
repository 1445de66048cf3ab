"""The battle's page address as the site's JavaScript writes it (sharelink.js, under
Node) is read the same way by the rules core: the packed part is the army builder's
share-link encoding (``calc_roster_battle.unshare`` unpacks it), the seal is zlib's
CRC-32 of the same text, and the rosters it carries fight the same battle."""

from __future__ import annotations

import json
import subprocess
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

from rules_core import api
from rules_core.sucs import roster
from rules_core.sucs.calc_roster_battle import unshare

ROOT = Path(__file__).resolve().parents[2]
PRESETS = api.app_data("sucs.roster")["presets"]


def ten_units(name: str, start: int) -> dict[str, Any]:
    units = [{"name": p["name"].title(), "count": 1, "preset": p["id"], "stats": p["stats"]}
             for p in PRESETS[start:start + 10]]
    army, problems = roster.normalize_roster({"format": "sucs-roster", "version": 1, "name": name,
                                              "points_limit": 500, "units": units})
    assert army is not None, problems
    return army


def js_address(inputs: dict[str, str]) -> str:
    """The query the widgets write for ``inputs`` of the battle (uid "roster-battle")."""
    script = ('import { addressPairs, sealQuery } from "./calculators/assets/sharelink.js"; '
              "const inputs = JSON.parse(process.argv[1]); "
              'const pairs = await addressPairs("roster-battle.", Object.entries(inputs)); '
              "process.stdout.write(sealQuery([], pairs));")
    done = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script, "--",
                           json.dumps(inputs)], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


def sealed(query: str) -> list[tuple[str, str]] | None:
    """The calculators' pairs of a sealed query, or None when it is cut (as readQuery)."""
    pairs = parse_qsl(query.lstrip("?"), keep_blank_values=True)
    keys = [k for k, _ in pairs]
    if "end" not in keys:
        return None
    body = [(k, v) for k, v in pairs[:keys.index("end")] if "." in k]
    text = "&".join(f"{quote(k, safe=SAFE)}={quote(v, safe=SAFE)}" for k, v in body)
    return body if f"{zlib.crc32(text.encode()):08x}" == pairs[keys.index("end")][1] else None


#: what encodeURIComponent leaves as it is
SAFE = "-_.!~*'()"


def test_the_core_reads_the_battle_address_the_page_writes() -> None:
    a, b = ten_units("Red platoon", 20), ten_units("Blue company", 35)
    inputs = {"roster_a": json.dumps(a, separators=(",", ":"), ensure_ascii=False),
              "roster_b": json.dumps(b, separators=(",", ":"), ensure_ascii=False),
              "a_cover": "0", "b_cover": "1", "turns": "4", "targeting": "likeliest",
              "no_commander": "organized"}
    query = js_address(inputs)
    href = "https://example.github.io/tabletop-combat-rules/sucs/roster/" + query
    assert len(href) < 2_000, len(href)
    pairs = sealed(query)
    assert pairs is not None, "the seal is zlib's CRC-32 of the same text"
    values = {k.removeprefix("roster-battle."): v for k, v in pairs}
    long = json.loads(unshare("roster_a", values.pop("_z")))  # the share links' encoding
    assert long == {"roster_a": a, "roster_b": b}
    assert values == {k: v for k, v in inputs.items() if not k.startswith("roster_")}
    # the core takes the battle the address carries (the rosters as the share links hold them)
    sent = {**{k: int(v) if v.isdigit() else v for k, v in values.items()}, "turns": 4,
            "roster_a": json.dumps(long["roster_a"]), "roster_b": json.dumps(long["roster_b"])}
    reply = api.run("sucs.roster_battle", sent)
    assert reply["ok"], reply


def test_a_cut_battle_address_is_cut_for_the_core_too() -> None:
    a = ten_units("Red platoon", 20)
    query = js_address({"roster_a": json.dumps(a, separators=(",", ":")), "turns": "6"})
    assert sealed(query) is not None
    for keep in (300, len(query) // 2, len(query) - 1, query.index("&roster-battle.turns")):
        assert sealed(query[:keep]) is None, keep
    assert urlsplit("https://x.org/" + query).query == query.lstrip("?")
