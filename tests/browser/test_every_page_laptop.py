"""Every page of the built site loaded once at the laptop size (1366x900, light scheme), and every
check of :class:`tests.browser.every_page.EveryPage` made on that one visit."""

import pytest

from tests.browser.every_page import EveryPage

pytestmark = pytest.mark.browser


class TestLaptop(EveryPage):
    size = "laptop"
