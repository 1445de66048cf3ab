// Where this copy of the site lives, and names scoped to it.
// Two copies of the site can share one origin (GitHub Pages project sites all live on
// user.github.io, e.g. /tcr/ and /tcr-preview/): every storage key, IndexedDB database and
// cache name is scoped by the site's base path so that they keep their own data.

/** The site's root URL (this module lives in assets/calculators/). */
export const SITE_ROOT = new URL("../../", import.meta.url);

/** `name` scoped to this copy of the site, for localStorage keys and database names.
 * @param {string} name */
export function scopedKey(name) {
  return `tcr:${SITE_ROOT.pathname}:${name}`;
}

/** Put ``url`` in the address bar in place of the current entry, when it differs. Never
 * throws: WebKit refuses a burst of history changes ("more than N times per T seconds",
 * a SecurityError), and an address not updated must never stop a calculation.
 * @param {URL | string} url */
export function replaceAddress(url) {
  const href = new URL(String(url), location.href).href;
  if (href === location.href) return;
  try {
    history.replaceState(history.state, "", href);
  } catch {
    /* too many changes for now: the next edit writes the address again */
  }
}

/** Offer ``body`` as a file called ``filename`` (the one download helper of the site:
 * the session log, the exact-fraction tables and the apps' exports). */
export function download(/** @type {string} */ filename, /** @type {string} */ body, type = "application/json") {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
