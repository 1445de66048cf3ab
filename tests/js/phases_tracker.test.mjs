// The tracker's saved fight: one text for saving, exporting and keeping aside, in the
// core's format version (never a version retyped in the page's script).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { FightStore, readFight } from "../../calculators/assets/apps/phases_tracker_store.js";
import { appData } from "./core_data.mjs";

const core = appData("phases.tracker");
const step = (/** @type {number} */ n) => ({
  state: Object.fromEntries(core.state_keys.map((k) => [k, n])), view: {}, text: `step ${n}`,
  round: 1, phase: "offense",
});

test("the fight's text carries the core's version and reads back whole", () => {
  const store = new FightStore(core);
  const history = [step(1), step(2)];
  const text = store.text(history);
  assert.equal(JSON.parse(text).version, core.version);
  const read = readFight(text, core);
  assert.deepEqual(read.problems, []);
  assert.equal(read.history.length, 2);
  assert.equal(store.text(history, 2), JSON.stringify(JSON.parse(text), null, 2));
  // a later format version is the core's to declare: the text follows it
  assert.equal(JSON.parse(new FightStore({ ...core, version: core.version + 1 }).text(history)).version,
    core.version + 1);
});

test("the tracker's page script writes no format version of its own", () => {
  const source = readFileSync(new URL("../../calculators/assets/apps/phases_tracker.js", import.meta.url), "utf8");
  assert.doesNotMatch(source, /version\s*:/);
});
