"""Nothing moves when the widgets go live: every calculator and app occupies its final
size in the prerendered HTML.

Every page with a calculator or an app is visited at a phone size (390x844) and a laptop
size (1366x900), in a fresh profile per size. Two checks per page, both deterministic
(no timing is measured, only states waited for):

- the page's cumulative layout shift, from the browser's own ``layout-shift`` entries
  (those right after an input excluded, as Core Web Vitals does, and those only of
  Material's sidebar, which no widget touches), is exactly 0 from the first paint until
  every widget is live;
- every widget keeps its prerendered size (taken at DOMContentLoaded, before the widget
  module binds it) through the whole start, including the download and its progress
  display, whether or not it is on screen: a ResizeObserver sees every size it takes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.support import RUNTIME_TIMEOUT_MS, site_pages

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": (390, 844), "laptop": (1366, 900)}
WIDGETS = ".calc[data-calculator], .calc-app[data-app]"

# Runs before any page script: records layout shifts from the first paint, the widgets'
# prerendered sizes at DOMContentLoaded (before the widget module binds them: Material's
# document$, which binds them, listens later than this), and every size they take after.
RECORD = """
(() => {
  const shifts = (window.__shifts = []);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      shifts.push({ value: e.value, input: e.hadRecentInput, at: e.startTime,
        sidebar: (e.sources || []).length > 0 && e.sources.every((s) => s.node && s.node.nodeType === 1
          && s.node.closest(".md-sidebar")),
        sources: (e.sources || []).map((s) => {
          const n = s.node;
          const name = !n ? "?" : n.nodeType === 1
            ? `${n.tagName.toLowerCase()}${n.id ? "#" + n.id : ""}.${[...n.classList].join(".")}`
            : `text "${String(n.textContent).trim().slice(0, 40)}"`;
          return `${name} ${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`;
        }) });
    }
  }).observe({ type: "layout-shift", buffered: true });
  window.__boxes = () => [...document.querySelectorAll(WIDGETS)].map((el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id, size: `${Math.round(r.width)}x${Math.round(r.height)}` };
  });
  window.__sizes = {};
  document.addEventListener("DOMContentLoaded", () => {
    window.__prerendered = window.__boxes();
    const seen = new ResizeObserver((entries) => {
      for (const e of entries) {
        const key = e.target.id;
        const size = e.borderBoxSize[0];
        const text = `${Math.round(size.inlineSize)}x${Math.round(size.blockSize)}`;
        const list = (window.__sizes[key] ||= []);
        if (list[list.length - 1] !== text) list.push(text);
      }
    });
    document.querySelectorAll(WIDGETS).forEach((el) => seen.observe(el));
  }, { once: true, capture: true });
})();
""".replace("WIDGETS", repr(WIDGETS))

ALL_LIVE = f"""() => {{
  const all = [...document.querySelectorAll({WIDGETS!r})];
  return all.length > 0 && all.every((el) => el.dataset.status === 'ready' && !el._busy);
}}"""


def _pages(site) -> list[str]:  # type: ignore[no-untyped-def]
    return site_pages(site, widgets_only=True)


@pytest.fixture(scope="module", params=list(VIEWPORTS))
def sized(request, browser: Browser, site) -> Iterator[tuple[str, BrowserContext]]:  # type: ignore[no-untyped-def]
    """One fresh profile per screen size (the runtime's snapshot is reused across its
    pages, as on a reader's phone); service workers blocked."""
    width, height = VIEWPORTS[request.param]
    context = browser.new_context(base_url=site.url, viewport={"width": width, "height": height},
                                  service_workers="block")
    context.add_init_script(RECORD)
    yield request.param, context
    context.close()


def test_the_site_has_widget_pages_to_check(site) -> None:  # type: ignore[no-untyped-def]
    pages = _pages(site)
    assert len(pages) >= 10, pages
    assert {"sucs/roster/", "phases/tracker/", "gunplay/difficulty/"} <= set(pages)


def test_no_layout_shift_while_every_widget_goes_live(sized, site) -> None:  # type: ignore[no-untyped-def]
    size, context = sized
    problems = []
    for path in _pages(site):
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            page.goto(path)
            page.wait_for_function(ALL_LIVE, timeout=RUNTIME_TIMEOUT_MS)
            # two frames after the last change: any shift it caused has been reported
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            shifts = page.evaluate("window.__shifts")
            parsed = page.evaluate("performance.getEntriesByType('navigation')[0].domInteractive")
            before = page.evaluate("window.__prerendered")
            after = page.evaluate("window.__boxes()")
            sizes = page.evaluate("window.__sizes")
        finally:
            page.close()
        # On a busy machine Chromium may paint a page while its HTML is still being parsed:
        # Material's sidebar list grows as the rest arrives, and a static table's columns
        # widen when its later rows do (seen on cortex/harm's d12 table in a CI run). Those
        # shifts come from the static HTML arriving in chunks, before any widget script has
        # run (module scripts wait for the parser), so only shifts after the parser finished
        # are counted, and never those of the sidebar alone.
        counted = [s for s in shifts if not s["input"] and not s["sidebar"] and s["at"] >= parsed]
        cls = sum(s["value"] for s in counted)
        if cls != 0:
            sources = [src for s in counted for src in s["sources"]]
            problems.append(f"{size} {path}: CLS {cls:.4f}: " + "; ".join(sources[:6]))
        if before != after:
            changed = [f"{b['id']} {b['size']} -> {a['size']}" for b, a in zip(before, after, strict=True) if a != b]
            problems.append(f"{size} {path}: live size differs from the prerendered one: " + "; ".join(changed))
        resized = {key: seen for key, seen in sizes.items() if len(seen) > 1}
        if resized:
            problems.append(f"{size} {path}: widgets changed size while starting: {resized}")
        if errors:
            problems.append(f"{size} {path}: page errors {errors}")
    assert not problems, "\n".join(problems)
