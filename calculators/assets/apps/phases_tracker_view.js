// @ts-check
// What the action dice tracker shows, always as text: the board (round, phase, dice left,
// whose turn, momentum, the last action and the log), the setup's buttons, the notice and
// error lines, and the storage box (saving refused, the browser's refusal to keep the
// site's data, the copies kept aside with their Download and Delete buttons). It shows the
// app's state (TrackerApp in phases_tracker.js) and changes none of it.

/** @typedef {import("./phases_tracker.js").TrackerApp} TrackerApp */

/** @param {TrackerApp} app @param {string} text */
export function showError(app, text) {
  const error = app.$(".pt-error");
  error.textContent = text;
  error.hidden = !text;
}

/** @param {TrackerApp} app @param {string} text */
export function notice(app, text) {
  app.$(".pt-notice").textContent = text;
  app.$(".pt-notice").hidden = !text;
}

/** @param {TrackerApp} app */
export function renderStorage(app) {
  const $ = (/** @type {string} */ sel) => app.$(sel);
  const kept = app.store.keptList();
  $(".pt-save-problem").textContent = app.saveProblem;
  $(".pt-save-problem").hidden = !app.saveProblem;
  $(".pt-persist-text").textContent = app.persistText;
  $(".pt-persist").hidden = !app.persistText;
  $(".pt-kept-box").hidden = !kept.length;
  $(".pt-kept").replaceChildren(...kept.map((k) => {
    const li = document.createElement("li");
    li.dataset.key = k.key;
    li.append(`${k.label}, ${k.size} `);
    for (const [action, label] of [["kept-download", "Download"], ["kept-delete", "Delete"]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "md-button";
      b.dataset.pt = action;
      b.textContent = label;
      li.append(b, " ");
    }
    return li;
  }));
}

/** The whole tracker: the setup, the storage box and (once there is a fight) the board.
 *  @param {TrackerApp} app */
export function render(app) {
  const $ = (/** @type {string} */ sel) => app.$(sel);
  const entry = app.current();
  $(".pt-setup").dataset.fight = entry ? "yes" : "no";
  app.root.dataset.phase = entry ? String(entry.view.phase) : "";
  $(".pt-board").hidden = !entry;
  $('[data-pt="set-pools"]').hidden = !entry;
  $('[data-pt="start"]').textContent = entry ? "Restart the fight" : "Start the fight";
  renderStorage(app);
  if (!entry) { // no fight: nothing of the last one stays behind in the hidden board
    $(".pt-log").replaceChildren();
    $(".pt-log-count").textContent = "0";
    return;
  }
  const view = entry.view;
  $(".pt-round").textContent = String(view.round);
  $(".pt-phase").textContent = String(view.phase_label);
  $(".pt-left").textContent = String(view.dice_left);
  $(".pt-turn").textContent = String(view.turn);
  $(".pt-next").textContent = String(view.next_action);
  $(".pt-extra-label").textContent = String(view.extra_label);
  const extra = $("#pt-extra");
  extra.disabled = view.extra_die !== "optional";
  if (view.extra_die === "automatic") extra.checked = true;
  else if (view.extra_die === "none") extra.checked = false;
  const left = Number.isInteger(view.dice_left) ? Math.max(0, Math.min(view.dice_left, 12)) : 0;
  $(".pt-dice").replaceChildren(...Array.from({ length: left }, () => {
    const span = document.createElement("span");
    span.className = "calc-die pt-die";
    return span;
  }));
  const goal = view.goal;
  $(".pt-goal-box").hidden = !goal;
  if (goal) $(".pt-goal").textContent = `${goal.marked} / ${goal.spaces}${goal.complete ? " (reached)" : ""}`;
  $(".pt-last").textContent = entry.text;
  $(".pt-log").replaceChildren(...app.history.slice(-app.maxHistory).reverse().map((e) => {
    const li = document.createElement("li");
    li.textContent = `Round ${String(e.round)} · ${e.text}`;
    return li;
  }));
  $(".pt-log-count").textContent = String(app.history.length);
  $('[data-pt="undo"]').disabled = app.history.length === 0;
}
