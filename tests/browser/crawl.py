"""One visit per page and screen size, with every check a page can have made on it.

The site's crawls used to visit every page once per check (clean loading, layout shift
at two sizes, accessibility in two schemes, page fit, table layout): seven passes over the
same pages, a third of the browser suite. :func:`crawl` loads each page once, in a fresh
profile per screen size, and records what every check needs; each check is then its own
test over the record (``every_page.py``), so a failure still says which check and
which page. The Zensical build runs the same crawl (``test_zensical.py``).

Every check is deterministic: no timing is measured, only states waited for. A page is
read once every widget has settled and every request it made is answered (not after a
fixed quiet time), and left only when none is in flight, so a late request's failure is
still its own page's. What a page shows is read by a few scripts in the page (:data:`SEEN`,
:data:`AXE_RUN`, :data:`NARROW_SEEN`, :data:`TABLES`), not by a browser call a value.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, Request

from rules_core import api
from tests.browser.support import RUNTIME_TIMEOUT_MS, shot_path, site_pages

#: the two screen sizes every page is visited at
VIEWPORTS = {"phone": (390, 844), "laptop": (1366, 900)}
#: the colour scheme each size's visit uses (accessibility, contrast included, is checked
#: in both schemes this way, each at one size)
SCHEMES = {"phone": "dark", "laptop": "light"}
#: a narrower width each visit also checks for sideways scrolling (the smallest phones; a
#: small laptop); the phone's touch targets are measured there too
NARROW = {"phone": 360, "laptop": 1280}
#: the checks a crawl can make (:func:`crawl` ``checks``)
CHECKS = ("clean", "agrees", "layout shift", "accessibility", "fit", "tables")
#: pages whose whole layout (every details open) is kept as a screenshot for review; with
#: TCR_SCREENSHOTS=1 in the environment, every page is
SHOWN = ("cortex/rolls/", "heroic/melee/", "gunplay/bursts/", "heroic/morale/", "sucs/attacks/")
TOUCH_PX = 40
WIDGETS = ".calc[data-calculator], .calc-app[data-app]"
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

#: policy violations and unhandled rejections, recorded from before any page script
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
window.__rejections = [];
window.addEventListener('unhandledrejection', e => window.__rejections.push(String(e.reason)));
"""

# Runs before any page script: records layout shifts from the first paint, the widgets'
# prerendered sizes at DOMContentLoaded (before the widget module binds them: Material's
# document$, which binds them, listens later than this) and every size they take after.
RECORD = """
(() => {
  const shifts = (window.__shifts = []);
  const keep = (entries) => {
    for (const e of entries) {
      shifts.push({ value: e.value, input: e.hadRecentInput,
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
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ type: "layout-shift", buffered: true });
  // The first frame painted after the parser finished reports every shift since a frame
  // painted while the HTML was still arriving (a busy machine paints mid-parse): a table
  // whose later rows widen it. At the next frame, those entries are all queued (taken
  // now, not left to the observer's later delivery), so the shifts from then on are the
  // ones that scripts, not the HTML arriving, can have caused.
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive") return;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      keep(observer.takeRecords());
      window.__parsedShifts = shifts.length;
    }));
  });
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

#: every widget and app has settled: neither loading nor busy (its status says how)
SETTLED = f"""() => [...document.querySelectorAll({WIDGETS!r})].every(
  el => !['loading', 'prerendered'].includes(el.dataset.status) && !el._busy)"""

#: every widget's headline as shown, with the inputs it was computed for
HEADLINES = """() => [...document.querySelectorAll('.calc[data-calculator]')].map(el => ({
  name: el.dataset.calculator, initial: el.dataset.initial,
  headline: [...el.querySelectorAll('.calc-result .calc-headline > div')]
    .map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])}))"""

#: every visible control of every widget and app that is shorter than a fingertip;
#: check boxes and radio buttons count by their label, which is what a finger hits
SMALL_TARGETS = """() => {
  const out = [];
  const roots = document.querySelectorAll('.calc[data-calculator], .calc-app[data-app]');
  for (const root of roots) {
    const name = root.dataset.calculator || root.dataset.app;
    for (const el of root.querySelectorAll('input, select, button, textarea, summary')) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
      let target = el;
      if (el.type === 'checkbox' || el.type === 'radio') target = el.closest('label') || el;
      if (el.type === 'file' && el.closest('label')) target = el.closest('label');
      const box = target.getBoundingClientRect();
      if (box.height < TOUCH) out.push(`${name}: ${el.tagName.toLowerCase()} ` +
        `${el.name || el.dataset.action || el.textContent.trim().slice(0, 30)} ${Math.round(box.height)}px`);
    }
  }
  return out;
}""".replace("TOUCH", str(TOUCH_PX))

#: every table of every widget as the box it occupies on screen (its own scroll box when
#: it scrolls inside one); pairs that overlap and tables that cross their widget's edge
TABLE_PROBLEMS = """() => {
  const out = [];
  for (const root of document.querySelectorAll('.calc[data-calculator]')) {
    const name = root.dataset.calculator;
    const edge = root.getBoundingClientRect();
    const boxes = [];
    for (const table of root.querySelectorAll('table')) {
      if (!table.checkVisibility()) continue;
      let box = table;
      for (let el = table; el && el !== root; el = el.parentElement) {
        const ox = getComputedStyle(el).overflowX;
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden') { box = el; break; }
      }
      const r = box.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5) {
        out.push(`${name}: a table (${Math.round(r.left)}-${Math.round(r.right)}) crosses the widget's edge (${Math.round(edge.left)}-${Math.round(edge.right)})`);
      }
      boxes.push([box, r]);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5 && ra.top < rb.bottom - 0.5 && rb.top < ra.bottom - 0.5) {
        out.push(`${name}: two tables overlap`);
      }
    }
  }
  return out;
}"""

OVERFLOW = "() => document.documentElement.scrollWidth - innerWidth"

#: what a page shows once every widget has settled, read two frames after the last change
#: (any shift it caused has then been reported): the widgets not ready, policy violations
#: and rejections, every headline, the layout-shift record and how far the page scrolls
#: sideways at the size it was loaded at
SEEN = f"""async () => {{
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return {{
    statuses: [...document.querySelectorAll({WIDGETS!r})]
      .filter(el => el.dataset.status !== 'ready')
      .map(el => (el.dataset.calculator || el.dataset.app) + ' ' + el.dataset.status),
    reported: window.__csp.concat(window.__rejections),
    headlines: ({HEADLINES})(),
    shifts: window.__shifts, parsed: window.__parsedShifts ?? null,
    prerendered: window.__prerendered, boxes: window.__boxes(), sizes: window.__sizes,
    overflow: ({OVERFLOW})(),
  }};
}}"""

#: axe-core's violations, each with its first three elements; a result fades back in after
#: a calculation (a short opacity transition, slower on a busy machine): contrast is
#: checked on the result as it finally shows, so this waits for that state first
AXE_RUN = """async (timeout) => {
  const stop = Date.now() + timeout;
  while (![...document.querySelectorAll('.calc-result')].every(el => getComputedStyle(el).opacity === '1')) {
    if (Date.now() > stop) throw new Error('a result never finished fading in');
    await new Promise(r => requestAnimationFrame(r));
  }
  const found = await axe.run(document, {resultTypes: ['violations']});
  return found.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""

#: at the narrow width: how far the page scrolls sideways, and (on a phone) the controls
#: shorter than a fingertip
NARROW_SEEN = f"""(touch) => ({{ overflow: ({OVERFLOW})(), small: touch ? ({SMALL_TARGETS})() : [] }})"""

#: the tables as built (which of each widget's exact-odds tables start open), then with every
#: details element opened: the tables that overlap or cross their widget's edge, and how far
#: the page then scrolls sideways
TABLES = f"""() => {{
  const opened = [...document.querySelectorAll('.calc-result')].map(r =>
    [...r.querySelectorAll('.calc-charts > .calc-chart > details.calc-table')].map(d => d.open));
  document.querySelectorAll('.calc details, .calc-app details').forEach(d => {{ d.open = true; }});
  return {{ opened, problems: ({TABLE_PROBLEMS})(), overflow: ({OVERFLOW})() }};
}}"""


@dataclass
class Crawl:
    """What one visit of every page at one screen size found, check by check."""

    size: str
    pages: list[str]
    widget_pages: list[str]
    #: check (one of :data:`CHECKS`) -> problems, each naming its page
    problems: dict[str, list[str]] = field(default_factory=dict)
    #: calculators whose live headline was compared with CPython's
    compared: int = 0


@cache
def _cpython_headline(name: str, initial: str) -> list[list[str]]:
    reply = api.run(name, json.loads(initial))
    assert reply["ok"], (name, initial, reply)
    return reply["display"]["headline"]


class _InFlight:
    """The requests a page has started and not yet finished (or failed): a page is left
    only once it has none, so a request's failure is seen on the page that made it."""

    def __init__(self, context: BrowserContext) -> None:
        self.requests: set[Request] = set()
        context.on("request", lambda r: self.requests.add(r))
        context.on("requestfinished", lambda r: self.requests.discard(r))
        context.on("requestfailed", lambda r: self.requests.discard(r))

    def wait_none(self, page: Page) -> None:
        deadline = time.monotonic() + RUNTIME_TIMEOUT_MS / 1000
        while self.requests and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets Playwright deliver the requests' events
        assert not self.requests, [r.url for r in self.requests]


def crawl(browser: Browser, site, size: str, checks: tuple[str, ...] = CHECKS) -> Crawl:  # type: ignore[no-untyped-def]
    """Load every page of ``site`` once at the screen size ``size`` (a fresh profile:
    the runtime starts on the first calculator page and starts from its snapshot on the
    others, as on a reader's device; service workers blocked so every request is seen)
    and make ``checks`` on each."""
    width, height = VIEWPORTS[size]
    narrow = NARROW[size]
    context = browser.new_context(base_url=site.url, viewport={"width": width, "height": height},
                                  service_workers="block", color_scheme=SCHEMES[size])
    context.add_init_script(WATCH_CSP)
    context.add_init_script(RECORD)
    if "accessibility" in checks:
        assert AXE.exists(), "run `npm ci` (make test does) to install axe-core"
        context.add_init_script(path=str(AXE))
    found = Crawl(size, site_pages(site), site_pages(site, widgets_only=True),
                  {check: [] for check in checks})
    problems = found.problems
    here = [""]  # the page being visited, for the listeners
    leaving = [False]  # a request the page still had in flight when the crawl moved on

    def note(check: str, text: str) -> None:
        if check in problems:
            problems[check].append(f"{size} {here[0] or 'home'}: {text}")

    def failed(request: Request) -> None:  # cut off by the navigation: not a failure
        if not (leaving[0] and request.failure == "net::ERR_ABORTED"):
            note("clean", f"failed {request.url} {request.failure}")

    context.on("request", lambda r: note("clean", f"off-site request {r.url}")
               if not r.url.startswith((site.url, "data:", "blob:")) else None)
    context.on("requestfailed", failed)
    in_flight = _InFlight(context)
    page = context.new_page()
    page.on("console", lambda m: note("clean", f"console {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: note("clean", f"page error {e}"))
    try:
        for rel in found.pages:
            leaving[0] = True
            page.goto(rel)
            leaving[0] = False
            here[0] = rel  # what the page's listeners note from now on
            _visit(page, rel, rel in found.widget_pages, size, narrow, found, note, in_flight)
    finally:
        context.close()
    return found


def _visit(page: Page, rel: str, has_widgets: bool, size: str, narrow: int, found: Crawl,
           note, in_flight: _InFlight) -> None:  # type: ignore[no-untyped-def]
    checks = found.problems
    # loaded (goto waits for the load event), every widget settled, every request answered
    page.wait_for_function(SETTLED, timeout=RUNTIME_TIMEOUT_MS)
    in_flight.wait_none(page)
    seen = page.evaluate(SEEN)
    if "clean" in checks:
        for status in seen["statuses"]:
            note("clean", f"widget status {status}")
        for item in seen["reported"]:
            note("clean", item)
    if "agrees" in checks:
        for shown in seen["headlines"]:
            found.compared += 1
            if shown["headline"] != _cpython_headline(shown["name"], shown["initial"]):
                note("agrees", f"{shown['name']} shows {shown['headline']}, CPython "
                               f"{_cpython_headline(shown['name'], shown['initial'])}")
    if "layout shift" in checks and has_widgets:
        _layout_shift(seen, note)
    if "accessibility" in checks:
        for violation in page.evaluate(AXE_RUN, RUNTIME_TIMEOUT_MS):
            note("accessibility", f"{SCHEMES[size]} scheme: {violation}")
    width, height = VIEWPORTS[size]
    if "fit" in checks:
        if seen["overflow"] > 0:  # at the size the page was loaded at
            note("fit", f"at {width}px scrolls sideways by {seen['overflow']}px")
        page.set_viewport_size({"width": narrow, "height": height})
        at_narrow = page.evaluate(NARROW_SEEN, size == "phone")
        if at_narrow["overflow"] > 0:
            note("fit", f"at {narrow}px scrolls sideways by {at_narrow['overflow']}px")
        for small in at_narrow["small"]:
            note("fit", f"at {narrow}px: {small}")
        page.set_viewport_size({"width": width, "height": height})
    if "tables" in checks and has_widgets:
        tables = page.evaluate(TABLES)
        for flags in tables["opened"]:
            # as built: only the first table of exact odds of a widget starts open
            if any(flags[1:]):
                note("tables", f"a table other than the first starts open {flags}")
        for problem in tables["problems"]:
            note("tables", problem)
        if tables["overflow"] > 0:
            note("tables", f"with every table open, scrolls sideways by {tables['overflow']}px")
    if rel in SHOWN or os.environ.get("TCR_SCREENSHOTS"):
        page.screenshot(path=str(shot_path(rel, size, "layout")), full_page=True, timeout=120_000)
    in_flight.wait_none(page)  # whatever the checks made the page fetch has come too


def _layout_shift(seen: dict, note) -> None:  # type: ignore[no-untyped-def]
    """The page's cumulative layout shift from the first paint until every widget was
    live is 0, and every widget kept its prerendered size the whole time (``seen``: what
    :data:`SEEN` read)."""
    shifts, parsed, sizes = seen["shifts"], seen["parsed"], seen["sizes"]
    before, after = seen["prerendered"], seen["boxes"]
    # On a busy machine Chromium may paint a page while its HTML is still being parsed:
    # Material's sidebar list grows as the rest arrives, and a static table's columns
    # widen when its later rows do (seen on cortex/harm's d12 table and on sucs/costs'
    # captioned rules tables in CI runs). Those shifts come from the static HTML
    # arriving in chunks, before any widget script has run (module scripts wait for the
    # parser), and are reported up to the first frame painted after the parser finished
    # (RECORD), so only the shifts after that frame are counted, and never those of the
    # sidebar alone; nor those right after an input, as Core Web Vitals does.
    assert parsed is not None, "no frame was painted after the page's HTML was parsed"
    counted = [s for s in shifts[parsed:] if not s["input"] and not s["sidebar"]]
    cls = sum(s["value"] for s in counted)
    if cls != 0:
        sources = [src for s in counted for src in s["sources"]]
        note("layout shift", f"CLS {cls:.4f}: " + "; ".join(sources[:6]))
    if before != after:
        changed = [f"{b['id']} {b['size']} -> {a['size']}" for b, a in zip(before, after, strict=True) if a != b]
        note("layout shift", "live size differs from the prerendered one: " + "; ".join(changed))
    resized = {key: seen for key, seen in sizes.items() if len(seen) > 1}
    if resized:
        note("layout shift", f"widgets changed size while starting: {resized}")
