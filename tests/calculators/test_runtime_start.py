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


def worker_python(name: str) -> str:
    """The Python the worker runs as its constant ``name`` (a string, or an array of
    lines joined), read from worker.js itself so that this test follows the worker."""
    value = re.search(rf"^const {name} = (.*?);$", WORKER.read_text(encoding="utf-8"), re.S | re.M)
    assert value, name
    lines = re.findall(r'"([^"]*)"', value.group(1).split("].join(")[0])
    return "\n".join(lines)


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


def _imported(then: str) -> tuple[str, str]:
    script = SCRIPT % (worker_python("START_UP"), then)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out[0], out[1]


def test_the_start_goes_live_without_the_dice_engine_or_the_markdown_parser() -> None:
    assert "import calculators.render, calculators.runtime" in worker_python("START_UP")
    start, prepared = _imported(worker_python("BEFORE_SNAPSHOT"))
    assert start == "[]"
    assert prepared == "['icepool', 'markdown_it', 'rules_core.gunplay.calculators', 'rules_core.sucs.calculators']"


def test_a_first_request_imports_what_it_needs() -> None:
    start, answered = _imported(
        "inputs = api.spec('gunplay.hit_odds')['initial']\n"
        "request = json.dumps({'op': 'run', 'name': 'gunplay.hit_odds', 'uid': 'u', 'inputs': inputs})\n"
        "assert json.loads(calculators.runtime.handle(request))['ok']")
    assert start == "[]"
    assert "icepool" in answered and "markdown_it" in answered and "sucs" not in answered
