"""A calculator widget's state has one owner: ``calculators/assets/state.js``. The widget's
modules keep nothing on the DOM element itself (the 15 expandos they once set), so that a
result updated in place (a whole fight's sharpening answers, a comparison, an error) is
decided in one place."""
import re
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent / "calculators" / "assets"
WIDGET_MODULES = ["widget.js", "form.js", "compare.js", "handon.js", "address.js", "summary.js", "exact.js",
                  "sessionlog.js", "sharelink.js"]


def test_no_widget_module_keeps_state_on_the_element() -> None:
    found = {name: re.findall(r"\broot\._\w+", (ASSETS / name).read_text(encoding="utf-8"))
             for name in WIDGET_MODULES if (ASSETS / name).exists()}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_every_field_of_the_state_is_declared_once_in_its_class() -> None:
    source = (ASSETS / "state.js").read_text(encoding="utf-8")
    declared = re.findall(r"^    this\.(\w+) =", source, flags=re.M)
    assert len(declared) == len(set(declared)) >= 15
    used = set()
    for name in WIDGET_MODULES:
        path = ASSETS / name
        if path.exists():
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r"\bstate\(root\)\.(\w+)", text))
            used |= set(re.findall(r"\bs\.(\w+)\b", text)) & set(declared)
    assert used <= set(declared), f"fields used but not declared: {used - set(declared)}"
