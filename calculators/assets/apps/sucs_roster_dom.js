// @ts-check
// The army builder's DOM (text only: every value from storage, files or links reaches the
// page through textContent): the roster's lines, the printable cards, the check, the unit
// editor built from the core's own field list, and the kept copies.
import { RULES, tn, weaponsText, statLine, featureList } from "./sucs_roster_lib.js";

/**
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 * @typedef {Roster["units"][number]} Line
 * @typedef {{cost: number, subtotal: number}} LineCost
 * @typedef {{name: string, kind: string, label: string, help?: string, placeholder?: string,
 *   min?: number, max?: number, choices: string[][]}} Field
 * @typedef {Map<string, {f: Field, control: HTMLInputElement | HTMLSelectElement, error: HTMLElement}>} EditorInputs
 * @typedef {(sel: string) => HTMLInputElement} $
 */

// ---- small DOM helpers (text only) ---------------------------------------------

/** An element with text-only content.
 *  @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {Record<string, any>} [props]
 *  @param {...(Node | string | null | undefined)} children @returns {HTMLElementTagNameMap[K]} */
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

/** The printable roster cards: one card per line, with its cost when known.
 *  @param {Roster} r @param {{units: LineCost[]} | null} costs */
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

/** One line of the roster: name and count inputs, cost, stats and its buttons. A count
 *  typed is handed to `onCount`; `countError` (a refused count, as typed, and why) is shown
 *  under the line.
 *  @param {Line} line @param {number} i
 *  @param {{cost: LineCost | undefined, preset: any, editing: boolean, onChange: () => void, onEdit: () => void,
 *    onCopy: () => void, onRemove: () => void, onCount?: (text: string) => void,
 *    countError?: {typed: string, message: string} | null}} handlers */
export function lineNode(line, i, { cost, preset, editing, onChange, onEdit, onCopy, onRemove, onCount, countError }) {
  const name = el("input", { type: "text", class: "sucs-line-name", value: line.name, maxlength: RULES.max_name,
    "aria-label": `Name of unit ${i + 1}`, autocomplete: "off" });
  name.addEventListener("change", () => {
    const text = name.value.trim();
    if (text) { line.name = text.slice(0, RULES.max_name); onChange(); } else name.value = line.name;
  });
  const errorId = `sucs-count-error-${i}`;
  const count = el("input", { type: "number", class: "sucs-line-count", value: countError ? countError.typed : line.count,
    min: 1, max: RULES.max_count, step: 1, inputmode: "numeric", "aria-label": `How many of unit ${i + 1}`,
    "aria-describedby": errorId, "aria-invalid": countError ? "true" : null });
  count.addEventListener("change", () => { if (onCount) onCount(count.value.trim()); });
  const error = el("p", { class: "calc-error sucs-count-error", id: errorId, hidden: !countError, text: countError ? countError.message : "" });
  return el("li", { class: `sucs-line${editing ? " sucs-line-editing" : ""}`, "data-index": i },
    el("div", { class: "sucs-line-main" }, name,
      el("label", { class: "sucs-line-count-label" }, "× ", count),
      el("span", { class: "sucs-line-cost", text: cost ? `${cost.cost} pts each · ${cost.subtotal} pts` : WAITING })),
    error,
    el("p", { class: "sucs-line-stats", text: statLine(line.stats) }),
    el("p", { class: "sucs-line-features", text: [preset ? `${preset.list_title}: ${preset.name}` : "custom unit",
      ...featureList(line.stats)].join(" · ") }),
    el("div", { class: "sucs-line-actions" },
      el("button", { type: "button", class: "md-button", text: editing ? "Editing" : "Edit", onclick: onEdit }),
      el("button", { type: "button", class: "md-button", text: "Copy", onclick: onCopy }),
      el("button", { type: "button", class: "md-button", text: "Remove", onclick: onRemove })));
}

/** The roster check's warnings as list items.
 *  @param {Array<{severity: "illegal" | "over_limit" | "advice", unit: number | null, message: string}>} warnings */
export function warningNodes(warnings) {
  const lead = { illegal: "Breaks a rule: ", over_limit: "Over the limit: ", advice: "Advice: " };
  return warnings.map((w) => el("li", { class: `sucs-${w.severity}` }, el("strong", { text: lead[w.severity] }),
    w.unit === null ? "" : `line ${w.unit + 1}: `, w.message));
}

// ---- the unit editor: a form built from the core's own field list ---------------------

/** Build the editor's fields into `form`; returns name -> {f, control, error}.
 *  @param {HTMLFormElement} form @param {Field[]} fields @param {() => void} onInput @returns {EditorInputs} */
export function buildEditorForm(form, fields, onInput) {
  /** @type {EditorInputs} */
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

/** Show one field's error (or none) next to it.
 *  @param {EditorInputs} inputs @param {{field: string, message: string} | null} problem */
export function markFieldError(inputs, problem) {
  for (const [name, { control, error }] of inputs) {
    const mine = problem && problem.field === name;
    error.hidden = !mine;
    error.textContent = mine ? problem.message : "";
    if (mine) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
}

/** @param {EditorInputs} inputs @param {Record<string, any>} stats */
export function fillEditor(inputs, stats) {
  for (const [name, { f, control }] of inputs) {
    if (control instanceof HTMLInputElement && f.kind === "bool") control.checked = Boolean(stats[name]);
    else control.value = stats[name] === undefined || stats[name] === null ? "" : String(stats[name]);
  }
  markFieldError(inputs, null);
}

/** @param {EditorInputs} inputs */
export function readEditor(inputs) {
  /** @type {Record<string, unknown>} */
  const stats = {};
  for (const [name, { f, control }] of inputs) {
    if (control instanceof HTMLInputElement && f.kind === "bool") stats[name] = control.checked;
    else if (f.kind === "int") {
      const text = control.value.trim();
      stats[name] = /^[-+]?\d+$/.test(text) ? parseInt(text, 10) : text;
    } else stats[name] = control.value;
  }
  return stats;
}

/** The cost breakdown table's rows.
 *  @param {{breakdown: Array<{key: string, points: number, label: string, detail: string, points_text: string}>,
 *    rounded: boolean, cost: number}} result */
export function breakdownRows(result) {
  return [...result.breakdown
    .filter((t) => t.points || t.key === "base" || t.key === "weapon0")
    .map((t) => el("tr", {}, el("th", { scope: "row", text: t.label }), el("td", { text: t.detail }), el("td", { text: t.points_text }))),
  el("tr", { class: "sucs-breakdown-total" }, el("th", { scope: "row", text: "Total" }),
    el("td", { text: result.rounded ? "extra cost rounded up" : "" }), el("td", { text: String(result.cost) }))];
}

/** The kept copies of damaged data, each with Download and Delete buttons.
 *  @param {Array<{key: string, label: string, size: string}>} kept */
export function keptNodes(kept) {
  return kept.map((k) => el("li", { "data-key": k.key }, `${k.label}, ${k.size} `,
    el("button", { type: "button", class: "md-button", "data-sucs": "kept-download", text: "Download", "aria-label": `Download ${k.label}` }), " ",
    el("button", { type: "button", class: "md-button", "data-sucs": "kept-delete", text: "Delete", "aria-label": `Delete the kept copy of ${k.label}` })));
}

/** Whether fields hold edits not yet committed to roster `r` (typed, no Enter yet); with
 *  apply, commit the valid ones to `r`. */
/** @param {HTMLElement} root @param {Roster} r @param {boolean} apply */
export function pendingEdits(root, r, apply) {
  let found = false;
  /** @type {$} */
  const $ = (sel) => /** @type {HTMLInputElement} */ (root.querySelector(sel));
  /** @param {string} text @param {unknown} current @param {(t: string) => boolean} valid @param {(t: string) => void} set */
  const take = (text, current, valid, set) => {
    if (text === "" || !valid(text) || text === String(current)) return;
    found = true;
    if (apply) set(text);
  };
  /** @param {number} low @param {number} high */
  const whole = (low, high) => (/** @type {string} */ t) => /^\d+$/.test(t) && Number(t) >= low && Number(t) <= high;
  const named = (/** @type {string} */ t) => t.length > 0;
  take($(".sucs-name").value.trim().slice(0, RULES.max_name), r.name, named, (t) => { r.name = t; });
  take($(".sucs-limit").value.trim(), r.points_limit, whole(0, RULES.max_limit), (t) => { r.points_limit = Number(t); });
  root.querySelectorAll(".sucs-line").forEach((item) => {
    const li = /** @type {HTMLElement} */ (item);
    /** @type {$} */
    const inLine = (sel) => /** @type {HTMLInputElement} */ (li.querySelector(sel));
    const line = r.units[Number(li.dataset.index)];
    if (!line) return;
    take(inLine(".sucs-line-name").value.trim().slice(0, RULES.max_name), line.name, named, (t) => { line.name = t; });
    take(inLine(".sucs-line-count").value.trim(), line.count, whole(1, RULES.max_count), (t) => { line.count = Number(t); });
  });
  return found;
}

/** Show the roster check (totals, limit, legality, warnings) in the app.
 *  @param {HTMLElement} root @param {any} reply */
export function showCheck(root, reply) {
  /** @type {$} */
  const $ = (sel) => /** @type {HTMLInputElement} */ (root.querySelector(sel));
  if (!reply.ok) {
    $(".sucs-total").textContent = "?";
    $(".sucs-warnings").replaceChildren(el("li", { class: "sucs-illegal", text: reply.error.message }));
    return;
  }
  const res = reply.result;
  const unknown = (/** @type {unknown} */ value) => value === null || value === undefined;
  $(".sucs-total").textContent = unknown(res.total) ? WAITING : String(res.total);
  $(".sucs-limit-out").textContent = res.points_limit ? String(res.points_limit) : "none";
  $(".sucs-left-label").textContent = res.over_limit ? "Over by" : "Left";
  $(".sucs-left").textContent = !res.points_limit ? "-"
    : !unknown(res.remaining) ? String(Math.abs(res.remaining))
      : res.over_limit ? `at least ${res.known - res.points_limit}` : WAITING;
  // legal only once the rules engine has checked every rule; before, a roster over its
  // limit is known not to be, and any other is being checked
  const checking = unknown(res.legal) || (res.provisional && res.legal);
  $(".sucs-legal").textContent = checking ? CHECKING : res.legal ? "yes" : "no";
  root.dataset.legal = checking ? "checking" : res.legal ? "yes" : "no";
  root.dataset.over = res.over_limit ? "yes" : "no";
  root.dataset.checked = res.provisional ? "provisional" : "core";
  $(".sucs-warnings").replaceChildren(...(res.provisional
    ? [el("li", { class: "sucs-pending", text: "Totals from the published units' costs; every rule is checked, with what "
      + "to change, once the rules engine has started." })]
    : warningNodes(res.warnings)));
}

/** What a value the rules engine has not worked out yet says. */
export const WAITING = "waiting for the calculator";
/** What the legality says until the rules engine has checked the roster. */
export const CHECKING = "checking…";

/** The printable cards of roster `r`, with totals when the check `costs` is known.
 *  @param {HTMLElement} root @param {Roster} r @param {any} costs */
export function showCards(root, r, costs) {
  /** @type {$} */
  const $ = (sel) => /** @type {HTMLInputElement} */ (root.querySelector(sel));
  $(".sucs-cards-title").textContent = r.name;
  const models = r.units.reduce((n, u) => n + u.count, 0);
  $(".sucs-cards-total").textContent = costs
    ? `${costs.total ?? WAITING} points${costs.points_limit ? ` of ${costs.points_limit}` : ""} · ${models} units`
    : "";
  // a printed roster that is over its limit or breaks a rule says so on the page
  const warning = $(".sucs-cards-warning");
  /** @type {string[]} */
  const lines = [];
  if (costs && costs.over_limit) lines.push(`OVER THE POINTS LIMIT: ${costs.total ?? `at least ${costs.known}`} points of ${costs.points_limit}.`);
  if (costs && costs.legal === false) {
    lines.push("NOT A LEGAL ROSTER.", ...(costs.warnings || []).filter((/** @type {any} */ w) => w.severity === "illegal")
      .map((/** @type {any} */ w) => `${w.unit === null ? "" : `Line ${w.unit + 1}: `}${w.message}`));
  }
  if (costs && costs.legal !== false && costs.legal !== true) lines.push("Not yet checked by the rules engine.");
  warning.textContent = lines.join(" ");
  warning.hidden = !lines.length;
  $(".sucs-cards-grid").replaceChildren(...cardNodes(r, costs));
}
