"""The Markdown extension: a short block becomes a widget with its prerendered result."""

from __future__ import annotations

import markdown
import pytest

from calculators.fence import FenceError, parse_block
from calculators.layout import (
    BUNDLE_PLACEHOLDER,
    PYODIDE_PLACEHOLDER,
    ROOT_PLACEHOLDER,
    RUNTIME_BYTES_PLACEHOLDER,
)
from calculators.render import markdown as render_markdown
from rules_core import api


def md() -> markdown.Markdown:
    return markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={
        "pymdownx.superfences": {"custom_fences": [
            {"name": "calculator", "class": "calculator",
             "format": __import__("calculators.fence", fromlist=["x"]).format_calculator},
            {"name": "rules-table", "class": "rules-table",
             "format": __import__("calculators.fence", fromlist=["x"]).format_rules_table},
        ]}})


def test_block_renders_widget_with_prerendered_result() -> None:
    html = md().convert("```calculator\ngunplay.difficulty\n```\n")
    assert 'data-calculator="gunplay.difficulty"' in html
    assert 'data-status="prerendered"' in html
    assert 'id="calc-difficulty"' in html
    assert "<dt>Difficulty</dt><dd>14</dd>" in html  # the source example's inputs, DC 14
    assert '<select id="calc-difficulty-size" name="size"' in html
    assert '<option value="small" selected>Small</option>' in html
    assert 'for="calc-difficulty-distance_m"' in html
    assert f'href="{ROOT_PLACEHOLDER}gunplay/difficulty/#size-and-range"' in html
    # the runtime is named by placeholders the post-build step fills
    assert f'data-bundle="{BUNDLE_PLACEHOLDER}"' in html and f'data-pyodide="{PYODIDE_PLACEHOLDER}"' in html


def test_a_page_renders_with_neither_node_nor_the_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fences name the runtime by placeholders: rendering a widget and an app asks
    nothing of the Python bundle (built by Node) nor of the installed Pyodide."""
    from calculators import bundle

    def refused() -> None:
        raise AssertionError("rendering a page asked for the runtime")

    for name in ("bundle", "pyodide_version", "runtime_bytes", "snapshot"):
        monkeypatch.setattr(bundle, name, refused)
    from calculators.fence import format_app

    html = md().convert("```calculator\ngunplay.difficulty\n```\n")
    html += format_app("phases.tracker", "app", "app", {}, None)
    assert html.count(f'data-runtime-bytes="{RUNTIME_BYTES_PLACEHOLDER}"') == 2


def test_block_options_set_starting_inputs_and_ids() -> None:
    text = ("```calculator\ngunplay.hit_odds\nrounds: 5\nrecoil: 1\ntitle: A five-round burst\n```\n\n"
            "```calculator\ngunplay.hit_odds\n```\n")
    html = md().convert(text)
    assert 'id="calc-hit-odds"' in html and 'id="calc-hit-odds-2"' in html
    assert 'name="rounds" inputmode="numeric" min="1" max="100" step="1" value="5"' in html
    # the second widget of a calculator has a title of its own: its landmarks (the form,
    # the rolls) are told apart by name in a screen reader's list
    first, second = html.split('id="calc-hit-odds-2"')
    assert "</span> A five-round burst</p>" in first and 'aria-label="A five-round burst: inputs"' in first
    assert 'aria-label="A five-round burst: dice rolls"' in first
    assert 'aria-label="Hit odds for a shot or a burst: inputs"' in second


def test_two_widgets_of_one_name_on_a_page_fail_the_build() -> None:
    with pytest.raises(FenceError, match="title: ..."):
        md().convert("```calculator\ngunplay.hit_odds\n```\n\n```calculator\ngunplay.hit_odds\nrounds: 3\n```\n")


def test_hidden_fields_follow_their_condition() -> None:
    html = md().convert("```calculator\ngunplay.difficulty\nband: far\n```\n")
    assert 'data-field="distance_m"' in html
    field = html.split('data-field="distance_m"')[1].split(">")[0]
    assert "hidden" in field


@pytest.mark.parametrize("block,message", [
    ("```calculator\nno.such\n```\n", "unknown calculator"),
    ("```calculator\ngunplay.difficulty\nsize: enormous\n```\n", "starting input size"),
    ("```calculator\ngunplay.difficulty\njust words\n```\n", "field: value"),
    ("```rules-table\nno.table\n```\n", "unknown rules table"),
])
def test_mistakes_in_a_page_fail_the_build(block: str, message: str) -> None:
    with pytest.raises(FenceError, match=message):
        md().convert(block)


def test_parse_block() -> None:
    assert parse_block("gunplay.hit_odds\nrounds: 3\nid: burst\nnote: plain text") == (
        "gunplay.hit_odds", "burst", {"rounds": 3, "note": "plain text"})


def test_rules_table_is_generated_from_core_data() -> None:
    html = md().convert("```rules-table\ngunplay.size_range\n```\n")
    assert '<th scope="row">Tiny</th><td>+3</td><td>+6</td><td>+12</td><td>+18</td>' in html
    assert '<th scope="row">Huge</th><td>-18</td><td>-12</td><td>-6</td><td>-3</td>' in html


def test_explanation_markdown_is_safe_and_links_point_at_the_root() -> None:
    html = render_markdown("[a](/gunplay/x/#y) <script>alert(1)</script> [b](javascript:alert(1))",
                           "../../")
    assert 'href="../../gunplay/x/#y"' in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript:' not in html


def test_hand_on_and_roster_feeding_are_what_the_calculators_declare() -> None:
    """The fence wires no calculator by name: what hands a value on, and what feeds the
    army builder, is declared on each Calculator; every declared target is a calculator
    with the field it fills, and the value is in the giver's result."""
    from calculators.fence import ADDS_TO_ROSTER, HAND_ON
    from rules_core.catalog import calculators

    declared = {name: calc.hand_on for name, calc in calculators().items() if calc.hand_on}
    assert HAND_ON == declared and declared
    for name, given in declared.items():
        result = api.run(name, api.spec(name)["initial"])["result"]
        # "@inputs": the giver's own inputs (a whole fight handed to its balance search)
        assert given.key == "@inputs" or given.key in result
        for target, field in given.targets:
            fields = [f["name"] for f in api.spec(target)["fields"]]
            if field == "*":  # every field of an object of the target's inputs
                assert set(result[given.key]) <= set(fields), (name, target)
            else:
                assert field in fields, (name, target)
    assert ADDS_TO_ROSTER == {n for n, c in calculators().items() if c.adds_to_roster} != set()
