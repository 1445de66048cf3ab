"""What the calculation worker's start imports: a calculator page goes live on the rules
core's interface and the renderer alone; the dice engine, the Markdown parser and every
system come with runtime.prepare (right after, before the memory snapshot) or with the
first request that needs them."""

from __future__ import annotations

import subprocess
import sys

#: the worker's start-up imports (worker.js START_UP), then what the test prints
SCRIPT = """
import sys
import importlib, json, random
from rules_core import api, catalog
import calculators.render, calculators.runtime
heavy = lambda: sorted(m for m in ('icepool', 'markdown_it', 'rules_core.gunplay.calculators',
                                   'rules_core.sucs.calculators') if m in sys.modules)
print(heavy())
%s
print(heavy())
"""


def _imported(then: str) -> tuple[str, str]:
    out = subprocess.run([sys.executable, "-c", SCRIPT % then], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out[0], out[1]


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
