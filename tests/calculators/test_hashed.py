"""The post-build step's reference finder: what it follows and what it leaves alone."""

from __future__ import annotations

from calculators import hashed


def test_imports_are_followed_but_jsdoc_types_are_not() -> None:
    text = '''// @ts-check
import { a } from "./a.js";
/** @param {import("./types.js").Thing} t @returns {import( "./more.js" ) . Other} */
const url = "https://example.org/x.js";
const worker = new URL("worker.js", import.meta.url);
const later = () => import("./lazy.js");
const soon = import("./promised.js").then((module) => module.go());
const never = import("./caught.js") . catch(() => null);
'''
    found = sorted(target for _, _, target in hashed.references("apps/main.js", text))
    assert found == ["apps/a.js", "apps/caught.js", "apps/lazy.js", "apps/promised.js", "apps/worker.js"]


def test_the_apps_modules_hash_without_a_cycle(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The real assets: type-only imports between the roster's store and its helpers
    (JSDoc) must not read as an import cycle."""
    done = hashed.hash_assets(hashed_source())
    assert any(name.startswith("apps/sucs_roster_store.") for name, _ in done.values())


def hashed_source():  # type: ignore[no-untyped-def]
    from calculators.layout import ASSETS_SOURCE

    return ASSETS_SOURCE
