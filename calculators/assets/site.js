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
