// @ts-check
// A calculator's inputs in the page address (the format is sharelink.js's): read once
// when the widget is bound, written only once the rules core has accepted the inputs
// (a refused value never enters the address), sealed, and never longer than
// ADDRESS_LIMIT: a value that does not fit is left out and the widget says so. A link
// cut short says so on the widget, and none of its inputs is used.
import { PACKED_NAME, PACK_OVER, addressPairs, addressValues, pack, readQuery, sealQuery, unpack } from "./sharelink.js";
import { replaceAddress } from "./site.js";
import { state } from "./state.js";

/** @typedef {import("./form.js").Widget} Widget */

/** The longest address the calculators write: hosts that allow 8 kB request lines take it. */
export const ADDRESS_LIMIT = 8_000;
/** "<uid>._out=roster_a,roster_b": fields the address left out, too long for it. */
const LEFT_OUT = "_out";
/** A pinned setup's key starts with this, the widget's uid after it. */
const PIN = "setup-a.";
/** The most one value may unpack to (UTF-8 bytes): past any field's limit. */
const MAX_VALUE_BYTES = 1_000_000;

export const CUT_OFF = "This link is cut off: its end is missing, so none of its inputs is used and the "
  + "calculator shows its starting inputs. Ask for the whole link again.";

/** Whether the address key ``key`` is widget ``uid``'s (its fields, what it left out, its pin).
 *  @param {string} key @param {string} uid */
function belongs(key, uid) {
  return key.startsWith(`${uid}.`) || key === PIN + uid || key === `${PIN}${uid}.${PACKED_NAME}`;
}

/** The note at the top of a widget's form (made when first needed), or null to remove
 *  it; ``kind`` is "link" (about the link the page was opened with: it goes when the
 *  reader changes an input) or "address" (what the address could not hold).
 *  @param {Widget} root @param {string | null} text @param {"link" | "address"} kind */
function linkNote(root, text, kind) {
  let note = /** @type {HTMLElement | null} */ (root.querySelector(".calc-link-note"));
  if (text === null) {
    if (note?.dataset.kind === kind) note.remove();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.className = "calc-link-note";
    note.setAttribute("role", "alert");
    root.querySelector(".calc-form")?.before(note);
  }
  note.dataset.kind = kind;
  note.textContent = text;
}

/** A field's label as the reader sees it. @param {Widget} root @param {string} name */
function label(root, name) {
  if (name === "setup-a") return "the pinned setup A";
  const el = root.querySelector(`.calc-field[data-field="${CSS.escape(name)}"] label`);
  return `“${(el?.textContent || name).trim()}”`;
}

/** @param {string[]} items */
function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * What the address ``search`` (as the widget was bound) holds for widget ``root``: the
 * values to apply (null: none) and the pinned setup. Says on the widget when the link is
 * cut off (on every widget it had inputs for, or the page's first when none is known)
 * and when it left fields out.
 * @param {Widget} root @param {string} search
 * @returns {Promise<{values: Record<string, string> | null, pinned: Record<string, unknown> | null}>}
 */
export async function openLink(root, search) {
  const uid = /** @type {string} */ (root.dataset.uid);
  const read = readQuery(search);
  /** @type {Record<string, string>} */
  let values = {};
  /** @type {Record<string, unknown> | null} */
  let pinned = null;
  let cut = read.state === "cut";
  if (!cut) {
    try {
      values = await addressValues(`${uid}.`, read.pairs, MAX_VALUE_BYTES);
      for (const [key, value] of read.pairs) {
        if (!key.startsWith(PIN + uid) || !belongs(key, uid)) continue;
        const parsed = JSON.parse(key === PIN + uid ? value : await unpack(value, MAX_VALUE_BYTES));
        pinned = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
      }
    } catch {
      cut = true; // sealed whole, yet unreadable: damaged
    }
  }
  const out = (values[LEFT_OUT] || "").split(",").filter(Boolean);
  delete values[LEFT_OUT];
  const any = Object.keys(values).length > 0;
  if (cut) {
    const keys = [...new URLSearchParams(search).keys()];
    const uids = [...document.querySelectorAll(".calc[data-uid]")].map((el) => /** @type {HTMLElement} */ (el).dataset.uid);
    const mine = keys.some((k) => belongs(k, uid));
    const anyones = uids.some((u) => keys.some((k) => belongs(k, /** @type {string} */ (u))));
    if (mine || (!anyones && uids[0] === uid)) linkNote(root, CUT_OFF, "link");
    return { values: null, pinned: null };
  }
  if (out.length) {
    linkNote(root, `This link left out ${listed(out.map((n) => label(root, n)))}: too long for a page address. `
      + "The starting value is shown in its place.", "link");
  }
  return { values: any ? values : null, pinned };
}

/** The reader changed an input: a note about the link the page was opened with no longer
 *  applies. @param {Widget} root */
export function linkEdited(root) {
  linkNote(root, null, "link");
}

/** The last address write of each widget, so Copy link waits for it. @type {Map<string, Promise<unknown>>} */
const writes = new Map();
/** @type {Map<string, number>} */
const tickets = new Map();
/** What each widget last asked to keep. @type {Map<string, string>} */
const kept = new Map();

/**
 * Keep ``inputs`` (just accepted by the core) and ``pinned`` in the address as widget
 * ``root``'s, or nothing of it when ``atStart`` (and nothing pinned). Values are packed
 * when long; when the address would pass ADDRESS_LIMIT, the widget's longest values are
 * left out, listed in the address, and the widget says so.
 * @param {Widget} root @param {Record<string, unknown>} inputs
 * @param {Record<string, unknown> | null} pinned @param {boolean} atStart
 */
export function keepInAddress(root, inputs, pinned, atStart) {
  const uid = /** @type {string} */ (root.dataset.uid);
  // a whole fight's answers while it sharpens are for the same inputs: written once
  const asked = JSON.stringify([inputs, pinned, atStart, location.pathname]);
  if (kept.get(uid) === asked && location.search) return writes.get(uid);
  kept.set(uid, asked);
  const ticket = (tickets.get(uid) || 0) + 1;
  tickets.set(uid, ticket);
  const write = (async () => {
    /** @type {[string, string][]} */
    const texts = atStart && !pinned ? [] : Object.entries(inputs).map(([name, value]) => [name, String(value)]);
    const pin = atStart && !pinned ? null : pinned && JSON.stringify(pinned);
    /** @type {[string, string][]} */
    const pinPairs = pin === null ? [] : pin.length <= PACK_OVER ? [[PIN + uid, pin]] : [[`${PIN}${uid}.${PACKED_NAME}`, await pack(pinned)]];
    let mine = [...await addressPairs(`${uid}.`, texts), ...pinPairs];
    if (tickets.get(uid) !== ticket || !root.isConnected || location.pathname !== state(root).path) return;
    const here = readQuery(location.search);
    let others = here.state === "cut" ? [] : here.pairs.filter(([k]) => !belongs(k, uid));
    /** @type {string[]} */
    const out = [];
    const build = () => {
      const url = new URL(location.href);
      const left = out.length ? [/** @type {[string, string]} */ ([`${uid}.${LEFT_OUT}`, out.join(",")])] : [];
      url.search = sealQuery(here.foreign, [...others, ...mine, ...left]);
      return url;
    };
    let url = build();
    while (url.href.length > ADDRESS_LIMIT && (mine.length || others.length)) {
      if (!mine.length) {
        others = []; // other widgets' inputs together pass the limit: the newest stay
      } else if (pinPairs.length && mine.includes(pinPairs[0])) {
        out.push("setup-a"); // the pinned setup goes first, then the longest values
        mine = mine.filter((pair) => pair !== pinPairs[0]);
      } else {
        const longest = texts.reduce((best, pair, i) => (pair[1].length > texts[best][1].length ? i : best), 0);
        out.push(texts.splice(longest, 1)[0][0]);
        mine = await addressPairs(`${uid}.`, texts);
        if (tickets.get(uid) !== ticket) return;
      }
      url = build();
    }
    replaceAddress(url);
    if (out.length) {
      linkNote(root, `${listed(out.map((n) => label(root, n)))} ${out.length > 1 ? "are" : "is"} too long for the `
        + `page address (at most ${ADDRESS_LIMIT.toLocaleString("en")} characters): a reload or a copied link `
        + "does not carry it, and shows the starting value in its place.", "address");
    } else {
      linkNote(root, null, "address");
    }
  })();
  writes.set(uid, write);
  return write;
}

/** The address to share for widget ``root`` once its last write is done, and what to say
 *  of it when the inputs on screen are not all in it. @param {Widget} root */
export async function shareable(root) {
  await writes.get(/** @type {string} */ (root.dataset.uid));
  const url = new URL(location.href);
  url.hash = "";
  let caveat = "";
  if (root.dataset.errorField) caveat = " It holds the last inputs that were worked out, not the highlighted one.";
  else if (root.dataset.pending) caveat = " It holds the last inputs that were worked out: your latest change is not worked out yet.";
  if (root.querySelector(".calc-link-note")?.textContent?.includes("too long for the page address")) {
    caveat += " Inputs too long for an address are left out.";
  }
  return { url, caveat };
}
