"""Every page of the built site loaded once at the phone size (390x844, dark scheme), and every
check of tests/browser/every_page.py made on that one visit."""

from __future__ import annotations

import pytest

from tests.browser.every_page import (  # noqa: F401 (collected here)
    test_accessibility_has_no_violations,
    test_every_page_fits_with_touch_sized_controls,
    test_every_page_loads_clean,
    test_every_widget_shows_what_cpython_computes,
    test_no_layout_shift_while_every_widget_goes_live,
    test_tables_keep_to_their_box,
    test_the_crawl_visits_every_page_and_compares_every_widget,
    visit_at,
)

pytestmark = pytest.mark.browser

visit = visit_at("phone")
