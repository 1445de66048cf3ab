"""The checks of every page of the built site, loaded once at a phone size (390x844, dark
scheme: test_every_page_phone.py) and once at a laptop size (1366x900, light scheme:
test_every_page_laptop.py), each in a fresh profile (:func:`tests.browser.crawl.crawl`).
The two visits are two test modules, each a subclass of :class:`EveryPage` naming its
size, so that they run in two test processes at once (pytest-xdist gives each process
whole modules). Each check reads what its class's one visit recorded:

- clean: no console error, no failed request, no request to another host, no policy
  violation, no unhandled rejection; every widget and app goes live;
- agrees: every widget's live headline is CPython's for the same inputs;
- layout shift: nothing moves while the widgets go live (the browser's own layout-shift
  entries sum to exactly 0, and each widget keeps its prerendered size the whole time);
- accessibility: axe-core finds no violation of any impact, in either scheme;
- fit: no page scrolls sideways at 390 and 360 px or at 1366 and 1280 px, and every
  control of a widget or app is touch-sized at 360 px;
- tables: only the first odds table of a widget starts open; with every details element
  open, no two tables overlap and none crosses its widget's edge.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from rules_core import api
from tests.browser.crawl import Crawl, crawl


class EveryPage:
    """The checks; a subclass named ``Test...`` sets :attr:`size` (a key of
    :data:`tests.browser.crawl.VIEWPORTS`)."""

    size: str

    @pytest.fixture(scope="class")
    @classmethod
    def visit(cls, browser: Browser, site) -> Crawl:  # type: ignore[no-untyped-def]
        return crawl(browser, site, cls.size)

    def test_the_crawl_visits_every_page_and_compares_every_widget(self, visit: Crawl) -> None:
        assert len(visit.pages) >= 40 and len(visit.widget_pages) >= 20
        assert {"", "sucs/roster/", "phases/tracker/", "gunplay/difficulty/"} <= set(visit.pages)
        assert visit.compared >= len(api.names()) // 2

    def test_every_page_loads_clean(self, visit: Crawl) -> None:
        assert visit.problems["clean"] == []

    def test_every_widget_shows_what_cpython_computes(self, visit: Crawl) -> None:
        assert visit.problems["agrees"] == []

    def test_no_layout_shift_while_every_widget_goes_live(self, visit: Crawl) -> None:
        assert visit.problems["layout shift"] == []

    def test_accessibility_has_no_violations(self, visit: Crawl) -> None:
        assert visit.problems["accessibility"] == []

    def test_every_page_fits_with_touch_sized_controls(self, visit: Crawl) -> None:
        assert visit.problems["fit"] == []

    def test_tables_keep_to_their_box(self, visit: Crawl) -> None:
        assert visit.problems["tables"] == []
