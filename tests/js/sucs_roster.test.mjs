// The army builder's library and its first storage format, with the core's own data
// (python -m rules_core app sucs.roster): rosters are made in the core's format, share
// links read back, damaged text is refused in words, and the old one-key store is moved
// to one key per roster without losing a readable roster or the damaged text.
import test from "node:test";
import assert from "node:assert/strict";
import {
  RULES, configure, limits, blankRoster, suffixed, encodeShare, decodeShare, textProblem, shapeProblem,
  nameInText, presetCost, fileName,
} from "../../calculators/assets/apps/sucs_roster_lib.js";
import { analyzeLegacy, migrateLegacy, LEGACY_KEY } from "../../calculators/assets/apps/sucs_roster_legacy.js";
import { KeptCopies } from "../../calculators/assets/apps/storage_kit.js";
import { appData, MemoryStorage } from "./core_data.mjs";

const DATA = appData("sucs.roster");
configure(DATA.rules);

test("a new roster is in the core's format, and the starter is the core's", () => {
  assert.deepEqual(blankRoster("Reserves"), { ...DATA.first, name: "Reserves" });
  assert.equal(RULES.format, "sucs-roster");
});

test("a published unit's cost is the core's total, for every unit", () => {
  for (const preset of DATA.presets) assert.equal(presetCost(preset), preset.total_cost);
});

test("names: a suffix keeps the name within the core's limit; a name is found in damaged text", () => {
  const long = "n".repeat(RULES.max_name);
  assert.equal(suffixed(long, "(copy)").length, RULES.max_name);
  assert.equal(nameInText('{"id": "r1", "roster": {"name": "Hill \\"9\\" guard", "units": [{'), 'Hill "9" guard');
  assert.equal(fileName("Knights of Ni!"), "knights-of-ni.sucs.json");
});

test("a share link reads back the roster; a cut one is refused in words", async () => {
  const roster = { ...blankRoster("Shared"), units: [{ name: "Tank", count: 2, preset: null, stats: DATA.spec.initial }] };
  const text = await encodeShare(roster);
  assert.deepEqual(JSON.parse(await decodeShare(text)), roster);
  await assert.rejects(decodeShare(text.slice(0, -4)), /cut off or damaged/);
});

test("received text past the core's size or depth is refused before it is parsed", () => {
  assert.equal(textProblem(JSON.stringify(blankRoster("ok"))), "");
  assert.match(textProblem("[".repeat(RULES.max_depth + 1)), /nested more than/);
  assert.match(textProblem(" ".repeat(RULES.max_file_chars + 1)), /characters long/);
});

test("shape: what cannot be shown is named", () => {
  const lim = limits();
  assert.equal(shapeProblem(blankRoster("ok"), lim), null);
  assert.match(String(shapeProblem({ ...blankRoster("x"), points_limit: 1.5 }, lim)), /points limit/);
  assert.match(String(shapeProblem({ ...blankRoster("x"), units: [{ name: 3 }] }, lim)), /unit 1 is damaged/);
});

test("the old one-key store moves to one key per roster; damaged text is kept aside", () => {
  const good = { id: "a1", rev: 2, roster: blankRoster("Good army") };
  const broken = { id: "b2", rev: 1, roster: { name: "Broken army", units: "nope" } };
  const store = JSON.stringify({ schema: "sucs-roster-store", version: 1, active: "a1", rosters: [good, broken] });
  const read = analyzeLegacy(store, limits());
  assert.deepEqual(read.entries.map((e) => e.id), ["a1"]);
  assert.match(read.bad[0].label, /Broken army/);
  const area = new MemoryStorage();
  area.setItem(LEGACY_KEY, store);
  const kept = new KeptCopies(/** @type {any} */ (area), "kept:");
  const out = migrateLegacy(/** @type {any} */ (area), kept, "entry:", "active", limits());
  assert.equal(out.error, null);
  assert.deepEqual(JSON.parse(area.getItem("entry:a1")).roster, good.roster);
  assert.equal(area.getItem("active"), "a1");
  assert.equal(area.getItem(LEGACY_KEY), null);
  assert.deepEqual(kept.keys().map((k) => kept.text(k)), [store], "the damaged store is kept whole");
});

test("text cut in the middle of the old store still gives back every whole roster", () => {
  const rosters = [1, 2, 3].map((i) => ({ id: `r${i}`, rev: 0, roster: blankRoster(`Army ${i}`) }));
  const text = JSON.stringify({ schema: "sucs-roster-store", version: 1, rosters });
  const cut = text.slice(0, text.lastIndexOf('"Army 3"') + 4);
  const read = analyzeLegacy(cut, limits());
  assert.deepEqual(read.entries.map((e) => e.roster.name), ["Army 1", "Army 2"]);
  assert.match(read.whole, /damaged/);
});
