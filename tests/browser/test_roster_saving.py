"""The army builder's backups and links in Chromium with real localStorage: export-all,
clear, import restores every roster exactly (3 and 50); a collection link adds every
roster; reopening a link opens the saved roster instead of adding a copy, or asks when
the name is taken; links are compressed (a 4-unit roster under 700 characters) and the
first, uncompressed format still opens; a damaged link gets a plain message; damaged
storage (nested 100,000 deep, a 200 kB damaged old store) is handled in one pass and
leaves the builder working; prints give one set of boxes per model; the picker and the
lines show the same cost; a refused request for persistent storage is said once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.roster_storage import (  # noqa: F401 (the two fixtures)
    APP,
    ENTRY,
    LEGACY,
    SNAPSHOT,
    builder_fixture,
    entries,
    kept,
    names,
    no_page_errors_fixture,
    settle,
    unit,
)
from tests.browser.support import RUNTIME_TIMEOUT_MS, download, instant_goto, put_storage

pytestmark = pytest.mark.browser

PRESETS = ["tl5-7/officer", "tl5-7/light-tank", "tl5-7/machine-gun", "tl12-15/grav-tank",
           "tl0-2/crossbowman", "tl8-11/air-raft"]


def army(i: int, size: int = 3) -> dict:
    units = [unit(PRESETS[(i + k) % len(PRESETS)], 1 + (i + k) % 3) for k in range(size)]
    roster = {"format": "sucs-roster", "version": 1, "name": f"Army {i:02d}",
              "points_limit": 100 + i, "units": units}
    # as the core normalises it (what the builder saves)
    return api.run("sucs.roster_import", {"file": json.dumps(roster)})["result"]["rosters"][0]


def reopen(page: Page, items: dict[str, str]) -> None:
    """Clear storage, write `items`, and mount the builder afresh (instant navigation
    keeps the rules engine loaded). The builder is left first: a save it still had
    pending would otherwise land after the clear and bring back the last test's rosters."""
    instant_goto(page, "../")
    put_storage(page, items)
    instant_goto(page, "roster/")
    settle(page)


def open_link(page: Page, site, fragment: str) -> None:  # type: ignore[no-untyped-def]
    """Open a share link as a received one is: in a page of its own. (A change of "#"
    alone on the open builder is a paste into its address bar: tests/browser/test_sucs.py.)"""
    page.goto("about:blank")
    page.goto(site.url + "sucs/roster/#roster=" + fragment)


def encode(page: Page, value: object) -> str:
    """The builder's own encoder (the module the page loaded)."""
    return page.evaluate(
        """async (value) => {
             // the module the builder loaded, under its content-hashed name
             const url = performance.getEntriesByType('resource').map(e => e.name)
               .find(name => name.includes('/assets/calculators/apps/sucs_roster_lib.'));
             const lib = await import(url);
             return lib.encodeShare(value);
           }""", value)


def saved_entries(page: Page) -> list[list[str]]:
    """The roster keys and their text, exactly as stored."""
    return [kv for kv in json.loads(page.evaluate(SNAPSHOT)) if kv[0].startswith(ENTRY)]


def picker(page: Page) -> list[str]:
    return page.locator(f"{APP} .sucs-pick option").all_inner_texts()


# ---- backups ------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [3, 50])
def test_export_all_then_import_restores_every_roster(builder: Page, tmp_path: Path, count: int) -> None:
    page = builder
    rosters = [army(i) for i in range(count)]
    items = {ENTRY + f"a{i}": json.dumps({"id": f"a{i}", "rev": 1, "order": i, "roster": r})
             for i, r in enumerate(rosters)}
    reopen(page, items)
    assert picker(page) == [r["name"] for r in rosters]
    path = download(page, page.locator(f"{APP} .sucs-files").get_by_role("button", name="Export all rosters"),
                    tmp_path / "all.json")
    exported = json.loads(path.read_text())
    assert exported["rosters"] == rosters
    reopen(page, {})  # everything gone: the builder starts a first army
    assert picker(page) == ["My first army"]
    page.set_input_files(f"{APP} .sucs-import", str(path))
    page.wait_for_function(f"() => document.querySelectorAll('.sucs-pick option').length === {count + 1}",
                           timeout=RUNTIME_TIMEOUT_MS)
    settle(page)
    assert f"{count} rosters added" in page.locator(f"{APP} .sucs-notice").inner_text()
    assert [e["roster"] for e in entries(page)][1:] == rosters  # exactly, in order
    # importing the same backup again adds nothing: each is saved already
    before = saved_entries(page)
    page.set_input_files(f"{APP} .sucs-import", str(path))
    page.wait_for_function("() => document.querySelector('.sucs-notice-text').textContent"
                           f".includes('{count} already saved here')", timeout=RUNTIME_TIMEOUT_MS)
    settle(page)
    assert saved_entries(page) == before  # byte for byte


def test_import_asks_about_each_taken_name(builder: Page, tmp_path: Path) -> None:
    page = builder
    mine = [army(i) for i in range(3)]
    reopen(page, {ENTRY + f"m{i}": json.dumps({"id": f"m{i}", "rev": 1, "order": i, "roster": r})
                  for i, r in enumerate(mine)})
    incoming = [{**mine[0], "points_limit": 999}, army(7), {**mine[2], "points_limit": 998}, mine[1]]
    path = tmp_path / "some.json"
    path.write_text(json.dumps({"format": "sucs-rosters", "version": 1, "rosters": incoming}))
    page.set_input_files(f"{APP} .sucs-import", str(path))
    dialog = page.locator(".sucs-ask[open]")
    dialog.wait_for()
    assert "“Army 00”" in dialog.inner_text() and "1 more roster of the import has a name" in dialog.inner_text()
    dialog.get_by_role("button", name="Replace", exact=True).click()
    page.wait_for_function("() => document.querySelector('.sucs-ask-title').textContent.includes('Army 02')")
    page.locator(".sucs-ask[open]").get_by_role("button", name="Keep both").click()
    page.wait_for_function("() => document.querySelector('.sucs-notice-text').textContent.includes('replaced 1')")
    settle(page)
    text = page.locator(f"{APP} .sucs-notice").inner_text()
    assert "2 rosters added" in text and "1 already saved here" in text
    saved = {e["roster"]["name"]: e["roster"] for e in entries(page)}
    assert saved["Army 00"]["points_limit"] == 999  # replaced
    assert saved["Army 02"]["points_limit"] == mine[2]["points_limit"]  # kept both
    assert saved["Army 02 (imported)"]["points_limit"] == 998
    assert saved["Army 07"] == incoming[1] and saved["Army 01"] == mine[1]
    assert len(entries(page)) == 5


# ---- share links ----------------------------------------------------------------------------

def test_links_are_short_and_reopening_one_does_not_duplicate(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = builder
    four = army(0, size=4)
    reopen(page, {})
    fragment = encode(page, four)
    link = site.url + "sucs/roster/#roster=" + fragment
    assert fragment.startswith("z.") and len(link) < 700, len(link)
    open_link(page, site, fragment)
    settle(page)  # ready only once the link's roster is in
    assert names(page) == ["My first army", four["name"]]
    assert [e["roster"] for e in entries(page)][1] == four
    assert "#roster" not in page.url
    before = saved_entries(page)
    page.select_option(f"{APP} .sucs-pick", label="My first army")
    settle(page)
    open_link(page, site, fragment)
    settle(page)
    assert names(page) == ["My first army", four["name"]]  # not added again
    assert "already saved here" in page.locator(f"{APP} .sucs-notice").inner_text()
    assert page.locator(f"{APP} .sucs-name").input_value() == four["name"]  # the saved one is opened
    assert saved_entries(page) == before
    # the same name with other content: asked, and Cancel changes nothing
    changed = {**four, "points_limit": four["points_limit"] + 1}
    open_link(page, site, encode(page, changed))
    dialog = page.locator(".sucs-ask[open]")
    dialog.wait_for(timeout=RUNTIME_TIMEOUT_MS)
    assert "You already have a roster called" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    settle(page)
    assert names(page) == ["My first army", four["name"]]


def test_first_link_format_and_collection_links(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = builder
    reopen(page, {})
    plain = page.evaluate(
        """r => { const b = new TextEncoder().encode(JSON.stringify(r)); let s = '';
                  b.forEach(x => { s += String.fromCharCode(x); });
                  return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); }""", army(1))
    open_link(page, site, plain)
    settle(page)
    assert names(page) == ["My first army", "Army 01"]
    collection = {"format": "sucs-rosters", "version": 1, "rosters": [army(i) for i in range(2, 7)]}
    open_link(page, site, encode(page, collection))
    settle(page)
    assert names(page) == ["My first army", "Army 01"] + [f"Army {i:02d}" for i in range(2, 7)]
    assert "5 rosters added" in page.locator(f"{APP} .sucs-notice").inner_text()


@pytest.mark.parametrize("fragment", ["z.AAAA", "z.not*base64", "eyJmb3JtYXQiOiJzdWNzLXJv", "z."])
def test_damaged_link_gets_a_plain_message(builder: Page, site, fragment: str) -> None:  # type: ignore[no-untyped-def]
    page = builder
    reopen(page, {})
    before = saved_entries(page)
    if fragment == "z.":  # a real link cut in half
        fragment = encode(page, army(3))[:120]
    open_link(page, site, fragment)
    settle(page)
    problems = page.locator(f"{APP} .sucs-problems")
    assert problems.is_visible()
    text = problems.inner_text()
    assert "Nothing was added" in text or "nothing was changed" in text
    assert "JSON" not in text and "Unexpected" not in text and "SyntaxError" not in text
    assert saved_entries(page) == before


# ---- damaged storage is read in one pass, without recursion -----------------------------------

def test_storage_nested_100000_deep_leaves_the_builder_working(builder: Page) -> None:
    page = builder
    deep = "[" * 100_000 + "]" * 100_000
    good = json.dumps({"id": "good", "rev": 1, "order": 0, "roster": army(4)})
    reopen(page, {ENTRY + "deep": deep, ENTRY + "good": good, LEGACY: '{"rosters": ' + deep + "}"})
    assert picker(page) == ["Army 04"]
    assert "nested more than" in page.locator(f"{APP} .sucs-damage").inner_text()
    assert sorted(kept(page).values(), key=len) == sorted([deep, '{"rosters": ' + deep + "}"], key=len)
    page.click('[data-sucs="add"]')  # and it works
    settle(page)
    assert len(entries(page)[0]["roster"]["units"]) == 4


def test_a_200_kb_damaged_old_store_is_salvaged_with_one_copy(builder: Page) -> None:
    page = builder
    piece = json.dumps({"id": "x", "rev": 1, "roster": army(5)})
    broken = '{"schema": "sucs-roster-store", "version": 1, "rosters": [' + \
        ", ".join(piece.replace('"x"', f'"e{i}"') for i in range(40)) + ", " + \
        '{"id": "' * 20_000 + "]}"
    assert len(broken) > 200_000
    reopen(page, {LEGACY: broken})
    assert len(kept(page)) == 1 and list(kept(page).values()) == [broken]
    keys = page.evaluate("() => Object.keys(localStorage).length")
    assert keys < 50  # the 40 good rosters, the active roster, the one kept copy
    assert len(entries(page)) == 40


# ---- printing and costs -----------------------------------------------------------------------

def test_print_gives_one_set_of_boxes_per_model_and_costs_agree(builder: Page) -> None:
    page = builder
    reopen(page, {})
    page.select_option(f"{APP} .sucs-add-list", "tl5-7")
    page.select_option(f"{APP} .sucs-add-unit", "tl5-7/light-tank")
    option = page.locator(f"{APP} .sucs-add-unit option:checked").inner_text()
    page.click('[data-sucs="add"]')
    settle(page)
    count = page.locator(f"{APP} .sucs-line-count").first
    count.fill("3")
    count.press("Enter")
    settle(page)
    each = page.locator(f"{APP} .sucs-line-cost").first.inner_text().split(" pts each")[0]
    assert f"({each} pts" in option  # the picker and the line use the same (total) cost
    page.emulate_media(media="print")
    try:
        card = page.locator(".sucs-card").first
        assert card.locator(".sucs-card-track").count() == 3
        assert card.locator(".sucs-card-track").first.is_visible()
    finally:
        page.emulate_media(media="screen")


def test_refused_persistent_storage_is_said_once(builder: Page) -> None:
    """Last in this module: the page keeps a browser that refuses persistent storage."""
    page = builder
    page.add_init_script("""for (const name of ['persist', 'persisted']) Object.defineProperty(
        navigator.storage, name, { configurable: true, value: () => Promise.resolve(false) });""")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    settle(page)
    note = page.locator(f"{APP} .sucs-persist")
    assert not note.is_visible()  # nothing saved yet, nothing asked
    page.click('[data-sucs="add"]')
    note.wait_for()
    assert "Export" in note.inner_text() and note.get_by_role("button", name="Export all rosters").is_visible()
    page.reload()  # said once: the next visit's save is quiet
    settle(page)
    page.click('[data-sucs="add"]')
    settle(page)
    assert entries(page)[0]["roster"]["units"][0]["count"] == 2  # the same unit again: one more
    assert not note.is_visible()
