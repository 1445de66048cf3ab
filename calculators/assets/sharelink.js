// @ts-check
// Values carried in an address: JSON, raw-deflated (CompressionStream) and written in
// base64url behind "z.", or plain base64url JSON where the browser cannot compress (the
// first format, still read). The army builder's share links and "Add to roster" use it.

/** The compressed format's mark (base64url never holds a "."). */
const PACKED = "z.";

/** @param {Uint8Array} bytes */
function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("it holds characters a share link never has");
  // base64 never ends one character into a group of four: the link lost its end
  if (text.length % 4 === 1) throw new Error("it is cut off or damaged");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Run bytes through a (de)compression stream, stopping past `maxBytes` of output.
 *  @param {Uint8Array} bytes @param {CompressionStream | DecompressionStream} stream @param {number} maxBytes */
async function pipe(bytes, stream, maxBytes) {
  const reader = new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error("it unpacks to far more than a link of this site carries");
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** A value as text for an address: raw-deflated JSON in base64url behind "z.", or,
 *  where the browser cannot compress, plain base64url JSON (the first format).
 *  @param {unknown} value @returns {Promise<string>} */
export async function pack(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (typeof CompressionStream !== "function") return toBase64url(bytes);
  return PACKED + toBase64url(await pipe(bytes, new CompressionStream("deflate-raw"), Infinity));
}

/** The JSON text that ``pack`` wrote (either format), refused past ``maxBytes`` unpacked.
 *  Throws an Error whose message says plainly what is wrong.
 *  @param {string} text @param {number} maxBytes @returns {Promise<string>} */
export async function unpack(text, maxBytes) {
  const packed = text.startsWith(PACKED);
  let bytes;
  try {
    bytes = fromBase64url(packed ? text.slice(PACKED.length) : text);
  } catch (err) {
    throw new Error(err instanceof Error && /never has/.test(err.message) ? err.message : "it is cut off or damaged",
      { cause: err });
  }
  if (packed) {
    if (typeof DecompressionStream !== "function") throw new Error("this browser cannot unpack compressed links");
    try {
      bytes = await pipe(bytes, new DecompressionStream("deflate-raw"), maxBytes);
    } catch (err) {
      throw new Error(err instanceof Error && /far more/.test(err.message) ? err.message : "it is cut off or damaged",
        { cause: err });
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("it is cut off or damaged");
  }
}


// ---- calculators' state in the page address ------------------------------------------
// A calculator keeps the inputs it last worked out in the query: a short value as it
// stands ("<uid>.<field>=3"), the long ones packed together as above under "<uid>._z" (a
// value that is compact JSON packed as JSON, so two rosters share one stream), a pinned
// setup as JSON under "setup-a.<uid>" ("setup-a.<uid>._z" when packed). What the
// calculators wrote is sealed: "v=2" before it and "end=<CRC-32 of it>" after it, so an
// address cut anywhere, even exactly between two parameters, is known to be cut. An
// address with calculators' parameters and neither mark is a link from before the seal:
// read as it stands (nothing to check it by).

/** The marks of a sealed address, and the version it is written in. */
export const VERSION_KEY = "v";
export const VERSION = "2";
export const END_KEY = "end";
/** A value longer than this is packed (see pack), under its prefix and this name. */
export const PACK_OVER = 100;
export const PACKED_NAME = "_z";

/** @type {Uint32Array | null} */
let crcTable = null;

/** The CRC-32 (as zlib computes it) of ``text`` in UTF-8, as 8 hex digits.
 *  @param {string} text */
export function crc32(text) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

/** Whether a query key is a calculator's ("<uid>.<field>", "setup-a.<uid>"): they all hold
 *  a dot, and no other key the site uses does ("add", the marks).
 *  @param {string} key */
export function calculatorKey(key) {
  return key.includes(".");
}

/** What the seal sums: the pairs in order, each as encodeURIComponent gives it.
 *  @param {[string, string][]} pairs */
export function sealedText(pairs) {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

/** The query for ``foreign`` pairs (kept first, as they were) and the calculators'
 *  ``pairs``, sealed; no marks when there is nothing of the calculators'.
 *  @param {[string, string][]} foreign @param {[string, string][]} pairs @returns {string} */
export function sealQuery(foreign, pairs) {
  const all = [...foreign];
  if (pairs.length) all.push([VERSION_KEY, VERSION], ...pairs, [END_KEY, crc32(sealedText(pairs))]);
  return all.length ? `?${new URLSearchParams(all)}` : "";
}

/**
 * Read a query: ``state`` is "none" (nothing of the calculators'), "whole" (sealed and
 * whole), "old" (written before the seal: nothing to check it by) or "cut" (a mark is
 * there and the end is missing or does not match: the link lost part of its end).
 * ``pairs`` are the calculators' pairs (none when cut), ``foreign`` the others.
 * @param {string} search
 * @returns {{state: "none" | "whole" | "old" | "cut", pairs: [string, string][], foreign: [string, string][]}}
 */
export function readQuery(search) {
  /** @type {[string, string][]} */
  const all = [...new URLSearchParams(search)];
  const marked = all.some(([k]) => k === VERSION_KEY || k === END_KEY);
  const end = all.findIndex(([k]) => k === END_KEY);
  const foreign = all.filter(([k]) => !calculatorKey(k) && k !== VERSION_KEY && k !== END_KEY);
  const pairs = (end < 0 ? all : all.slice(0, end)).filter(([k]) => calculatorKey(k));
  if (!marked) return { state: pairs.length ? "old" : "none", pairs, foreign };
  if (end < 0 || all[end][1] !== crc32(sealedText(pairs))) return { state: "cut", pairs: [], foreign };
  return { state: "whole", pairs, foreign };
}

/** A text as packed: compact JSON of an object or list as that value (so a roster packs
 *  as its share link does), any other text as a string. @param {string} text */
function packable(text) {
  if (/^[[{]/.test(text)) {
    try {
      const value = JSON.parse(text);
      if (JSON.stringify(value) === text) return value;
    } catch { /* not JSON: packed as text */ }
  }
  return text;
}

/** The address pairs of ``values`` (text by field name) under ``prefix`` ("<uid>."): the
 *  short ones as they stand, the long ones packed together under ``prefix + "_z"``.
 *  @param {string} prefix @param {[string, string][]} values @returns {Promise<[string, string][]>} */
export async function addressPairs(prefix, values) {
  /** @type {[string, string][]} */
  const pairs = [];
  /** @type {Record<string, unknown>} */
  const long = {};
  for (const [name, text] of values) {
    if (text.length <= PACK_OVER) pairs.push([prefix + name, text]);
    else long[name] = packable(text);
  }
  if (Object.keys(long).length) pairs.push([prefix + PACKED_NAME, await pack(long)]);
  return pairs;
}

/** The values (text by field name) that ``addressPairs`` wrote under ``prefix``, read
 *  from ``pairs`` (any others are passed over), the packed ones at most ``maxBytes``
 *  unpacked. Throws (as unpack does) when the packed part is damaged.
 *  @param {string} prefix @param {[string, string][]} pairs @param {number} maxBytes
 *  @returns {Promise<Record<string, string>>} */
export async function addressValues(prefix, pairs, maxBytes) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const [key, value] of pairs) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    if (name !== PACKED_NAME) {
      values[name] = value;
      continue;
    }
    const long = JSON.parse(await unpack(value, maxBytes));
    if (!long || typeof long !== "object" || Array.isArray(long)) throw new Error("it is damaged");
    for (const [field, v] of Object.entries(long)) values[field] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return values;
}
