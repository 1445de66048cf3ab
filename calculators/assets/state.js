// @ts-check
// One calculator widget's state: what it is doing and which inputs the figures on screen
// answer. Every module reads and writes it through `state(root)`, so that a result shown in
// place (a whole fight's answers as they sharpen, a comparison, an error) has one owner.
// The page's own record of it for CSS and screen readers is the root's data attributes
// (status, busy, refining, pending), which widget.js sets from this state.

/** @typedef {import("./protocol.js").Reply} Reply */

export class WidgetState {
  constructor() {
    /** bound once: a second bind of the same root does nothing */
    this.bound = false;
    /** the page the widget was bound on (instant navigation can leave an old page's
     * widget listening briefly: it must not touch the new page) */
    this.path = "";
    /** field -> text as typed, for a value the form cannot hold (sent as received, so that
     * the core names the problem) */
    /** @type {Record<string, unknown>} */
    this.overrides = {};
    /** setup A of pin-and-compare, or null */
    /** @type {Record<string, unknown> | null} */
    this.pinned = null;
    /** the inputs (JSON) the figures on screen answer, or null when they answer none of the
     * inputs on screen (the build's figures under a share link's inputs, a comparison) */
    /** @type {string | null} */
    this.shown = null;
    /** the reply whose figures are on screen, when worked out here */
    /** @type {Reply | null} */
    this.shownReply = null;
    /** the inputs (JSON) last sent to be worked out */
    this.computed = "";
    /** the pinned setup (JSON, "null" for none) last sent with them */
    this.computedPinned = "null";
    /** the result object on screen (read by hand-on links and the summary) */
    /** @type {any} */
    this.result = null;
    /** a computation (or a refinement) of this widget is under way */
    this.running = false;
    /** inputs changed while it ran: work out the latest next */
    this.dirty = false;
    /** running, or waiting for the typing to pause (tests and benchmarks read this as
     * "everything the widget started is finished" when false) */
    this.busy = false;
    /** the typing pause's timer (0: none) */
    this.timer = 0;
    /** the number of the last request: an answer to an older one is not shown */
    this.asked = 0;
    /** the widget has answered live once (going live reports nothing) */
    this.live = false;
    /** a Roll pressed before the runtime was up, waiting for it */
    this.rollWaiting = false;
  }
}

/** @type {WeakMap<HTMLElement, WidgetState>} */
const states = new WeakMap();

/** The state of a widget (made on first use). Its `busy`, `running`, `bound` and `result`
 * are also readable on the root as `_busy`, `_running`, `_bound` and `_result` (read-only),
 * as an app's are: the tests and benchmarks wait on them and read them. */
export function state(/** @type {HTMLElement} */ root) {
  let s = states.get(root);
  if (!s) {
    const made = new WidgetState();
    states.set(root, made);
    Object.defineProperties(root, {
      _busy: { get: () => made.busy, configurable: true },
      _running: { get: () => made.running, configurable: true },
      _bound: { get: () => made.bound, configurable: true },
      _result: { get: () => made.result, configurable: true },
    });
    s = made;
  }
  return s;
}
