"""Work the browser does on every page load that the post-build step removes: the theme's
palette component (a script after the header's switch does its work while the page is
parsed), its reload of the stylesheets (the head makes the links absolute first), and its
restyle of the whole article for each table of the text (each gets a wrapper of its own),
and a tooltip component for each heading's permanent link (named by aria-label instead)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from calculators import pages

pytestmark = pytest.mark.site

SWITCH = ('<form class="md-header__option" data-md-component="palette">'
          '<input class="md-option" type="radio" name="__palette" id="__palette_0"><label for="__palette_1" hidden></label>'
          '<input class="md-option" type="radio" name="__palette" id="__palette_1"><label for="__palette_0" hidden></label>'
          '</form>')


def _hash(tag: str) -> str:
    (body,) = pages.INLINE_SCRIPT.findall(tag)
    return base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()


def test_the_switch_names_no_theme_component_and_its_script_follows_it() -> None:
    page = f"<header>{SWITCH}</header><main></main>"
    done = pages.palette_switch(page)
    assert 'data-md-component="palette"' not in done
    # the first scheme's button shown as built (no shift when the script runs), the other hidden
    assert done == page.replace('data-md-component="palette"', "data-tcr-palette").replace(
        '<label for="__palette_1" hidden>', '<label for="__palette_1">').replace(
        "</header>", "</header>" + pages.PALETTE_SCRIPT)
    # the step run again on its own output changes nothing
    assert pages.palette_switch(done) == done
    # a page without the switch (another generator's) is left as it is
    assert pages.palette_switch("<header></header>") == "<header></header>"


def test_the_palette_script_is_the_file_without_its_comments() -> None:
    source = Path(pages.__file__).with_name("palette_body.js").read_text(encoding="utf-8")
    (body,) = pages.INLINE_SCRIPT.findall(pages.PALETTE_SCRIPT)
    assert "form[data-tcr-palette]" in body and "__md_set" in body
    assert not any(line.lstrip().startswith("//") for line in body.splitlines())
    assert body.count("\n") < source.count("\n")


@pytest.mark.parametrize("before,after", [
    # a table of the text: wrapped
    ("<p>a</p><table><tr><td>1</td></tr></table><p>b</p>",
     '<p>a</p><div class="tcr-table"><table><tr><td>1</td></tr></table></div><p>b</p>'),
    # alone in a div already (a rules table): left alone
    ('<div class="rules-table" data-x="y">\n<table><tr><td>1</td></tr></table></div>',
     '<div class="rules-table" data-x="y">\n<table><tr><td>1</td></tr></table></div>'),
    # a table with a class (a calculator's): the theme does not wrap it, nor does this
    ('<p>a</p><table class="calc-odds"><tr><td>1</td></tr></table>',
     '<p>a</p><table class="calc-odds"><tr><td>1</td></tr></table>'),
    # two in a row: each its own
    ("<table><tr><td>1</td></tr></table><table><tr><td>2</td></tr></table>",
     '<div class="tcr-table"><table><tr><td>1</td></tr></table></div>'
     '<div class="tcr-table"><table><tr><td>2</td></tr></table></div>'),
])
def test_each_bare_table_gets_a_wrapper_of_its_own(before: str, after: str) -> None:
    assert pages.wrap_tables(before) == after
    assert pages.wrap_tables(after) == after


def test_a_permanent_link_is_named_by_aria_label_not_title() -> None:
    link = '<h2 id="x">X<a class="headerlink" href="#x" title="Permanent link">&para;</a></h2>'
    done = pages.name_permalinks(link)
    assert done == link.replace('title="Permanent link"', 'aria-label="Permanent link"')
    assert pages.name_permalinks(done) == done
    # any other titled link is the theme's to show (a glossary term, a button's help)
    other = '<a href="#x" title="Keep these">x</a>'
    assert pages.name_permalinks(other) == other


def test_every_built_page_runs_the_switch_makes_its_links_absolute_and_wraps_its_tables(site) -> None:  # type: ignore[no-untyped-def]
    palette, links = _hash(pages.PALETTE_SCRIPT), _hash(pages.LINKS_HEAD)
    checked = 0
    for page in sorted(site.dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "<header" not in text:
            continue  # a redirect page, say
        assert 'data-md-component="palette"' not in text, page
        assert text.count("data-tcr-palette>") == 2, page  # the form and its script
        assert '</header><script data-tcr-palette>' in text, page
        assert text.count("data-tcr-links") == 1, page
        assert text.index(pages.LINKS_HEAD) < text.index("</head>") < text.index("<body"), page
        # after every stylesheet of the head
        assert text.rindex('rel="stylesheet"', 0, text.index("</head>")) < text.index(pages.LINKS_HEAD), page
        assert f"'sha256-{palette}'" in text and f"'sha256-{links}'" in text, page
        assert not re.search(r'class="headerlink"[^<>]*\stitle=', text), page
        for match in re.finditer(r"<table>", text):
            opened = text[:match.start()].rstrip()
            assert re.search(r"<div\b[^<>]*>$", opened), f"{page}: a bare table not alone in a wrapper"
        checked += 1
    assert checked > 40


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
