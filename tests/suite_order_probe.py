"""A pytest plugin for test_suite_order: prints pytest-xdist's module reordering setting as
the suite's configuration leaves it."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    print(f"loadscopereorder={getattr(config.option, 'loadscopereorder', None)}")
