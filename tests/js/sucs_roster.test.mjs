// The army builder's library and its first storage format, with the core's own data
// (python -m rules_core app sucs.roster): rosters are made in the core's format, share
// links read back, damaged text is refused in words, and the old one-key store is moved
// to one key per roster without losing a readable roster or the damaged text.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  RULES, configure, limits, blankRoster, suffixed, unusedName, encodeShare, decodeShare, textProblem, shapeProblem,
  nameInText, fileName, quickCheck, weaponsText,
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

test("a weapon's units hit are clamped to the core's form limit, not a retyped one", () => {
  const targets = DATA.spec.fields.find((/** @type {any} */ f) => f.name === "targets");
  assert.equal(RULES.max_targets, targets.max);
  const most = Array(targets.max).fill("2").join(",");
  assert.equal(weaponsText({ attack: 2, targets: targets.max + 5 }), most);
  assert.equal(weaponsText({ attack: 2, targets: 3 }), "2,2,2");
});

test("names: a suffix keeps the name within the core's limit; a name is found in damaged text", () => {
  const long = "n".repeat(RULES.max_name);
  assert.equal(suffixed(long, "(copy)").length, RULES.max_name);
  assert.equal(nameInText('{"id": "r1", "roster": {"name": "Hill \\"9\\" guard", "units": [{'), 'Hill "9" guard');
  assert.equal(fileName("Knights of Ni!"), "knights-of-ni.sucs.json");
  // a new roster's name is one no roster has yet
  assert.equal(unusedName("New army", ["My first army"]), "New army");
  assert.equal(unusedName("New army", ["New army", "New army 2", "New army 4"]), "New army 3");
  assert.equal(unusedName(long, [long]).length, RULES.max_name);
});

test("a share link reads back the roster; a cut one is refused in words", async () => {
  const roster = { ...blankRoster("Shared"), units: [{ name: "Tank", count: 2, preset: null, stats: DATA.spec.initial }] };
  const text = await encodeShare(roster);
  assert.deepEqual(JSON.parse(await decodeShare(text)), roster);
  await assert.rejects(decodeShare(text.slice(0, -4)), /cut off or damaged/);
});

test("a share link that unpacks past one roster's size is refused before it is read", async () => {
  const largest = { ...blankRoster("Big"), units: [], note: "x".repeat(RULES.max_roster_chars * 4 - 200) };
  assert.ok((await decodeShare(await encodeShare(largest))).length > RULES.max_roster_chars);
  const bomb = await encodeShare({ ...largest, note: "x".repeat(RULES.max_roster_chars * 4 + 1) });
  assert.ok(bomb.length < 2_000, "a packed link this small...");
  await assert.rejects(decodeShare(bomb), /far more than a link of this site carries/);
  assert.equal(RULES.max_roster_chars * RULES.max_rosters, RULES.max_file_chars);
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
  const out = migrateLegacy(/** @type {any} */ (area), kept, "entry:", "active", "moved", limits());
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

test("before the engine starts, a roster's totals and legality are the core's, or 'waiting' for a custom unit", () => {
  const presets = new Map(DATA.presets.map((/** @type {any} */ p) => [p.id, p]));
  // rosters of published units (some with their commander, some over their limit) and the
  // core's check of each (legality.check), made by the core itself
  const script = `
import json, random
from rules_core import api
from rules_core.sucs.calc_tech_levels import preset_json
from rules_core.sucs.presets import by_id
rng = random.Random(7)
ids = sorted(by_id())
out = []
for n in range(300):
    units = [dict(preset_json(by_id()[rng.choice(ids)]), count=rng.randint(1, 5)) for _ in range(rng.randint(0, 6))]
    for u in units: u.pop("list", None)
    r = {"format": "sucs-roster", "version": 1, "name": f"R{n}", "points_limit": rng.choice([0, 50, 100, 300, 100000]),
         "units": [{"name": u["name"], "count": u["count"], "preset": u["id"], "stats": u["stats"]} for u in units]}
    reply = api.run("sucs.roster_check", {"roster": r})
    out.append([r, {k: reply["result"][k] for k in ("total", "remaining", "over_limit", "legal")}])
print(json.dumps(out))`;
  const cases = JSON.parse(execFileSync(process.env.PYTHON || ".venv/bin/python", ["-c", script], { encoding: "utf8", maxBuffer: 1 << 28 }));
  let legal = 0;
  for (const [roster, core] of cases) {
    const quick = quickCheck(roster, presets);
    assert.deepEqual({ total: quick.total, remaining: quick.remaining, over_limit: quick.over_limit, legal: quick.legal }, core, roster.name);
    legal += core.legal ? 1 : 0;
  }
  assert.ok(legal > 10 && legal < cases.length - 10, `${legal} legal of ${cases.length}: both kinds tested`);
  // a custom unit, or a published one edited: the core is needed
  const custom = { ...blankRoster("Mixed"), units: [{ ...cases[5][0].units[0] }, { name: "Own", count: 1, preset: null, stats: DATA.spec.initial }] };
  const waiting = quickCheck(custom, presets);
  assert.equal(waiting.total, null);
  assert.equal(waiting.legal, null);
  assert.equal(waiting.units[1], null);
  const edited = { ...custom, units: [{ ...custom.units[0], stats: { ...custom.units[0].stats, armor: 7 } }] };
  assert.equal(quickCheck(edited, presets).total, null);
  // over the limit on the known costs alone: not legal, whatever the custom unit costs
  const over = { ...custom, points_limit: 1, units: [{ ...custom.units[0], count: 5 }, custom.units[1]] };
  assert.equal(quickCheck(over, presets).legal, false);
  assert.equal(quickCheck(over, presets).over_limit, true);
});
