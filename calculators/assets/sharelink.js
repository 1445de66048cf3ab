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

