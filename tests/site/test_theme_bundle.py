"""The theme's bundle carries Chromium's compile hint on its first line (calculators/theme.py),
and its source map still points where it did."""

from __future__ import annotations

import json
from pathlib import Path

import material

from calculators import theme

MATERIAL_SCRIPTS = Path(material.__file__).parent / "templates" / "assets" / "javascripts"


def _bundle(folder: Path, text: str, mappings: str | None) -> Path:
    script = folder / "assets" / "javascripts" / "bundle.0123abcd.min.js"
    script.parent.mkdir(parents=True)
    script.write_text(text, encoding="utf-8")
    if mappings is not None:
        script.with_name(script.name + ".map").write_text(
            json.dumps({"version": 3, "sources": ["a.ts"], "names": [], "mappings": mappings}, indent=2),
            encoding="utf-8")
    return script


def test_the_hint_goes_first_and_the_map_moves_down_one_line(tmp_path: Path) -> None:
    script = _bundle(tmp_path, '"use strict";(()=>{})();\n//# sourceMappingURL=bundle.0123abcd.min.js.map\n',
                     "AAAA,aAAa;AACb")
    assert theme.hint_bundles(tmp_path) == [script]
    text = script.read_text(encoding="utf-8")
    assert text == theme.COMPILE_HINT + '"use strict";(()=>{})();\n//# sourceMappingURL=bundle.0123abcd.min.js.map\n'
    source_map = json.loads(script.with_name(script.name + ".map").read_text(encoding="utf-8"))
    assert source_map == {"version": 3, "sources": ["a.ts"], "names": [], "mappings": ";AAAA,aAAa;AACb"}


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    script = _bundle(tmp_path, "(()=>{})();\n", "AAAA")
    theme.hint_bundles(tmp_path)
    first = script.read_bytes(), script.with_name(script.name + ".map").read_bytes()
    theme.hint_bundles(tmp_path)
    assert (script.read_bytes(), script.with_name(script.name + ".map").read_bytes()) == first
    assert first[0].count(theme.COMPILE_HINT.encode()) == 1


def test_a_bundle_without_a_map_is_hinted_and_no_map_is_made(tmp_path: Path) -> None:
    script = _bundle(tmp_path, "(()=>{})();\n", None)
    theme.hint_bundles(tmp_path)
    assert script.read_text(encoding="utf-8") == theme.COMPILE_HINT + "(()=>{})();\n"
    assert sorted(p.name for p in script.parent.iterdir()) == [script.name]


def test_the_built_sites_bundle_is_materials_with_the_hint_in_front(site) -> None:  # type: ignore[no-untyped-def]
    (script,) = site.dir.glob(theme.THEME_BUNDLES)
    original = MATERIAL_SCRIPTS / script.name
    assert script.read_text(encoding="utf-8") == theme.COMPILE_HINT + original.read_text(encoding="utf-8")
    shipped = json.loads(script.with_name(script.name + ".map").read_text(encoding="utf-8"))
    materials = json.loads(original.with_name(original.name + ".map").read_text(encoding="utf-8"))
    assert shipped == {**materials, "mappings": ";" + materials["mappings"]}
    # the map is still where the script says it is
    assert script.read_text(encoding="utf-8").rstrip().endswith(f"//# sourceMappingURL={script.name}.map")
