// Calculators' inputs in the page address (sharelink.js): what is written reads back;
// a sealed address cut at any point, even exactly between two parameters, reads as cut;
// a link from before the seal is read as it stands; two ten-unit rosters fit well within
// 2,000 characters, packed as one stream in the roster links' encoding.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  PACK_OVER, addressPairs, addressValues, crc32, pack, readQuery, sealQuery, unpack,
} from "../../calculators/assets/sharelink.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.PYTHON || `${ROOT}.venv/bin/python`;
const ORIGIN = "https://example.github.io/tabletop-combat-rules/sucs/roster/";

/** Two rosters of ten different published units each, as the core normalizes them (the
 *  army builder's "Fight this roster" puts such rosters in the battle's fields). */
function tenUnitRosters() {
  const script = `
import json
from rules_core import api
from rules_core.sucs import roster
presets = api.app_data("sucs.roster")["presets"]
def army(name, start):
    units = [{"name": p["name"].title(), "count": 1, "preset": p["id"], "stats": p["stats"]}
             for p in presets[start:start + 10]]
    return roster.normalize_roster({"format": "sucs-roster", "version": 1, "name": name,
                                    "points_limit": 500, "units": units})[0]
print(json.dumps([army("Red platoon", 20), army("Blue company", 35)]))`;
  return JSON.parse(execFileSync(PYTHON, ["-c", script], { cwd: ROOT, encoding: "utf8" }));
}

/** The battle's inputs as the widget collects them. @returns {[string, string][]} */
function battleInputs(a, b) {
  return [["roster_a", JSON.stringify(a)], ["roster_b", JSON.stringify(b)], ["a_cover", "0"], ["b_cover", "1"],
    ["turns", "6"], ["targeting", "likeliest"], ["no_commander", "organized"]];
}

test("CRC-32 is zlib's", () => {
  assert.equal(crc32(""), "00000000");
  assert.equal(crc32("123456789"), "cbf43926");
  assert.equal(crc32("é"), execFileSync(PYTHON, ["-c", "import zlib;print(f'{zlib.crc32(\"é\".encode()):08x}')"],
    { encoding: "utf8" }).trim());
});

test("a sealed address reads back whole, foreign parameters kept apart", () => {
  const pairs = [["hit-odds.dc", "14"], ["hit-odds.mod", "-2"], ["setup-a.hit-odds", '{"dc":12}']];
  const query = sealQuery([["add", "tl0-2/infantry"]], /** @type {any} */ (pairs));
  assert.match(query, /^\?add=tl0-2%2Finfantry&v=2&hit-odds\.dc=14&.*&end=[0-9a-f]{8}$/);
  const read = readQuery(query);
  assert.equal(read.state, "whole");
  assert.deepEqual(read.pairs, pairs);
  assert.deepEqual(read.foreign, [["add", "tl0-2/infantry"]]);
  // re-encoded by another serializer ('+' for a space, a parameter added after the end)
  const spaced = sealQuery([], [["cost.name", "Light tank"]]);
  assert.equal(readQuery(spaced.replace("+", "%20") + "&utm_source=chat").state, "whole");
  assert.equal(readQuery("").state, "none");
  assert.equal(readQuery("?add=x").state, "none");
  assert.equal(sealQuery([], []), "");
});

test("a sealed address cut at any point, between parameters included, reads as cut", () => {
  const query = sealQuery([], [["a.one", "1"], ["a.two", "two words"], ["b.three", "3"]]);
  // (cut just after the "?", nothing of it is left: the page's own address, read as such)
  assert.equal(readQuery("?").state, "none");
  for (let keep = 2; keep < query.length; keep += 1) {
    const cut = query.slice(0, keep);
    assert.equal(readQuery(cut).state, "cut", `cut after ${keep}: ${cut}`);
  }
  // exactly between two parameters: what is left is whole parameters, and still cut
  const boundary = query.slice(0, query.indexOf("&b.three"));
  assert.equal(readQuery(boundary).state, "cut");
  assert.deepEqual(readQuery(boundary).pairs, []);
});

test("a link from before the seal is read as it stands", () => {
  const read = readQuery("?odds.attacker=d10&odds.defender=d8&setup-a.odds=%7B%22dc%22%3A12%7D");
  assert.equal(read.state, "old");
  assert.deepEqual(read.pairs.map(([k]) => k), ["odds.attacker", "odds.defender", "setup-a.odds"]);
});

test("short values stand as typed; long ones are packed together and read back", async () => {
  const texts = [["dice", "3d6"], ["notes", "x".repeat(PACK_OVER + 1)], ["army", '{"name":"A","units":[1,2]}'.padEnd(10)],
    ["roster", JSON.stringify({ name: "R", units: Array.from({ length: 30 }, (_, i) => ({ n: i })) })],
    ["spaced", `{ "kept": "as typed", "pad": "${"y".repeat(PACK_OVER)}" }`]];
  const pairs = await addressPairs("w.", /** @type {any} */ (texts));
  assert.deepEqual(pairs.map(([k]) => k), ["w.dice", "w.army", "w._z"]);
  assert.deepEqual(await addressValues("w.", pairs, 1_000_000), Object.fromEntries(texts));
  // the packed part is the roster links' encoding: an object of the long values
  const long = JSON.parse(await unpack(pairs[2][1], 1_000_000));
  assert.equal(long.roster.name, "R");
  assert.equal(typeof long.spaced, "string", "JSON not in compact form is kept as typed");
  await assert.rejects(addressValues("w.", [["w._z", pairs[2][1].slice(0, 40)]], 1_000_000), /cut off or damaged/);
});

test("a battle of two ten-unit rosters is shared in well under 2,000 characters", async () => {
  const [a, b] = tenUnitRosters();
  const pairs = await addressPairs("roster-battle.", battleInputs(a, b));
  const href = ORIGIN + sealQuery([], pairs);
  assert.ok(href.length < 2_000, `${href.length} characters`);
  const raw = ORIGIN + "?" + new URLSearchParams(battleInputs(a, b).map(([k, v]) => [`roster-battle.${k}`, v]));
  assert.ok(href.length < raw.length / 3, `packed ${href.length}, raw ${raw.length}`);
  const read = readQuery(new URL(href).search);
  assert.equal(read.state, "whole");
  const values = await addressValues("roster-battle.", read.pairs, 1_000_000);
  assert.deepEqual(JSON.parse(values.roster_a), a);
  assert.deepEqual(JSON.parse(values.roster_b), b);
  for (const keep of [300, 1_000, href.length - 1]) {
    assert.equal(readQuery(new URL(href.slice(0, keep)).search).state, "cut", `cut at ${keep}`);
  }
});

test("a roster packed alone is exactly its share link's code", async () => {
  const [a] = tenUnitRosters();
  const pairs = await addressPairs("r.", [["roster", JSON.stringify(a)]]);
  assert.deepEqual(JSON.parse(await unpack(pairs[0][1], 1_000_000)), { roster: a });
  assert.equal(JSON.parse(await unpack(await pack(a), 1_000_000)).name, "Red platoon");
});
