// @ts-check
// A file the build packed, unpacked as it downloads: the site's own snapshot and, on a first
// visit, Pyodide's WebAssembly. The build packs each as one Zstandard frame that states its
// unpacked size (calculators/bundle.py pack); the site's own small decoder (vendor/fzstd.js)
// unpacks it chunk by chunk into one array made up front, so the memory is never held twice
// and no copy waits for the last byte. The worker loads this module only when it downloads
// such a file (a first visit).
import { Decompress } from "./vendor/fzstd.js";

/** The longest frame header: magic number 4, descriptor 1, window 1, dictionary id 4,
 * content size 8 (RFC 8878, 3.1.1.1). */
const HEADER_MAX = 18;

/** The unpacked size a Zstandard frame's header states, from the frame's first bytes;
 * throws if they are not a frame's or the frame does not state it. */
export function frameContentSize(/** @type {Uint8Array} */ start, /** @type {string} */ name) {
  const view = new DataView(start.buffer, start.byteOffset, start.byteLength);
  if (start.length < 5 || view.getUint32(0, true) !== 0xfd2fb528) throw new Error(`${name} is not a Zstandard frame`);
  const descriptor = start[4];
  const singleSegment = (descriptor >> 5) & 1;
  const sizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6];
  if (!sizeBytes) throw new Error(`${name} does not state its unpacked size`);
  const at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][descriptor & 3];
  if (start.length < at + sizeBytes) throw new Error(`${name} is cut off in its header`);
  if (sizeBytes === 1) return start[at];
  if (sizeBytes === 2) return view.getUint16(at, true) + 256;
  if (sizeBytes === 4) return view.getUint32(at, true);
  return Number(view.getBigUint64(at, true));
}

/**
 * Unpack the one frame ``reader`` gives, as its chunks come.
 * @param {{read(): Promise<ReadableStreamReadResult<Uint8Array>>}} reader  a stream's reader
 * @param {string} name  the file, as errors name it
 * @param {(bytes: number) => void} [progress]  told the bytes of each chunk read
 * @param {(part: Uint8Array) => void} [unpacked]  given each part as soon as it is unpacked
 *   and in its place (a view of the array returned: whoever keeps it beyond the call copies it)
 * @returns {Promise<Uint8Array>} throws if the frame is damaged, cut off, or unpacks to
 * another size than it states
 */
export async function unpackFrame(reader, name, progress = () => {}, unpacked = () => {}) {
  /** @type {Uint8Array | null} */
  let bytes = null;
  let at = 0;
  const unpack = new Decompress((/** @type {Uint8Array} */ part) => {
    if (!bytes || at + part.length > bytes.length) throw new Error(`${name} unpacks to more than it states`);
    bytes.set(part, at);
    if (part.length) unpacked(bytes.subarray(at, at + part.length));
    at += part.length;
  });
  let head = new Uint8Array(0); // the first bytes, until the header is whole
  for (;;) {
    const { done, value } = await reader.read();
    if (!done) progress(value.byteLength);
    if (!bytes) {
      if (!done) {
        const joined = new Uint8Array(head.length + value.length);
        joined.set(head);
        joined.set(value, head.length);
        head = joined;
        if (head.length < HEADER_MAX) continue;
      }
      bytes = new Uint8Array(frameContentSize(head, name));
      unpack.push(head, false);
    } else if (!done) {
      unpack.push(value, false);
    }
    if (done) break;
  }
  unpack.push(new Uint8Array(0), true); // throws if the frame is not whole
  if (at !== bytes.length) throw new Error(`${name} unpacks to less than it states`);
  return bytes;
}
