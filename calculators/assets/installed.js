// @ts-check
// The site as an app on a phone's home screen: the page read last is remembered, so that
// the app opens on it (the home page's head script, calculators/launch_head.js, reads it
// when the app is launched). Kept on every page view and whenever the page is hidden (the
// reader switches apps), so the address has the calculators' latest inputs too.
import { SITE_ROOT, scopedKey } from "./site.js";

/** The key launch_head.js reads (the same scoping: two copies of the site keep their own). */
const LAST_PAGE = scopedKey("last-page");

/** Whether this page is the site's 404 page (an address the site does not have): never
 * the page to open the app on. */
function notFound() {
  const entry = /** @type {any} */ (performance.getEntriesByType("navigation")[0]);
  const loaded = entry && new URL(entry.name).href.split("#")[0] === location.href.split("#")[0];
  const heading = document.querySelector(".md-content h1");
  return Boolean(loaded && entry.responseStatus >= 400) || Boolean(heading && /^404\b/.test(heading.textContent || ""));
}

/** Remember this page (its address from the site root, inputs and heading included). */
export function rememberPage() {
  try {
    const here = new URL(location.href);
    if (!here.href.startsWith(SITE_ROOT.href) || notFound()) return;
    localStorage.setItem(LAST_PAGE, here.href.slice(SITE_ROOT.href.length));
  } catch {
    /* storage blocked: the app opens on the home page */
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") rememberPage();
});
window.addEventListener("pagehide", rememberPage);
