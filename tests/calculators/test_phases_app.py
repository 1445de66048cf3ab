"""The 2d6 combat phases pages: the tracker app block and the rules tables render."""

from __future__ import annotations

import markdown

from calculators import fence

MD = markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={
    "pymdownx.superfences": {"custom_fences": [
        {"name": "app", "class": "app", "format": fence.format_app},
        {"name": "rules-table", "class": "rules-table", "format": fence.format_rules_table},
    ]}})


def render(text: str) -> str:
    MD.reset()
    return MD.convert(text)


def test_tracker_app_block() -> None:
    html = render("```app\nphases.tracker\n```")
    assert 'data-app="phases_tracker"' in html and 'data-status="prerendered"' in html
    assert 'class="calc-status" role="status" aria-live="polite"' in html
    assert 'class="pt-left">5<' in html  # prerendered by the core: a fresh 5-dice phase
    for action in ("start", "roll", "enter", "undo", "end-phase", "new"):
        assert f'data-pt="{action}"' in html


def test_rules_tables_come_from_the_core() -> None:
    html = render("```rules-table\nphases.outcome_odds\n```")
    assert "41.7% (5/12)" in html and "2.8% (1/36)" in html and "0.5% (1/216)" in html
    threat = render("```rules-table\nphases.threat_levels\n```")
    assert threat.count("<tr>") == 6  # header + one row per level, 3 dice once
