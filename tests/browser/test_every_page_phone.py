"""Every page of the built site loaded once at the phone size (390x844, dark scheme), and every
check of :class:`tests.browser.every_page.EveryPage` made on that one visit."""

import pytest

from tests.browser.every_page import EveryPage

pytestmark = pytest.mark.browser


class TestPhone(EveryPage):
    size = "phone"
