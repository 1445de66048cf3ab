// @ts-check
// What both apps (the SUCS army builder and the 2d6 action dice tracker) need to keep a
// GM's data safe in the browser: storage names scoped to this copy of the site, a check
// of saved text's size and nesting depth that runs before any deep parse (in one linear
// pass, without recursion), copies of damaged data kept aside under their own keys, the
// request for persistent storage, and downloads.
import { scopedKey } from "../site.js";

export { scopedKey };

/** localStorage, or null where the browser blocks it (reading the property can throw).
 *  @returns {Storage | null} */
export function storageArea() {
  try {
    return window.localStorage || null;
  } catch {
    return null;
  }
}

/** The deepest nesting of arrays and objects in JSON text, read once from left to right
 *  (strings skipped), stopping as soon as `stopAt` is passed. Never recursive, so text
 *  nested 100,000 deep costs one loop and no stack.
 *  @param {string} text @param {number} [stopAt] @returns {number} */
export function jsonDepth(text, stopAt = Infinity) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === 125 || c === 93) depth -= 1;
  }
  return deepest;
}

/** `__proto__` keys are dropped while parsing, so no later copy can touch a prototype.
 *  @param {string} key @param {unknown} value */
function noProto(key, value) {
  return key === "__proto__" ? undefined : value;
}

/**
 * Parse saved or received JSON only once it is known to be small and shallow enough.
 * @param {unknown} text
 * @param {{maxChars: number, maxDepth: number}} limits
 * @returns {{ok: true, value: unknown} | {ok: false, reason: string}}
 */
export function guardedParse(text, { maxChars, maxDepth }) {
  if (typeof text !== "string") return { ok: false, reason: "it is not text" };
  if (text.length > maxChars) {
    return { ok: false, reason: `it is ${text.length} characters long, more than the ${maxChars} it may have` };
  }
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return { ok: false, reason: `it is nested more than ${maxDepth} levels deep` };
  }
  try {
    return { ok: true, value: JSON.parse(text, noProto) };
  } catch {
    return { ok: false, reason: "it is not valid JSON (the text is damaged or cut off)" };
  }
}

/** @param {unknown} v @returns {v is Record<string, any>} */
export const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A size in kB for the list of kept copies. @param {string} text */
export const kb = (text) => `${Math.max(1, Math.round(text.length / 1024))} kB`;

let stamp = 0;

/** Copies of damaged saved data, each under its own key beginning with `prefix`. */
export class KeptCopies {
  /** @param {Storage | null} area @param {string} prefix */
  constructor(area, prefix) {
    this.area = area;
    this.prefix = prefix;
  }

  /** Keep `text` aside; returns its key, or null when there is no room (nothing written).
   *  @param {string} text @returns {string | null} */
  keep(text) {
    if (!this.area) return null;
    stamp += 1;
    const key = `${this.prefix}${Date.now().toString(36)}-${stamp}`;
    try {
      this.area.setItem(key, text);
      return key;
    } catch {
      return null;
    }
  }

  /** Keep `text` aside, then remove `from` (a move); false (and nothing changed) when
   *  there is no room for the copy. @param {string} from @param {string} text */
  move(from, text) {
    const key = this.keep(text);
    if (!key || !this.area) return false;
    try {
      this.area.removeItem(from);
    } catch { /* the copy exists; the original goes at the next visit */ }
    return true;
  }

  /** Every kept copy's key, oldest first. @returns {string[]} */
  keys() {
    /** @type {string[]} */
    const out = [];
    if (!this.area) return out;
    try {
      for (let i = 0; i < this.area.length; i += 1) {
        const key = this.area.key(i);
        if (key && key.startsWith(this.prefix)) out.push(key);
      }
    } catch { /* blocked */ }
    return out.sort();
  }

  /** @param {string} key @returns {string | null} */
  text(key) {
    try {
      return this.area ? this.area.getItem(key) : null;
    } catch {
      return null;
    }
  }

  /** @param {string} key */
  drop(key) {
    try {
      if (this.area) this.area.removeItem(key);
    } catch { /* blocked */ }
  }
}

/** @type {Promise<string> | null} */
let persistAsked = null;

/**
 * Ask the browser to keep this site's storage (Safari deletes it after 7 days without a
 * visit otherwise). Asked once per page view. Resolves to "granted", "unsupported",
 * "refused" or "refused-first" (refused, and the GM has not been told before in this
 * browser: say so once).
 * @param {Storage | null} area
 * @returns {Promise<string>}
 */
export function askPersist(area) {
  if (persistAsked) return persistAsked.then((r) => (r === "refused-first" ? "refused" : r));
  persistAsked = (async () => {
    const storage = navigator.storage;
    if (!storage || typeof storage.persist !== "function") return "unsupported";
    try {
      if (typeof storage.persisted === "function" && await storage.persisted()) return "granted";
      if (await storage.persist()) return "granted";
    } catch {
      return "unsupported";
    }
    const told = scopedKey("storage-persist-refused-told");
    try {
      if (!area || area.getItem(told)) return "refused";
      area.setItem(told, "1");
    } catch {
      return "refused";
    }
    return "refused-first";
  })();
  return persistAsked;
}

export const PERSIST_REFUSED = "This browser did not promise to keep the site's saved data: some browsers "
  + "(Safari among them) delete it after a week or so without a visit. Export to keep a copy as a file.";

/** Offer JSON text as a file download (the site's one helper, here for the apps). */
export { download } from "../site.js";

/**
 * Ask with the app's modal <dialog> (not window.confirm); resolves to the chosen key
 * (Escape gives `cancel`). The dialog holds [data-ask=title], [data-ask=text] and
 * [data-ask=choices]. choices: [[key, label], ...]; the first has the focus. Questions
 * wait their turn. Once answered (or on Escape) the focus goes back where it was, or to
 * `returnTo` when it was nowhere (a browser that does not focus what is clicked: Safari).
 * @param {HTMLDialogElement & {askQueue?: Promise<unknown>}} dialog
 * @param {{title: string, text: string, choices: string[][], cancel: string, returnTo?: HTMLElement | null}} question
 * @returns {Promise<string>}
 */
export function ask(dialog, { title, text, choices, cancel, returnTo = null }) {
  const part = (/** @type {string} */ name) => /** @type {HTMLElement} */ (dialog.querySelector(`[data-ask="${name}"]`));
  const next = (dialog.askQueue || Promise.resolve()).then(() => new Promise((resolve) => {
    const before = document.activeElement;
    part("title").textContent = title;
    part("text").textContent = text;
    /** @param {string} key */
    const finish = (key) => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      delete dialog.dataset.open;
      const back = [before, returnTo].find((e) => e instanceof HTMLElement && e.isConnected && e !== document.body);
      if (back instanceof HTMLElement) back.focus();
      resolve(key);
    };
    /** @param {Event} event */
    const onCancel = (event) => { event.preventDefault(); finish(cancel); };
    dialog.addEventListener("cancel", onCancel);
    const buttons = choices.map(([key, label], i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `md-button${i ? "" : " md-button--primary"}`;
      button.dataset.choice = key;
      button.textContent = label;
      button.addEventListener("click", () => finish(key));
      return button;
    });
    part("choices").replaceChildren(...buttons);
    dialog.dataset.open = "yes";
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    buttons[0].focus();
  }));
  dialog.askQueue = next.catch(() => {});
  return /** @type {Promise<string>} */ (next);
}
