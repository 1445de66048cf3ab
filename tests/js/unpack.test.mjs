// The snapshot's unpacking (calculators/assets/unpack.js), on frames the build's own packer
// makes (calculators/bundle.py pack): every size of header a frame can have, read
// in chunks of any size (a first chunk shorter than the header too); a frame cut off, one
// that does not state its size and bytes that are not a frame are refused by name.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { frameContentSize, unpackFrame } from "../../calculators/assets/unpack.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.PYTHON || `${ROOT}.venv/bin/python`;

/** Memories of these sizes (a pattern with some noise) and their packed frames: 1-, 2- and
 * 4-byte size fields in a frame of one segment; one in a frame larger than its window (as
 * the real snapshot, 45 MB in a 4 MB window: the header then carries a window byte); and
 * one frame packed without its size. */
const SIZES = [200, 5_000, 300_000];
const MADE = JSON.parse(execFileSync(PYTHON, ["-c", `
import base64, json, random, zstandard
from calculators.bundle import pack
random.seed(7)
out = []
for size in ${JSON.stringify(SIZES)}:
    memory = bytes((i % 251) ^ (random.randrange(256) if i % 97 == 0 else 0) for i in range(size))
    out.append([base64.b64encode(memory).decode(), base64.b64encode(pack(memory)).decode()])
windowed = zstandard.ZstdCompressionParameters.from_level(19, window_log=10, write_content_size=True)
memory = bytes(i % 253 for i in range(70_000))
packed = zstandard.ZstdCompressor(compression_params=windowed).compress(memory)
out.append([base64.b64encode(memory).decode(), base64.b64encode(packed).decode()])
sizeless = zstandard.ZstdCompressor(write_content_size=False).compress(b"x" * 1000)
print(json.dumps({"frames": out, "sizeless": base64.b64encode(sizeless).decode()}))
`], { cwd: ROOT, encoding: "utf8" }));
const bytes = (/** @type {string} */ b64) => new Uint8Array(Buffer.from(b64, "base64"));

/** A reader giving ``data`` in chunks of ``sizes`` (the last size repeated). */
function reader(/** @type {Uint8Array} */ data, /** @type {number[]} */ sizes) {
  let at = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= data.length) { controller.close(); return; }
      const size = sizes[Math.min(turn++, sizes.length - 1)];
      controller.enqueue(data.slice(at, at + size));
      at += size;
    },
  }).getReader();
}

test("every frame the packer makes unpacks whole, in chunks of any size", async () => {
  const descriptors = MADE.frames.map(([, packedText]) => bytes(packedText)[4]);
  // size fields of 1, 2 and 4 bytes; one frame of many segments (a window byte)
  assert.deepEqual(descriptors.map((d) => [d >> 6, (d >> 5) & 1]), [[0, 1], [1, 1], [2, 1], [2, 0]]);
  for (const [memoryText, packedText] of MADE.frames) {
    const memory = bytes(memoryText);
    const packed = bytes(packedText);
    assert.equal(frameContentSize(packed, "x"), memory.length);
    for (const sizes of [[packed.length], [7, 3, 65_536], [1], [4096]]) {
      let read = 0;
      const got = await unpackFrame(reader(packed, sizes), "x", (n) => { read += n; });
      assert.equal(read, packed.length, `progress counts every byte (${sizes})`);
      assert.equal(got.length, memory.length);
      assert.ok(Buffer.from(got).equals(Buffer.from(memory)), `chunks ${sizes}`);
    }
  }
});

test("each part is given as it is unpacked, in order, and they make up the whole", async () => {
  // the WebAssembly compiles from these parts as they come (worker.js wasmSource)
  for (const [memoryText, packedText] of MADE.frames) {
    const memory = bytes(memoryText);
    const parts = [];
    const got = await unpackFrame(reader(bytes(packedText), [4096]), "x", () => {}, (part) => parts.push(part.slice()));
    assert.ok(parts.length >= 1 && parts.every((part) => part.length > 0)); // no empty part
    assert.ok(Buffer.concat(parts).equals(Buffer.from(memory)));
    assert.ok(Buffer.from(got).equals(Buffer.from(memory)));
  }
});

test("a frame cut off, one without its size and bytes that are not a frame are refused", async () => {
  const packed = bytes(MADE.frames[2][1]);
  await assert.rejects(unpackFrame(reader(packed.slice(0, packed.length - 100), [4096]), "snap.zst"));
  await assert.rejects(unpackFrame(reader(packed.slice(0, 6), [4096]), "snap.zst"), /snap\.zst is cut off in its header/);
  await assert.rejects(unpackFrame(reader(bytes(MADE.sizeless), [4096]), "snap.zst"),
    /snap\.zst does not state its unpacked size/);
  await assert.rejects(unpackFrame(reader(new TextEncoder().encode("<html>not found</html>"), [4096]), "snap.zst"),
    /snap\.zst is not a Zstandard frame/);
  await assert.rejects(unpackFrame(reader(new Uint8Array(0), [4096]), "snap.zst"), /not a Zstandard frame/);
});
