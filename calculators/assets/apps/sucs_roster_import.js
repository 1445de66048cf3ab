// @ts-check
// The army builder's imports: files and share links are size- and depth-checked here,
// checked by the rules core, then every roster they hold is added; one whose name is
// taken by a different roster is asked about (each in turn), and one already saved
// exactly is opened instead of being added twice.
import { HASH_KEY, QUESTIONS, suffixed, textProblem, decodeShare } from "./sucs_roster_lib.js";
import { replaceAddress } from "../site.js";

/**
 * @typedef {import("./sucs_roster_store.js").Roster} Roster
 * @typedef {{store: import("./sucs_roster_store.js").RosterStore,
 *   checkFile: (file: string) => Promise<any>,
 *   question: (q: {title: string, text: string, choices: string[][], cancel: string}) => Promise<string>,
 *   notice: (text: string, withUndo?: boolean) => void,
 *   showProblems: (title: string, problems: Array<{field: string, message: string}>) => void,
 *   switchTo: (id: string) => void,
 *   setUndo: (undo: {restore: () => void, id: string | null} | null) => void}} View
 */

/** The import functions of one builder. @param {View} view */
export function importer({ store, checkFile, question, notice, showProblems, switchTo, setUndo }) {
  /** Add every checked roster. One whose name is taken by a different roster is asked
   *  about (each in turn); one already saved exactly is not added twice (it is opened).
   *  @param {Roster[]} rosters @param {string} source */
  async function importRosters(rosters, source) {
    const plan = store.planImport(rosters);
    let all = "";
    const items = [];
    let left = plan.filter((p) => p.kind === "clash").length;
    for (const p of plan) {
      let action = p.kind === "new" ? "add" : p.kind === "same" ? "open" : all;
      if (p.kind === "clash") {
        left -= 1;
        if (!action) {
          const choice = await question(QUESTIONS.clash(/** @type {any} */ (p.match).roster.name, source, left));
          if (choice === "cancel") { notice(`${source}: import cancelled; nothing was changed.`); return; }
          if (choice.endsWith("-all")) all = choice.slice(0, -4);
          action = choice.endsWith("-all") ? all : choice;
        }
        if (action === "both") action = "rename";
      }
      items.push({ r: p.r, match: p.match, action });
    }
    const { first, counts, replaced } = store.applyImport(items, (name) => suffixed(name, "(imported)"));
    if (first) switchTo(first);
    const parts = [counts.added ? `${counts.added} roster(s) added` : "",
      counts.replaced ? `replaced ${counts.replaced} roster(s)` : "",
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


  /** A shared link: unpack it, have the core check it, add it (or open the same roster
   *  already saved, or ask when the name is taken), then drop it from the address. */
  async function openSharedLink() {
    const hash = window.location.hash.slice(1);
    if (!hash.startsWith(HASH_KEY)) return;
    replaceAddress(window.location.pathname + window.location.search);
    /** @type {string} */
    let text;
    try {
      text = await decodeShare(hash.slice(HASH_KEY.length));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      showProblems(`The shared link could not be opened: ${why}. Nothing was added; ask for the link again.`, []);
      return;
    }
    if (textProblem(text)) {
      showProblems("The shared link could not be opened: it is cut off or damaged. Nothing was added; ask for the link again.", []);
      return;
    }
    await importText(text, "The shared link");
  }

  return { importText, openSharedLink };
}
