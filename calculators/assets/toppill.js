// @ts-check
// Material's "Back to top" pill is fixed near the top of the window and shows while the
// page scrolls up: it must never sit over a calculator's controls (issue 43). While the
// pill's box overlaps a widget or an app, it is hidden (class calc-top-over; the CSS
// takes it out of sight and out of reach); it comes back once nothing is under it.

/** Whether two boxes overlap. */
function overlaps(/** @type {DOMRect} */ a, /** @type {DOMRect} */ b) {
  return a.top < b.bottom && a.bottom > b.top && a.left < b.right && a.right > b.left;
}

/** Hide the pill while any widget lies under it. */
export function placeTopPill() {
  const pill = /** @type {HTMLElement | null} */ (document.querySelector(".md-top"));
  if (!pill) return;
  const box = pill.getBoundingClientRect();
  const over = !pill.hidden && box.height > 0 &&
    [...document.querySelectorAll(".calc, .calc-app")].some((w) => overlaps(box, w.getBoundingClientRect()));
  pill.classList.toggle("calc-top-over", over);
}

let queued = false;
function queue() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; placeTopPill(); });
}

let watching = false;

/** Watch the scroll, the window's size and the pill itself (the theme shows and hides it);
 * once a page, however often the theme's instant navigation binds the widgets again. */
export function watchTopPill() {
  if (watching) { queue(); return; }
  watching = true;
  addEventListener("scroll", queue, { passive: true });
  addEventListener("resize", queue);
  const pill = document.querySelector(".md-top");
  if (pill) {
    new MutationObserver(queue).observe(pill, { attributes: true, attributeFilter: ["hidden", "data-md-state", "style"] });
    pill.addEventListener("transitionend", queue);
  }
  queue();
}
