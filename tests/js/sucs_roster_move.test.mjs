// The old one-key store moved whatever its size (issue 46, item 2), in a storage area with
// a browser's quota: 70 rosters of 100 published units (3.2 M characters, more than half
// the quota) move whole; a roster deleted after the move never comes back; with no room,
// what could not move is named, stays in the old key, and moves at a later try.
import test from "node:test";
import assert from "node:assert/strict";
import { configure, limits } from "../../calculators/assets/apps/sucs_roster_lib.js";
import { migrateLegacy, LEGACY_KEY } from "../../calculators/assets/apps/sucs_roster_legacy.js";
import { KeptCopies } from "../../calculators/assets/apps/storage_kit.js";
import { appData, MemoryStorage } from "./core_data.mjs";

const DATA = appData("sucs.roster");
configure(DATA.rules);

/** An old store of `count` rosters, each of 100 lines of published units. @param {number} count */
function oldStore(count) {
  const presets = DATA.presets;
  const rosters = Array.from({ length: count }, (_, i) => ({
    id: `old${i}`, rev: 1,
    roster: { format: "sucs-roster", version: 1, name: `Army ${i}`, points_limit: 5000,
      units: Array.from({ length: 100 }, (__, k) => {
        const p = presets[(i + k) % presets.length];
        return { name: p.name, count: 1 + (k % 3), preset: p.id, stats: p.stats };
      }) },
  }));
  return JSON.stringify({ schema: "sucs-roster-store", version: 1, active: "old0", rosters });
}

/** @param {MemoryStorage} area */
const move = (area) => migrateLegacy(/** @type {any} */ (area), new KeptCopies(/** @type {any} */ (area), "kept:"),
  "entry:", "active", "moved", limits());

/** @param {MemoryStorage} area */
const movedNames = (area) => [...area.map.keys()].filter((k) => k.startsWith("entry:"))
  .map((k) => JSON.parse(area.getItem(k)).roster.name);

test("an old store of 3.2 M characters moves whole within a browser's quota, and a deleted roster stays deleted", () => {
  const raw = oldStore(70);
  assert.ok(raw.length > 3_000_000 && raw.length < DATA.rules.storage_chars, String(raw.length));
  const area = new MemoryStorage(DATA.rules.storage_chars);
  area.setItem(LEGACY_KEY, raw);
  const out = move(area);
  assert.deepEqual(out.unmoved, []);
  assert.equal(out.error, null);
  assert.equal(out.total, 70);
  assert.equal(movedNames(area).length, 70);
  assert.equal(area.getItem(LEGACY_KEY), null, "the old key is gone once empty");
  assert.equal(area.getItem("active"), "old0");
  // ten deleted: the next visit moves nothing back
  for (let i = 0; i < 10; i += 1) area.removeItem(`entry:old${i}`);
  move(area);
  assert.equal(movedNames(area).length, 60);
});

test("with no room for a roster, every one is named, the old key is untouched, and all move once there is room", () => {
  const raw = oldStore(70);
  const area = new MemoryStorage(raw.length + 1_000_000);
  area.setItem(LEGACY_KEY, raw);
  area.setItem("other", "x".repeat(990_000)); // other saved data of the site: 10 k characters left
  const out = move(area);
  assert.equal(out.error, "full");
  assert.equal(out.unmoved.length, 70);
  assert.equal(out.unmoved[69], "Army 69");
  assert.deepEqual(movedNames(area), []);
  assert.equal(area.getItem(LEGACY_KEY), raw, "untouched");
  area.removeItem("other");
  const again = move(area);
  assert.deepEqual(again.unmoved, []);
  assert.equal(movedNames(area).length, 70);
  assert.equal(area.getItem(LEGACY_KEY), null);
});

test("a damaged old store left in place never brings back a roster deleted after its move", () => {
  const good = [1, 2, 3].map((i) => ({ id: `g${i}`, rev: 0, roster: { format: "sucs-roster", version: 1, name: `Good ${i}`, points_limit: 0, units: [] } }));
  const raw = JSON.stringify({ schema: "sucs-roster-store", version: 1, rosters: [...good, { id: "bad", roster: { name: "Bad" } }] });
  // room for the three rosters but not for a copy of the whole damaged store
  const area = new MemoryStorage(raw.length + 3 * 200 + 20);
  area.setItem(LEGACY_KEY, raw);
  const first = move(area);
  assert.equal(first.stuck, LEGACY_KEY);
  assert.deepEqual(movedNames(area).sort(), ["Good 1", "Good 2", "Good 3"]);
  area.removeItem("entry:g2");
  move(area);
  assert.deepEqual(movedNames(area).sort(), ["Good 1", "Good 3"]);
});

test("a move cut short at an earlier visit leaves in the old key only what is not under its own key", () => {
  const raw = oldStore(3);
  const first = JSON.parse(raw).rosters[0];
  const area = new MemoryStorage(raw.length + 60_000);
  area.setItem(LEGACY_KEY, raw);
  area.setItem("entry:old0", JSON.stringify({ id: "old0", rev: 1, order: 0, roster: first.roster }));
  area.setItem("other", "x".repeat(60_000 - JSON.stringify(first).length - 40)); // no room for another
  const out = move(area);
  assert.ok(out.unmoved.length >= 1 && !out.unmoved.includes("Army 0"), String(out.unmoved));
  const left = JSON.parse(/** @type {string} */ (area.getItem(LEGACY_KEY))).rosters;
  assert.deepEqual(left.map((/** @type {any} */ r) => r.roster.name), out.unmoved, "the old key holds only what did not move");
  assert.ok(left.every((/** @type {any} */ r) => r.order === Number(r.id.slice(3))), "each keeps its place");
  area.removeItem("other");
  assert.deepEqual(move(area).unmoved, []);
  assert.deepEqual(movedNames(area).sort(), ["Army 0", "Army 1", "Army 2"]);
  assert.deepEqual([1, 2].map((i) => JSON.parse(area.getItem(`entry:old${i}`)).order), [1, 2], "each keeps its place");
});
