"""What the theme's start-up no longer does to a loaded page (pages.py): its palette
component is not mounted (the header's switch runs calculators/palette_body.js, inline,
while the page is parsed), the head makes its links absolute before the theme would (so the
stylesheets are not loaded and parsed again once the page is there), and each table of the
text sits in a wrapper of its own. Each of these cost a whole-page restyle in the theme's
start-up task, on every page. Here: the switch still does everything the theme's did, and
none of that work comes back. Also: a heading's permanent link gets no tooltip component
(it is named by aria-label instead of a title)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.support import instant_goto

pytestmark = pytest.mark.browser

CALC = "gunplay/difficulty/"

#: in the page from its start: what it has when the parser is done, before the theme's
#: deferred bundle runs (readyState "interactive" comes first)
AT_INTERACTIVE = """{
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive") return;
    window.__atInteractive = {
      sheets: [...document.styleSheets],
      metas: document.querySelectorAll('meta[name="color-scheme"]').length,
      scheme: document.body.getAttribute("data-md-color-scheme"),
      bareTables: [...document.querySelectorAll("article table:not([class])")].map((t) => ({
        alone: t.parentElement.children.length === 1 && t.parentElement.tagName === "DIV",
        parent: t.parentElement.className })),
    };
  });
}"""

STATE = """() => ({
  scheme: document.body.getAttribute("data-md-color-scheme"),
  metas: [...document.querySelectorAll('meta[name="color-scheme"]')].map((m) => m.content),
  shown: [...document.querySelectorAll("form[data-tcr-palette] label")].filter((l) => !l.hidden).map((l) => l.htmlFor),
  // (the theme's tooltips take a label's title away while it is hovered: the input it switches to instead)
  saved: __md_get("__palette"),
})"""


def _started(page: Page) -> None:
    """Until the theme has started: its bundle ran before DOMContentLoaded (it rewrites the
    links as it runs) and mounted its components at it, both before the page's load."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.document$ !== undefined")


@pytest.mark.parametrize("scheme,expected,meta,offered", [
    ("dark", "slate", "dark", "__palette_0"),  # the button to switch to light
    ("light", "default", "light", "__palette_1"),
])
def test_a_first_visit_takes_the_scheme_the_system_prefers(browser, site, scheme: str, expected: str,  # type: ignore[no-untyped-def]
                                                           meta: str, offered: str) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.add_init_script(AT_INTERACTIVE)
    page.goto(site.url + CALC)
    _started(page)
    state = page.evaluate(STATE)
    assert state["scheme"] == expected and state["metas"] == [meta], state
    assert state["shown"] == [offered], state
    assert state["saved"]["color"]["scheme"] == expected, state
    # set while the page was parsed, before the theme's script: nothing left for it to restyle
    early = page.evaluate("() => window.__atInteractive")
    assert early["scheme"] == expected and early["metas"] == 1, early
    assert page.locator("form[data-md-component=palette]").count() == 0
    # the header was never pushed about: its switch has its button from the first frame
    # (each shifted part of the header, named, with its move: what moved and when, should
    # this ever fail)
    shifted = page.evaluate("""() => new Promise((resolve) => {
      const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round);
      new PerformanceObserver((list) => resolve(list.getEntries().flatMap((entry) => entry.sources
        .filter((s) => s.node && s.node.closest && s.node.closest("header"))
        .map((s) => ({ value: entry.value, at: Math.round(entry.startTime),
                       node: `${s.node.tagName}.${String(s.node.className).split(" ").join(".")}`,
                       from: rect(s.previousRect), to: rect(s.currentRect) })))))
        .observe({ type: "layout-shift", buffered: true });
      setTimeout(() => resolve([]), 1000);  // no entry at all: nothing shifted
    })""")
    assert shifted == [], shifted
    context.close()


def test_the_switch_changes_the_scheme_keeps_it_and_works_after_instant_navigation(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(site.url + CALC)
    _started(page)
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    page.locator("form[data-tcr-palette] label:visible").click()
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    state = page.evaluate(STATE)
    assert state["metas"] == ["dark"] and state["shown"] == ["__palette_0"], state
    assert state["saved"] == {"index": 1, "color": {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
                                                    "primary": "blue-grey", "accent": "deep-orange"}}
    page.wait_for_function("b => getComputedStyle(document.body).backgroundColor !== b", arg=background)
    # kept for the next page: a new load opens dark although the system prefers light
    page.reload()
    _started(page)
    assert page.evaluate(STATE)["scheme"] == "slate"
    # instant navigation keeps the header, its switch and the one meta; the switch still works
    instant_goto(page, "../size-and-range/")
    assert page.evaluate(STATE)["metas"] == ["dark"]
    page.locator("form[data-tcr-palette] label:visible").click()
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'default'")
    state = page.evaluate(STATE)
    assert state["metas"] == ["light"] and state["shown"] == ["__palette_1"], state
    assert state["saved"]["index"] == 0
    # Enter on the switch moves on to the next scheme, as the theme's did
    page.focus("#__palette_0")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    assert page.evaluate("() => document.activeElement.id") == "__palette_1"
    context.close()


@pytest.mark.parametrize("path", [CALC, "sucs/roster/", "rulings/"])
def test_the_theme_loads_no_stylesheet_again_and_finds_each_table_wrapped(browser, site, path: str) -> None:  # type: ignore[no-untyped-def]
    """The sheets the page parsed are the ones it keeps once the theme has started (the
    theme's rewrite of relative links would load them again: LINKS_HEAD), the theme adds
    no color-scheme meta of its own, and each bare table of the text was alone in a
    wrapper before the theme's script (so the theme's own wrapping restyles only that)."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(AT_INTERACTIVE)
    page.goto(site.url + path)
    _started(page)
    same = page.evaluate("""() => {
      const now = [...document.styleSheets];
      const then = window.__atInteractive.sheets;
      return now.length === then.length && now.every((sheet, i) => sheet === then[i]);
    }""")
    assert same, "a stylesheet was loaded again after the page was parsed"
    assert page.evaluate("() => document.querySelectorAll('meta[name=\"color-scheme\"]').length") == 1
    tables = page.evaluate("() => window.__atInteractive.bareTables")
    assert all(table["alone"] for table in tables), tables
    # the theme still wrapped them in its scroll box, inside the wrapper
    assert page.evaluate("""() => [...document.querySelectorAll("article table:not([class])")]
      .every((t) => t.closest(".md-typeset__scrollwrap") !== null)""")
    context.close()


def test_a_table_of_the_text_sits_where_it_did(browser, site) -> None:  # type: ignore[no-untyped-def]
    """The wrapper has no style of its own: the theme's scroll box inside it keeps its
    margins (they pass through the wrapper), at both widths."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url + CALC)
    _started(page)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        gaps = page.evaluate("""() => [...document.querySelectorAll("article > .tcr-table")].map((wrap) => {
          const box = wrap.firstElementChild;
          const before = wrap.previousElementSibling.getBoundingClientRect();
          const own = box.getBoundingClientRect();
          const outer = wrap.getBoundingClientRect();
          const style = getComputedStyle(box);
          return { gap: own.top - before.bottom, margin: parseFloat(style.marginTop),
                   inside: Math.abs(own.left - outer.left - parseFloat(style.marginLeft)) < 1 };
        })""")
        assert gaps, "no table of the text in a wrapper on the page"
        for gap in gaps:
            assert gap["inside"], gaps
            assert gap["gap"] >= gap["margin"] - 1, gaps
    context.close()


def test_a_headings_permanent_link_is_named_and_carries_no_tooltip(browser, site) -> None:  # type: ignore[no-untyped-def]
    """The theme mounts a tooltip component for each titled element of the text as the page
    starts; a heading's link is named by aria-label instead (pages.name_permalinks), so it
    gets none, and a screen reader says "Permanent link" (it said the pilcrow before)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url + CALC)
    _started(page)
    links = page.locator("article a.headerlink")
    assert links.count() >= 3
    assert page.get_by_role("link", name="Permanent link").count() == links.count()
    assert page.locator("article a.headerlink[title]").count() == 0
    # every tooltip the theme shows from now on, by its text
    page.evaluate("""() => {
      window.__tips = [];
      new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
        if (n.classList && n.classList.contains("md-tooltip2")) window.__tips.push(n.textContent.trim());
      }))).observe(document.body, { childList: true, subtree: true });
    }""")
    # a focused titled element shows its tooltip at once: the link's first, then a button's
    links.first.focus()
    pin = page.locator('.calc [data-action="pin"]').first
    help_text = pin.get_attribute("title")  # the theme takes it away while its tooltip shows
    assert help_text
    pin.focus()
    page.wait_for_function("() => window.__tips.length > 0")
    assert page.evaluate("() => window.__tips") == [help_text]
    context.close()
