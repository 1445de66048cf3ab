// The storage kit: JSON is parsed only once it is known to be small and shallow; damaged
// data is kept aside under its own key, and never written over when there is no room.
import test from "node:test";
import assert from "node:assert/strict";
import { jsonDepth, guardedParse, KeptCopies } from "../../calculators/assets/apps/storage_kit.js";
import { MemoryStorage } from "./core_data.mjs";

test("depth is read without recursion, strings and escapes skipped", () => {
  assert.equal(jsonDepth('{"a": [1, {"b": "[[[{"}]}'), 3);
  assert.equal(jsonDepth('"\\"[[["'), 0);
  assert.equal(jsonDepth("[".repeat(100_000)), 100_000);
  assert.equal(jsonDepth("[".repeat(100_000), 5), 6);
});

test("guardedParse refuses what is too long, too deep or damaged, each in words", () => {
  const limits = { maxChars: 50, maxDepth: 3 };
  assert.deepEqual(guardedParse('{"a": [1, 2]}', limits), { ok: true, value: { a: [1, 2] } });
  assert.match(guardedParse("x".repeat(51), limits).reason, /51 characters long, more than the 50/);
  assert.match(guardedParse("[[[[1]]]]", limits).reason, /nested more than 3 levels/);
  assert.match(guardedParse('{"a": ', limits).reason, /not valid JSON/);
  assert.match(guardedParse(7, limits).reason, /not text/);
  const parsed = guardedParse('{"__proto__": {"polluted": 1}}', limits);
  assert.ok(parsed.ok && !Object.prototype.hasOwnProperty.call(parsed.value, "__proto__"));
  assert.equal(/** @type {any} */ ({}).polluted, undefined);
});

test("kept copies: a move keeps the copy before removing the original, and does nothing when full", () => {
  const area = new MemoryStorage(120);
  area.setItem("roster", "x".repeat(40));
  const kept = new KeptCopies(/** @type {any} */ (area), "kept:");
  assert.equal(kept.move("roster", "x".repeat(40)), true);
  assert.equal(area.getItem("roster"), null);
  assert.deepEqual(kept.keys().map((k) => kept.text(k)), ["x".repeat(40)]);
  area.setItem("roster", "y".repeat(40));
  assert.equal(kept.move("roster", "y".repeat(40)), false, "no room for a second copy");
  assert.equal(area.getItem("roster"), "y".repeat(40), "so the original stays");
  kept.drop(kept.keys()[0]);
  assert.deepEqual(kept.keys(), []);
});
