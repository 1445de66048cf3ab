// Helpers of the SUCS army builder (sucs_roster.js): text-only DOM building, the
// localStorage store, share-link encoding, downloads and the unit card text.
export const STORE_KEY = "sucs-rosters:v1";
export const STORE_SCHEMA = "sucs-roster-store";
export const FORMAT = "sucs-roster";
export const COLLECTION = "sucs-rosters";
export const VERSION = 1;
export const HASH_KEY = "roster=";

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

export function loadStylesheet() {
  const href = new URL("sucs_roster.css", import.meta.url).href; // next to this module
  if (![...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) {
    document.head.append(el("link", { rel: "stylesheet", href }));
  }
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

// ---- storage --------------------------------------------------------------------

export function readStore() {
  let raw = null;
  try {
    raw = localStorage.getItem(STORE_KEY);
  } catch {
    return { store: null, problem: "this browser does not allow saving" };
  }
  if (raw === null) return { store: null, problem: null };
  try {
    const data = JSON.parse(raw);
    if (!data || data.schema !== STORE_SCHEMA || data.version !== VERSION || !Array.isArray(data.rosters)) {
      throw new Error("it is not a roster store this page knows");
    }
    const rosters = data.rosters.filter((e) => e && typeof e.id === "string" && e.roster
      && typeof e.roster === "object" && Array.isArray(e.roster.units));
    return { store: { schema: STORE_SCHEMA, version: VERSION, active: data.active, rosters }, problem: null };
  } catch (err) {
    // keep the damaged copy aside rather than overwrite it
    try { localStorage.setItem(`${STORE_KEY}:damaged`, raw); } catch { /* full */ }
    return { store: null, problem: `the saved rosters could not be read (${err.message}); a copy was kept` };
  }
}

export function writeStore(store) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(store));
    return true;
  } catch {
    return false;
  }
}

// ---- share links ----------------------------------------------------------------

export function encodeShare(roster) {
  const bytes = new TextEncoder().encode(JSON.stringify(roster));
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeShare(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

export function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a", { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function fileName(name) {
  const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${slug || "roster"}.sucs.json`;
}

// ---- the unit card text -----------------------------------------------------------

export function weaponsText(s) {
  const main = Array(s.targets).fill(String(s.attack)).join(",");
  return s.alt_weapons ? `${main} or ${s.alt_weapons}` : main;
}

export function statLine(s) {
  const speed = `${s.must_move ? "(" : ""}${s.speed}"${s.must_move ? ")" : ""}`;
  const range = s.range ? `${s.min_range ? "(" : ""}${s.range}"${s.min_range ? ")" : ""}` : "0";
  const parts = [`Q${s.quality} (${11 - s.quality}+)`, `Attack ${weaponsText(s)}`, `Armor ${s.armor}`,
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

