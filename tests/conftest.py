"""Shared fixtures: the site built once per test session (MkDocs, and Zensical for the
tests that ask for it) and served on localhost."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from calculators import serve

# No property test is timed: a deadline or a "too slow" health check fails on a busy
# machine (CI shares its cores), never because the rules are wrong.
settings.register_profile("project", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuiltSite:
    dir: Path
    url: str  # ends with "/"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_site(generator: str, out: Path, url: str, assets: Path | None = None) -> None:
    """Build the whole site with ``generator`` for ``url`` into ``out`` (the same command
    as ``make site``: the generator, then the post-build step that checks the result)."""
    from calculators.generate import generate
    from calculators.layout import BuildError

    try:
        generate(generator, out, url, *([assets] if assets else []))
    except BuildError as err:
        pytest.fail(f"building the site with {generator} failed:\n{err}")


@contextmanager
def served(directory: Path, port: int, handler: type[serve.SiteHandler] | None = None) -> Iterator[None]:
    """``directory`` served on ``port`` (by ``handler``, else quietly) while inside."""
    server = serve.server(str(directory), port, quiet=True, handler=handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def _built_site(generator: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    out = tmp_path_factory.mktemp(f"site-{generator}")
    build_site(generator, out, url)
    with served(out, port):
        yield BuiltSite(out, url)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The whole site, built (``mkdocs build --strict``, or the generator named by
    ``TCR_GENERATOR``) and finished by the post-build step, served on 127.0.0.1."""
    yield from _built_site(os.environ.get("TCR_GENERATOR") or "mkdocs", tmp_path_factory)


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The same site built with Zensical (``zensical build --strict``) and finished by
    the same post-build step."""
    yield from _built_site("zensical", tmp_path_factory)


#: The test modules that take longest, slowest first (a quiet run's durations). pytest-xdist's
#: ``--dist loadfile`` runs a module whole on one worker, and by default hands modules out by
#: their number of tests, most first: these (a few long tests each: the crawls, the other
#: engines, the deploys) came last, and one worker ran the last of them alone while the
#: other had nothing left. They now go first, the rest after them in their usual order. A
#: module missing here costs time only; test_suite_order checks that each still exists.
LONGEST_FIRST = (
    "tests/crossbrowser/test_smoke.py",
    "tests/browser/test_every_page_laptop.py",
    "tests/browser/test_every_page_phone.py",
    "tests/browser/test_zensical.py",
    "tests/browser/test_deploy.py",
    "tests/browser/test_table_tools.py",
    "tests/site/test_serve.py",
    "tests/rules_core/test_sucs_engagement_budget.py",
    "tests/site/test_build_step.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Modules in the order of their collection (LONGEST_FIRST), not by number of tests."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of LONGEST_FIRST first, in its order; every module's tests stay together
    and in their own order (a stable sort)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}

    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    items.sort(key=lambda item: rank.get(module(item), len(rank)))


def _fuzz_stats() -> dict | None:
    """The fuzz test's inputs and slowest call per calculator, if its module is loaded."""
    try:
        from tests.rules_core.test_fuzz import FUZZ_STATS
    except Exception:  # noqa: BLE001 - the fuzz module cannot be imported here
        return None
    return FUZZ_STATS


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a test worker (pytest-xdist), hand the fuzz figures to the main process."""
    output = getattr(session.config, "workeroutput", None)
    stats = _fuzz_stats()
    if output is not None and stats:
        output["fuzz_stats"] = {name: dict(s) for name, s in stats.items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    """The main process adds up the fuzz figures of each worker as it finishes."""
    stats = _fuzz_stats()
    for name, theirs in getattr(node, "workeroutput", {}).get("fuzz_stats", {}).items():
        if stats is not None:
            stats[name]["inputs"] += theirs["inputs"]
            stats[name]["slowest_ms"] = max(stats[name]["slowest_ms"], theirs["slowest_ms"])


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    """Print how many inputs the fuzz test tried per calculator, and the slowest call."""
    stats = _fuzz_stats()
    if not stats:
        return
    terminalreporter.section("fuzzed inputs per calculator")
    total = 0
    for name, figures in sorted(stats.items()):
        total += int(figures["inputs"])
        terminalreporter.write_line(
            f"{name:32} {int(figures['inputs']):5d} inputs   slowest {figures['slowest_ms']:8.1f} ms")
    terminalreporter.write_line(f"{'total':32} {total:5d} inputs")
