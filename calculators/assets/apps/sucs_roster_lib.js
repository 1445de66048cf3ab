// @ts-check
// Helpers of the SUCS army builder (sucs_roster.js): text-only DOM building, comparing
// rosters, the in-page question dialog, share-link encoding and the unit cards. Saved
// rosters are handled by sucs_roster_store.js. Limits and rule values (names' length,
// counts, the target number of each quality…) are the rules core's, rendered into the
// page at build time and set here by configure(); none is retyped in this file.
import { guardedParse, isObj, ask } from "./storage_kit.js";

export { download } from "./storage_kit.js";
export const FORMAT = "sucs-roster";
export const COLLECTION = "sucs-rosters";
export const VERSION = 1;
export const HASH_KEY = "roster=";
/** The compressed share-link format's mark (base64url never holds a "."). */
const PACKED = "z.";

/**
 * The core's numbers the builder needs (from the page's data block).
 * @typedef {{max_name: number, max_units: number, max_count: number, max_limit: number,
 *   max_file_chars: number, max_depth: number, max_rosters: number,
 *   target_number: Record<string, number>, quality_base: Record<string, number>}} Rules
 */
/** @type {Rules} */
export const RULES = /** @type {any} */ ({});

/** @param {Rules} rules */
export function configure(rules) {
  Object.assign(RULES, rules);
}

/** The store's limits, from the core's. */
export function limits() {
  return { maxChars: RULES.max_file_chars, maxDepth: RULES.max_depth, maxUnits: RULES.max_units, maxName: RULES.max_name };
}

/** Enough shape to show a roster without errors; the rules core checks it fully later.
 *  @param {unknown} r @param {{maxUnits: number, maxName: number}} lim @returns {string | null} */
export function shapeProblem(r, lim) {
  if (!isObj(r)) return "it is not a roster";
  if (typeof r.name !== "string" || !r.name || r.name.length > lim.maxName) return "its name is missing or too long";
  if (!Number.isSafeInteger(r.points_limit)) return "its points limit is not a whole number";
  if (!Array.isArray(r.units) || r.units.length > lim.maxUnits) return "its list of units is missing or too long";
  const bad = r.units.findIndex((u) => !isObj(u) || typeof u.name !== "string" || u.name.length > lim.maxName
    || !Number.isSafeInteger(u.count) || !isObj(u.stats) || !(u.preset == null || typeof u.preset === "string"));
  return bad < 0 ? null : `its unit ${bad + 1} is damaged`;
}

/** A roster's name found in damaged text, or "". @param {string} text */
export function nameInText(text) {
  const m = /"name"\s*:\s*"((?:[^"\\\n]|\\.){1,80})"/.exec(String(text));
  if (!m) return "";
  try {
    return JSON.parse(`"${m[1]}"`);
  } catch {
    return m[1];
  }
}

// ---- small DOM helpers (text only) ---------------------------------------------

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function newId() {
  return `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function blankRoster(name = "New army") {
  return { format: FORMAT, version: VERSION, name, points_limit: 200, units: [] };
}

export function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

// ---- comparing rosters -----------------------------------------------------------

/** JSON with sorted keys: two rosters are the same when these texts are equal. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** Names compared the way a reader would: case and spacing do not matter. */
export function nameKey(name) {
  return String(name).toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

/** A name with a suffix, kept within the length a roster name may have.
 *  @param {string} name @param {string} suffix */
export function suffixed(name, suffix) {
  return `${String(name).slice(0, RULES.max_name - suffix.length - 1)} ${suffix}`;
}

// ---- share links ----------------------------------------------------------------

/** @param {Uint8Array} bytes */
function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("it holds characters a share link never has");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Run bytes through a (de)compression stream, stopping past `maxBytes` of output.
 *  @param {Uint8Array} bytes @param {CompressionStream | DecompressionStream} stream @param {number} maxBytes */
async function pipe(bytes, stream, maxBytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error("it unpacks to far more than a roster takes");
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** A roster as the text after "#roster=": raw-deflated JSON in base64url behind "z.",
 *  or, where the browser cannot compress, plain base64url JSON (the first format).
 *  @param {object} roster @returns {Promise<string>} */
export async function encodeShare(roster) {
  const bytes = new TextEncoder().encode(JSON.stringify(roster));
  if (typeof CompressionStream !== "function") return toBase64url(bytes);
  return PACKED + toBase64url(await pipe(bytes, new CompressionStream("deflate-raw"), Infinity));
}

/** The JSON text a share link carries (either format). Throws an Error whose message
 *  says plainly what is wrong. @param {string} text @returns {Promise<string>} */
export async function decodeShare(text) {
  const packed = text.startsWith(PACKED);
  let bytes;
  try {
    bytes = fromBase64url(packed ? text.slice(PACKED.length) : text);
  } catch {
    throw new Error("it holds characters a share link never has");
  }
  if (packed) {
    if (typeof DecompressionStream !== "function") throw new Error("this browser cannot unpack compressed links");
    try {
      bytes = await pipe(bytes, new DecompressionStream("deflate-raw"), RULES.max_file_chars * 4);
    } catch (err) {
      throw new Error(err instanceof Error && /far more/.test(err.message) ? err.message : "it is cut off or damaged");
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("it is cut off or damaged");
  }
}

/** Check received JSON's size and depth before the core gets it (a string, unparsed).
 *  @param {string} text @returns {string} the problem, or "" */
export function textProblem(text) {
  const checked = guardedParse(text, { maxChars: RULES.max_file_chars, maxDepth: RULES.max_depth });
  return checked.ok ? "" : checked.reason;
}

/** @param {string} name */
export function fileName(name) {
  const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${slug || "roster"}.sucs.json`;
}

// ---- the unit card text -----------------------------------------------------------

/** The target number of a quality, as the core gives it. @param {number} quality */
export function tn(quality) {
  return RULES.target_number[String(quality)] ?? "?";
}

/** A unit's total cost per model: its quality base plus its extra cost (the one cost
 *  convention of the builder: the picker and the lines both show it).
 *  @param {{stats: {quality: number}, computed_cost: number}} preset */
export function presetCost(preset) {
  return (RULES.quality_base[String(preset.stats.quality)] ?? 0) + preset.computed_cost;
}

export function weaponsText(s) {
  const targets = Number.isInteger(s.targets) ? Math.min(Math.max(s.targets, 1), 10) : 1;
  const main = Array(targets).fill(String(s.attack)).join(",");
  return s.alt_weapons ? `${main} or ${s.alt_weapons}` : main;
}

export function statLine(s) {
  const speed = `${s.must_move ? "(" : ""}${s.speed}"${s.must_move ? ")" : ""}`;
  const range = s.range ? `${s.min_range ? "(" : ""}${s.range}"${s.min_range ? ")" : ""}` : "0";
  const parts = [`Q${s.quality} (${tn(s.quality)}+)`, `Attack ${weaponsText(s)}`, `Armor ${s.armor}`,
    `Speed ${speed}`, `Range ${range}`];
  if (s.altitude !== "0") parts.push(`Altitude ${s.altitude}`);
  return parts.join(" · ");
}

export function featureList(s) {
  const out = [];
  if (s.commander) out.push("commander");
  if (s.stealth) out.push("stealth");
  if (s.amphibious) out.push("amphibious");
  if (s.transport) out.push(`transport ${s.transport_restricted ? `(${s.transport})` : s.transport}`);
  const support = [["support_reorganize", "reorganize"], ["support_armor", "+1 armor"], ["support_attack", "+1 attack"]]
    .filter(([k]) => s[k]).map(([, v]) => v);
  if (support.length) out.push(`support: ${support.join(", ")}`);
  if (s.special_weapons) out.push(`special weapons ${s.special_weapons}`);
  if (s.disembark) out.push("disembarks from altitude");
  if (s.armor_limited) out.push("armor vs some attacks only");
  return out;
}


/** The printable roster cards: one card per line, with its cost when known. */
export function cardNodes(r, costs) {
  return r.units.map((line, i) => {
    const cost = costs ? costs.units[i] : null;
    const s = line.stats;
    return el("article", { class: "sucs-card" },
      el("h3", { text: `${line.count} × ${line.name}` }),
      el("p", { class: "sucs-card-cost", text: cost ? `${cost.cost} pts each · ${cost.subtotal} pts` : "" }),
      el("table", {}, el("tbody", {},
        el("tr", {}, ...["Q", "TN", "Attack", "Armor", "Speed", "Range"].map((h) => el("th", { text: h }))),
        el("tr", {}, ...[String(s.quality), `${tn(s.quality)}+`, weaponsText(s), String(s.armor),
          `${s.must_move ? "(" : ""}${s.speed}"${s.must_move ? ")" : ""}${s.altitude !== "0" ? ` alt ${s.altitude}` : ""}`,
          s.range ? `${s.min_range ? "(" : ""}${s.range}"${s.min_range ? ")" : ""}` : "0"].map((t) => el("td", { text: t }))))),
      el("p", { class: "sucs-card-features", text: featureList(s).join(" · ") }),
      el("ol", { class: "sucs-card-models", "aria-label": "Tracking boxes, one set per model" },
        ...Array.from({ length: Math.max(1, Math.min(line.count, RULES.max_count)) }, () =>
          el("li", { class: "sucs-card-track", text: "Suppressed: ☐ ☐ ☐   Destroyed: ☐" }))));
  });
}

/** One line of the roster: name and count inputs, cost, stats and its buttons. */
export function lineNode(line, i, { cost, preset, editing, onChange, onEdit, onCopy, onRemove }) {
  const name = el("input", { type: "text", class: "sucs-line-name", value: line.name, maxlength: RULES.max_name,
    "aria-label": `Name of unit ${i + 1}`, autocomplete: "off" });
  name.addEventListener("change", () => {
    const text = name.value.trim();
    if (text) { line.name = text.slice(0, RULES.max_name); onChange(); } else name.value = line.name;
  });
  const count = el("input", { type: "number", class: "sucs-line-count", value: line.count, min: 1, max: RULES.max_count,
    step: 1, inputmode: "numeric", "aria-label": `How many of unit ${i + 1}` });
  count.addEventListener("change", () => {
    const n = parseInt(count.value, 10);
    if (Number.isInteger(n) && n >= 1 && n <= RULES.max_count) { line.count = n; onChange(); } else count.value = line.count;
  });
  return el("li", { class: `sucs-line${editing ? " sucs-line-editing" : ""}`, "data-index": i },
    el("div", { class: "sucs-line-main" }, name,
      el("label", { class: "sucs-line-count-label" }, "× ", count),
      el("span", { class: "sucs-line-cost", text: cost ? `${cost.cost} pts each · ${cost.subtotal} pts` : "…" })),
    el("p", { class: "sucs-line-stats", text: statLine(line.stats) }),
    el("p", { class: "sucs-line-features", text: [preset ? `${preset.list_title}: ${preset.name}` : "custom unit",
      ...featureList(line.stats)].join(" · ") }),
    el("div", { class: "sucs-line-actions" },
      el("button", { type: "button", class: "md-button", text: editing ? "Editing" : "Edit", onclick: onEdit }),
      el("button", { type: "button", class: "md-button", text: "Copy", onclick: onCopy }),
      el("button", { type: "button", class: "md-button", text: "Remove", onclick: onRemove })));
}

/** The roster check's warnings as list items. */
export function warningNodes(warnings) {
  const lead = { illegal: "Breaks a rule: ", over_limit: "Over the limit: ", advice: "Advice: " };
  return warnings.map((w) => el("li", { class: `sucs-${w.severity}` }, el("strong", { text: lead[w.severity] }),
    w.unit === null ? "" : `line ${w.unit + 1}: `, w.message));
}

// ---- the unit editor: a form built from the core's own field list ---------------------

/** Build the editor's fields into `form`; returns name -> {f, control, error}. */
export function buildEditorForm(form, fields, onInput) {
  const inputs = new Map();
  for (const f of fields) {
    const id = `sucs-f-${f.name}`;
    let control;
    if (f.kind === "bool") {
      control = el("input", { type: "checkbox", id, name: f.name });
    } else if (f.kind === "choice") {
      control = el("select", { id, name: f.name }, ...f.choices.map(([v, label]) => el("option", { value: v, text: label })));
    } else if (f.kind === "int") {
      control = el("input", { type: "number", id, name: f.name, min: f.min, max: f.max, step: 1, inputmode: "numeric" });
    } else {
      control = el("input", { type: "text", id, name: f.name, placeholder: f.placeholder || "", autocomplete: "off", spellcheck: "false" });
    }
    const error = el("p", { class: "calc-error", id: `${id}-error`, hidden: true });
    control.setAttribute("aria-describedby", `${id}-error`);
    const field = f.kind === "bool"
      ? el("div", { class: "calc-field calc-kind-bool" }, el("label", { for: id }, control, ` ${f.label}`), error)
      : el("div", { class: "calc-field" }, el("label", { for: id, text: f.label }), control,
        f.help ? el("p", { class: "calc-help", text: f.help }) : null, error);
    inputs.set(f.name, { f, control, error });
    form.append(field);
    control.addEventListener(f.kind === "text" || f.kind === "int" ? "input" : "change", onInput);
  }
  return inputs;
}

/** Show one field's error (or none) next to it. */
export function markFieldError(inputs, problem) {
  for (const [name, { control, error }] of inputs) {
    const mine = problem && problem.field === name;
    error.hidden = !mine;
    error.textContent = mine ? problem.message : "";
    if (mine) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
}

export function fillEditor(inputs, stats) {
  for (const [name, { f, control }] of inputs) {
    if (f.kind === "bool") control.checked = Boolean(stats[name]);
    else control.value = stats[name] === undefined || stats[name] === null ? "" : String(stats[name]);
  }
  markFieldError(inputs, null);
}

export function readEditor(inputs) {
  const stats = {};
  for (const [name, { f, control }] of inputs) {
    if (f.kind === "bool") stats[name] = control.checked;
    else if (f.kind === "int") {
      const text = control.value.trim();
      stats[name] = /^[-+]?\d+$/.test(text) ? parseInt(text, 10) : text;
    } else stats[name] = control.value;
  }
  return stats;
}

/** The cost breakdown table's rows. */
export function breakdownRows(result) {
  return [...result.breakdown
    .filter((t) => t.points || t.key === "base" || t.key === "weapon0")
    .map((t) => el("tr", {}, el("th", { scope: "row", text: t.label }), el("td", { text: t.detail }), el("td", { text: t.points_text }))),
  el("tr", { class: "sucs-breakdown-total" }, el("th", { scope: "row", text: "Total" }),
    el("td", { text: result.rounded ? "extra cost rounded up" : "" }), el("td", { text: String(result.cost) }))];
}

// ---- storage problems: what is asked and shown ----------------------------------------

/** What the GM is told when saving fails (RosterStore.sync's `error`). */
export const SAVE_PROBLEMS = {
  full: "Your latest changes are NOT saved: this browser's storage is full. They stay in this tab until you close it. "
    + "Use Export all rosters now to keep them as a file; deleting rosters or kept copies you no longer need frees space, "
    + "and saving resumes with your next change.",
  blocked: "Nothing is being saved: this browser does not let the page keep data (its storage is blocked or unavailable), "
    + "so your rosters last only until you close this tab. Use Export all rosters to keep them as a file.",
  frozen: "Saving is paused: the saved data is damaged and there is no room to set it aside, so saving now would overwrite it. "
    + "Download it below, then delete it to resume saving; Export all rosters keeps your work as a file meanwhile.",
};

/** The report of damaged saved data: which rosters, why, and where they went. */
export function damageMessage(parts) {
  const shown = parts.slice(0, 8).map((p) => `${p.label} (${p.reason})`);
  if (parts.length > shown.length) shown.push(`and ${parts.length - shown.length} more damaged part(s)`);
  const list = shown.join("; ");
  return `Some saved data could not be read: ${list}. `
    + (parts.some((p) => !p.kept) ? "There was no room to set it aside, so it was left where it was. "
      : "It was set aside, not deleted: see the kept copies below. ")
    + "Everything else was loaded.";
}

export const QUESTIONS = {
  conflict: (name) => ({
    title: `“${name}” was changed in another tab`,
    text: "This tab has changes to the same roster. Keep both saves this tab's version as a separate roster, so nothing is "
      + "overwritten; or drop this tab's changes and use the other tab's version.",
    choices: [["both", "Keep both"], ["theirs", "Use the other tab's version"]],
    cancel: "both",
  }),
  /** @param {string} name @param {string} source @param {number} left clashes after this one */
  clash: (name, source, left) => ({
    title: `You already have a roster called “${name}”`,
    text: `${source} holds a different roster of that name. Keep both adds it as a separate roster; Replace overwrites `
      + "your saved version with it (Undo brings yours back); "
      + (left ? "Skip leaves this one out; " : "")
      + "Cancel stops the import and changes nothing."
      + (left ? ` ${left} more roster(s) of the import have names you already use.` : ""),
    choices: [["both", "Keep both"], ["replace", "Replace"], ...(left ? [["skip", "Skip this one"]] : []), ["cancel", "Cancel"],
      ...(left ? [["both-all", `Keep both for all ${left + 1}`], ["replace-all", `Replace all ${left + 1}`]] : [])],
    cancel: "cancel",
  }),
  dropKept: {
    title: "Delete this kept copy?",
    text: "It is saved data that could not be read. Once deleted it cannot be brought back; download it first if you may need it.",
    choices: [["keep", "Keep it"], ["delete", "Delete"]],
    cancel: "keep",
  },
};

/** The kept copies of damaged data, each with Download and Delete buttons. */
export function keptNodes(kept) {
  return kept.map((k) => el("li", { "data-key": k.key }, `${k.label}, ${k.size} `,
    el("button", { type: "button", class: "md-button", "data-sucs": "kept-download", text: "Download", "aria-label": `Download ${k.label}` }), " ",
    el("button", { type: "button", class: "md-button", "data-sucs": "kept-delete", text: "Delete", "aria-label": `Delete the kept copy of ${k.label}` })));
}

/** Whether fields hold edits not yet committed to roster `r` (typed, no Enter yet); with
 *  apply, commit the valid ones to `r`. */
export function pendingEdits(root, r, apply) {
  let found = false;
  const take = (text, current, valid, set) => {
    if (text === "" || !valid(text) || text === String(current)) return;
    found = true;
    if (apply) set(text);
  };
  const whole = (low, high) => (t) => /^\d+$/.test(t) && Number(t) >= low && Number(t) <= high;
  const named = (t) => t.length > 0;
  take(root.querySelector(".sucs-name").value.trim().slice(0, RULES.max_name), r.name, named, (t) => { r.name = t; });
  take(root.querySelector(".sucs-limit").value.trim(), r.points_limit, whole(0, RULES.max_limit), (t) => { r.points_limit = Number(t); });
  root.querySelectorAll(".sucs-line").forEach((li) => {
    const line = r.units[Number(li.dataset.index)];
    if (!line) return;
    take(li.querySelector(".sucs-line-name").value.trim().slice(0, RULES.max_name), line.name, named, (t) => { line.name = t; });
    take(li.querySelector(".sucs-line-count").value.trim(), line.count, whole(1, RULES.max_count), (t) => { line.count = Number(t); });
  });
  return found;
}

/** Show the roster check (totals, limit, legality, warnings) in the app. */
export function showCheck(root, reply) {
  const $ = (sel) => root.querySelector(sel);
  if (!reply.ok) {
    $(".sucs-total").textContent = "?";
    $(".sucs-warnings").replaceChildren(el("li", { class: "sucs-illegal", text: `${reply.error.field}: ${reply.error.message}` }));
    return;
  }
  const res = reply.result;
  $(".sucs-total").textContent = String(res.total);
  $(".sucs-limit-out").textContent = res.points_limit ? String(res.points_limit) : "none";
  $(".sucs-left-label").textContent = res.over_limit ? "Over by" : "Left";
  $(".sucs-left").textContent = res.points_limit ? String(Math.abs(res.remaining)) : "-";
  $(".sucs-legal").textContent = res.legal ? "yes" : "no";
  root.dataset.legal = res.legal ? "yes" : "no";
  root.dataset.over = res.over_limit ? "yes" : "no";
  $(".sucs-warnings").replaceChildren(...warningNodes(res.warnings));
}

/** The printable cards of roster `r`, with totals when the check `costs` is known. */
export function showCards(root, r, costs) {
  root.querySelector(".sucs-cards-title").textContent = r.name;
  root.querySelector(".sucs-cards-total").textContent = costs
    ? `${costs.total} points${costs.points_limit ? ` of ${costs.points_limit}` : ""} · ${r.units.reduce((n, u) => n + u.count, 0)} units`
    : "";
  root.querySelector(".sucs-cards-grid").replaceChildren(...cardNodes(r, costs));
}

/** The app's computations (through the bridge) and timers keep root._busy true, as does
 *  the start until setStarting(false); waiting for the GM's answer to a question does not. */
export function busyTracker(root, bridge, dialog) {
  let inFlight = 0;
  let starting = true;
  const timers = new Map();
  const update = () => { root._busy = starting || inFlight > 0 || timers.size > 0; };
  update();
  return {
    timers,
    setStarting(value) { starting = value; update(); },
    async run(name, inputs) {
      inFlight += 1;
      update();
      try {
        return await bridge.run(root, name, inputs);
      } finally {
        inFlight -= 1;
        update();
      }
    },
    schedule(key, fn, ms) {
      clearTimeout(timers.get(key));
      timers.set(key, setTimeout(() => {
        timers.delete(key);
        Promise.resolve(fn()).catch((err) => bridge.runtimeFailed(root, err)).finally(update);
      }, ms));
      update();
    },
    async question(q) {
      const held = starting;
      starting = false;
      update();
      try {
        return await ask(dialog, q);
      } finally {
        starting = held;
        update();
      }
    },
  };
}
