"""Work the browser does on every page load that the post-build step removes: Material's
palette stylesheet loses the rule keyed on ``data-md-color-switching`` (whose selector
reaches every element, so each of Material's start-up writes on ``<body>`` restyled the
whole page), and keeps every colour rule."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from calculators import pages

pytestmark = pytest.mark.site

SWITCHING = ("[data-md-color-switching] *,[data-md-color-switching] :after,"
             "[data-md-color-switching] :before{transition-duration:0s!important}")
SLATE = '[data-md-color-scheme=slate]{--md-default-bg-color:#1e2129}'
PRIMARY = '[data-md-color-primary=blue-grey]{--md-primary-fg-color:#546d78}'


def test_the_switching_rule_goes_and_the_colour_rules_stay(tmp_path: Path) -> None:
    sheets = tmp_path / "assets" / "stylesheets"
    sheets.mkdir(parents=True)
    palette = sheets / "palette.0123abcd.min.css"
    palette.write_text(PRIMARY + SWITCHING + "@media screen{" + SLATE + "}", encoding="utf-8")
    main = sheets / "main.0123abcd.min.css"
    main.write_text(".md-typeset{font-size:.8rem}", encoding="utf-8")
    assert pages.calm_palette_switch(tmp_path) == 1
    assert palette.read_text(encoding="utf-8") == PRIMARY + "@media screen{" + SLATE + "}"
    assert main.read_text(encoding="utf-8") == ".md-typeset{font-size:.8rem}"
    # a second run (the post-build step run again on the same site) changes nothing
    assert pages.calm_palette_switch(tmp_path) == 0
    assert palette.read_text(encoding="utf-8") == PRIMARY + "@media screen{" + SLATE + "}"


def test_a_site_without_a_palette_stylesheet_is_left_alone(tmp_path: Path) -> None:
    assert pages.calm_palette_switch(tmp_path) == 0


def test_the_built_site_has_no_switching_rule_and_keeps_both_schemes(site) -> None:  # type: ignore[no-untyped-def]
    sheets = sorted((site.dir / "assets" / "stylesheets").glob("*.css"))
    palettes = [s for s in sheets if s.name.startswith("palette")]
    assert palettes, "Material's palette stylesheet is missing"
    for sheet in sheets:
        assert "data-md-color-switching" not in sheet.read_text(encoding="utf-8"), sheet.name
    text = "".join(p.read_text(encoding="utf-8") for p in palettes)
    assert "[data-md-color-scheme=slate]" in text
    assert "[data-md-color-primary=blue-grey]" in text


def test_every_page_sets_the_themes_root_classes_in_its_head_once(site) -> None:  # type: ignore[no-untyped-def]
    """The classes Material's script gives <html> are there before the body (pages.THEME_CLASSES),
    once per page, and allowed by the page's security policy."""
    (body,) = pages.INLINE_SCRIPT.findall(pages.CLASSES_HEAD)
    policy_hash = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    checked = 0
    for page in sorted(site.dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert text.count("data-tcr-classes") == 1, page
        assert text.index(pages.CLASSES_HEAD) < text.index("<body"), page
        assert f"'sha256-{policy_hash}'" in text, page
        checked += 1
    assert checked > 40
