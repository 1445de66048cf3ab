// Share links: what pack writes, unpack reads back; a link cut short, with foreign
// characters or unpacking past the limit says so in plain words.
import test from "node:test";
import assert from "node:assert/strict";
import { pack, unpack } from "../../calculators/assets/sharelink.js";

const ROSTER = { format: "sucs-roster", version: 1, name: "Knights “of” Ni", points_limit: 200,
  units: Array.from({ length: 40 }, (_, i) => ({ name: `Unit ${i}`, count: 1 + (i % 3), preset: null, stats: { quality: 3 } })) };

test("a packed value reads back exactly, compressed behind z.", async () => {
  const text = await pack(ROSTER);
  assert.ok(text.startsWith("z."));
  assert.match(text.slice(2), /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(JSON.parse(await unpack(text, 1_000_000)), ROSTER);
  assert.ok(text.length < JSON.stringify(ROSTER).length / 2, "compression pays for a roster");
});

test("the first format (plain base64url JSON) is still read", async () => {
  const plain = Buffer.from(JSON.stringify(ROSTER)).toString("base64url");
  assert.deepEqual(JSON.parse(await unpack(plain, 1_000_000)), ROSTER);
});

test("a link cut short is refused as cut off or damaged", async () => {
  const text = await pack(ROSTER);
  for (const keep of [text.length - 1, Math.floor(text.length / 2), 3]) {
    await assert.rejects(unpack(text.slice(0, keep), 1_000_000), /cut off or damaged/);
  }
});

test("characters a link never has, and a value past the limit, are refused by name", async () => {
  await assert.rejects(unpack("z.abc$def", 1_000), /characters a share link never has/);
  const big = await pack({ text: "a".repeat(50_000) });
  await assert.rejects(unpack(big, 10_000), /far more than a link of this site carries/);
});
