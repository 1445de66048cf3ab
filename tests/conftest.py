"""Shared fixtures: the site built once per test session and served on localhost."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from calculators import serve

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuiltSite:
    dir: Path
    url: str  # ends with "/"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The whole site, built with ``mkdocs build --strict`` and served on 127.0.0.1."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "SITE_URL": url, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")
    server = serve.server(str(out), port, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield BuiltSite(out, url)
    server.shutdown()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    """Print how many inputs the fuzz test tried per calculator, and the slowest call."""
    try:
        from tests.rules_core.test_fuzz import FUZZ_STATS
    except Exception:  # noqa: BLE001 - the fuzz module was not collected
        return
    if not FUZZ_STATS:
        return
    terminalreporter.section("fuzzed inputs per calculator")
    total = 0
    for name, stats in sorted(FUZZ_STATS.items()):
        total += int(stats["inputs"])
        terminalreporter.write_line(
            f"{name:32} {int(stats['inputs']):5d} inputs   slowest {stats['slowest_ms']:8.1f} ms")
    terminalreporter.write_line(f"{'total':32} {total:5d} inputs")
