"""What the calculation worker's start imports: a calculator page goes live on the rules
core's interface and the renderer alone; the dice engine, the Markdown parser and every
system come with runtime.prepare (right after, before the memory snapshot) or with the
first request that needs them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).resolve().parents[2] / "calculators" / "assets" / "worker.js"


#: the worker's start-up, then what the test prints
SCRIPT = """
import sys
%s
heavy = lambda: sorted(m for m in ('icepool', 'markdown_it', 'rules_core.gunplay.calculators',
                                   'rules_core.sucs.calculators') if m in sys.modules)
print(heavy())
%s
print(heavy())
"""


#: what the worker's start does: it imports the runtime module from the bundle
START_UP = "import json\nimport calculators.runtime\nfrom rules_core import api"


def _imported(then: str) -> tuple[str, str]:
    script = SCRIPT % (START_UP, then)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out[0], out[1]


def test_the_worker_runs_no_python_source() -> None:
    """The worker calls the runtime module's functions; no Python is kept in its strings."""
    text = WORKER.read_text(encoding="utf-8")
    assert "runPython" not in text
    for name in re.findall(r'pyimport\("calculators\.runtime"\)\.(\w+)|runtime\.(\w+)\(', text):
        called = next(n for n in name if n)
        assert hasattr(__import__("calculators.runtime", fromlist=["x"]), called), called


def test_the_start_goes_live_without_the_dice_engine_or_the_markdown_parser() -> None:
    start, prepared = _imported("calculators.runtime.prepare()")
    assert start == "[]"
    assert prepared == "['icepool', 'markdown_it', 'rules_core.gunplay.calculators', 'rules_core.sucs.calculators']"


def test_a_first_request_imports_what_it_needs() -> None:
    start, answered = _imported(
        "inputs = api.spec('gunplay.hit_odds')['initial']\n"
        "request = json.dumps({'op': 'run', 'name': 'gunplay.hit_odds', 'uid': 'u', 'inputs': inputs})\n"
        "assert json.loads(calculators.runtime.handle(request))['ok']")
    assert start == "[]"
    assert "icepool" in answered and "markdown_it" in answered and "sucs" not in answered
