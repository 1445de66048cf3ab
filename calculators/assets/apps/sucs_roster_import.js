// @ts-check
// The army builder's imports: files and share links are size- and depth-checked here,
// checked by the rules core, then every roster they hold is added; one whose name is
// taken by a different roster is asked about (each in turn), and one already saved
// exactly is opened instead of being added twice. An "?add=" link (from the unit cost
// builder or a published unit's row) adds one unit to the open roster.
import {
  RULES, countOf, HASH_KEY, ADD_PARAM, QUESTIONS, suffixed, textProblem, decodeShare, clone, shapeProblem, rosterDifference,
} from "./sucs_roster_lib.js";
import { replaceAddress } from "../site.js";
import { roomProblem, savedChars } from "./sucs_roster_room.js";

/**
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 * @typedef {{store: import("./sucs_roster_store.js").RosterStore, starter: Roster,
 *   preview: {show: (rosters: Roster[], source: string) => boolean, end: () => void},
 *   checkFile: (file: string) => Promise<any>,
 *   question: (q: {title: string, text: string, choices: string[][], cancel: string}) => Promise<string>,
 *   notice: (text: string, withUndo?: boolean) => void,
 *   showProblems: (title: string, problems: Array<{field: string, message: string}>) => void,
 *   switchTo: (id: string) => void,
 *   setUndo: (undo: {restore: () => void, id: string | null} | null) => void,
 *   openedAt: string,
 *   presetById: Map<string, any>,
 *   addLine: (line: Roster["units"][number]) => boolean}} View
 */

/** The import functions of one builder. @param {View} view */
export function importer({ store, starter, preview, checkFile, question, notice, showProblems, switchTo, setUndo, openedAt, presetById, addLine }) {
  /** Add every checked roster. One whose name is taken by a different roster is asked
   *  about (each in turn); one already saved exactly is not added twice (it is opened).
   *  @param {Roster[]} rosters @param {string} source */
  async function importRosters(rosters, source) {
    const plan = store.planImport(rosters, starter);
    let all = "";
    const items = [];
    let left = plan.filter((p) => p.kind === "clash").length;
    for (const p of plan) {
      let action = p.kind === "new" ? "add" : p.kind === "same" ? "open" : p.kind === "starter" ? "fill" : all;
      if (p.kind === "clash") {
        left -= 1;
        if (!action) {
          const mine = /** @type {import("./sucs_roster_store.js").Entry} */ (p.match).roster;
          const choice = await question(QUESTIONS.clash(mine.name, source, left, rosterDifference(mine, p.r)));
          if (choice === "cancel") { notice(`${source}: import cancelled; nothing was changed.`); return; }
          if (choice.endsWith("-all")) all = choice.slice(0, -4);
          action = choice.endsWith("-all") ? all : choice;
        }
        if (action === "both") action = "rename";
      }
      items.push({ r: p.r, match: p.match, action });
    }
    // all or nothing: an import storage has no room for is refused whole, before anything is saved
    const grows = items.reduce((n, { r, match, action }) => n + (action === "add" || action === "rename" ? savedChars(r)
      : (action === "replace" || action === "fill") && match ? Math.max(0, savedChars(r) - savedChars(match.roster)) : 0), 0);
    const full = roomProblem(store.area, grows, `${source} was not imported; nothing was changed`);
    if (full) { showProblems(full, []); return; }
    const { first, counts, replaced } = store.applyImport(items, (name) => suffixed(name, "(imported)"));
    if (first) switchTo(first);
    const parts = [counts.added ? `${countOf(counts.added, "roster")} added` : "",
      counts.replaced ? `replaced ${countOf(counts.replaced, "roster")}` : "",
      counts.same ? `${counts.same} already saved here (opened, not added again)` : "",
      counts.skipped ? `${counts.skipped} skipped` : ""].filter(Boolean);
    notice(`${source}: ${parts.join(", ") || "nothing to add"}.`, replaced.length > 0);
    if (replaced.length) {
      setUndo({ restore: () => replaced.forEach(({ entry, before }) => {
        if (store.get(entry.id)) Object.assign(entry, { roster: before, dirty: true });
      }), id: first });
    }
  }

  /** @param {string} text @param {string} source */
  async function importText(text, source) {
    const problem = textProblem(text);
    if (problem) {
      showProblems(`${source} was refused; nothing was changed.`, [{ field: "file", message: problem }]);
      return;
    }
    // shown at once, before the rules engine has checked it (nothing is saved until then)
    const shown = preview.show(readable(text), source);
    try {
      await checkAndImport(text, source);
    } finally {
      if (shown) preview.end();
    }
  }

  /** The rosters a received text holds, if the page can show them without the core
   *  (the core checks them fully before anything is saved), else []. @param {string} text
   *  @returns {Roster[]} */
  function readable(text) {
    /** @type {any} */
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return [];
    }
    const list = value && value.format === RULES.collection && Array.isArray(value.rosters) ? value.rosters : [value];
    const lim = { maxUnits: RULES.read_units, maxName: RULES.max_name };
    return list.length && list.length <= RULES.read_rosters && list.every((/** @type {unknown} */ r) => !shapeProblem(r, lim)) ? list : [];
  }

  /** @param {string} text @param {string} source */
  async function checkAndImport(text, source) {
    const reply = await checkFile(text);
    if (!reply.ok) {
      showProblems(`${source} was refused; nothing was changed.`, [reply.error]);
      return;
    }
    if (!reply.result.accepted) {
      showProblems(`${source} was refused; nothing was changed. Problems found:`, reply.result.problems);
      return;
    }
    showProblems("", []);
    await importRosters(reply.result.rosters, source);
  }


  // Links are read from the address the page was opened with (``openedAt``), once (a
  // start-up run again after a failure does not add twice), and dropped from the current
  // address, so a reload does not add again.
  const taken = new Set();

  /** The share link's text after "#roster=" in ``address``, or null; each link once.
   *  @param {string} address */
  function takeSharedLink(address) {
    const hash = new URL(address).hash.slice(1);
    if (!hash.startsWith(HASH_KEY) || taken.has(hash)) return null;
    taken.add(hash);
    if (window.location.hash.startsWith(`#${HASH_KEY}`)) replaceAddress(window.location.pathname + window.location.search);
    return hash.slice(HASH_KEY.length);
  }

  /** The unit in the address's "?add=", or null. It is in the query, not after "#":
   *  after a link is followed by Material's instant navigation, the page that linked here
   *  may still rewrite the "#" part (its anchor tracking). */
  function takeAddLink() {
    const value = new URL(openedAt).searchParams.get(ADD_PARAM);
    if (value === null || taken.has(ADD_PARAM)) return null;
    taken.add(ADD_PARAM);
    const url = new URL(window.location.href);
    url.searchParams.delete(ADD_PARAM);
    replaceAddress(url.pathname + url.search + url.hash);
    return value;
  }

  /** The JSON text a link carries, or null after saying plainly why it cannot be read.
   *  @param {string} packed @param {string} what */
  async function unpackLink(packed, what) {
    /** @type {string} */
    let text;
    try {
      text = await decodeShare(packed);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      showProblems(`The ${what} could not be opened: ${why}. Nothing was added; ask for the link again.`, []);
      return null;
    }
    if (textProblem(text)) {
      showProblems(`The ${what} could not be opened: it is cut off or damaged. Nothing was added; ask for the link again.`, []);
      return null;
    }
    return text;
  }

  /** A shared link: unpack it, have the core check it, add it (or open the same roster
   *  already saved, or ask when the name is taken), then drop it from the address. Read
   *  from the address the page was opened with, or from ``address`` (a link pasted into
   *  the address bar of a tab already showing the builder changes only the "#").
   *  @param {string} [address] */
  async function openSharedLink(address = openedAt) {
    const packed = takeSharedLink(address);
    if (packed === null) return;
    const text = await unpackLink(packed, "shared link");
    if (text !== null) await importText(text, "The shared link");
  }

  /** Show the share link the page was opened with at once, before the rules engine is up
   *  (openSharedLink then checks and imports it); nothing is taken or saved here. */
  async function previewSharedLink() {
    const hash = new URL(openedAt).hash.slice(1);
    if (!hash.startsWith(HASH_KEY) || taken.has(hash)) return;
    /** @type {string} */
    let text;
    try {
      text = await decodeShare(hash.slice(HASH_KEY.length));
    } catch {
      return; // said plainly by openSharedLink
    }
    if (!textProblem(text) && !taken.has(hash)) preview.show(readable(text), "The shared link");
  }

  /** An "Add to roster" link: a published unit by its id, or a unit packed like a share
   *  link (checked by the core as a one-unit roster), added to the open roster. */
  async function openAddLink() {
    const packed = takeAddLink();
    if (packed === null) return;
    const preset = presetById.get(packed);
    /** @type {Roster["units"][number] | null} */
    let line = preset ? { name: preset.name, count: 1, preset: preset.id, stats: clone(preset.stats) } : null;
    if (!line) {
      const text = await unpackLink(packed, "unit's link");
      if (text === null) return;
      let unit;
      try {
        unit = JSON.parse(text);
      } catch {
        unit = null;
      }
      const file = JSON.stringify({ format: RULES.format, version: RULES.version, name: "Added unit", points_limit: 0, units: [unit] });
      const reply = await checkFile(file);
      if (!reply.ok) { showProblems("The unit's link was refused; nothing was added.", [reply.error]); return; }
      if (!reply.result.accepted) {
        showProblems("The unit's link was refused; nothing was added. Problems found:", reply.result.problems);
        return;
      }
      line = reply.result.rosters[0].units[0];
    }
    const entry = store.get(store.active);
    if (!entry || !line) return;
    const before = clone(entry.roster);
    showProblems("", []);
    if (!addLine(line)) return; // refused: the notice says why
    notice(`Added ${line.name} to “${entry.roster.name}”.`, true);
    setUndo({ restore: () => { if (store.get(entry.id)) Object.assign(entry, { roster: before, dirty: true }); }, id: entry.id });
  }

  return { importText, openSharedLink, openAddLink, previewSharedLink };
}
