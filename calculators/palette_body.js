// The header's light/dark switch: every page runs this inline right after the header
// (pages.py PALETTE_SCRIPT; a classic script, covered by the page's CSP hashes), while the
// rest of the page is still being parsed. It does what the theme's palette component
// did once its bundle ran (the component is not mounted: the form no longer names it):
// the scheme kept from an earlier visit, else the one the reader's system prefers, goes on
// <body> and is kept (under the theme's own key, which its script at the body's start
// reads); the switch shows the button for the other scheme; and a <meta name="color-scheme">
// tells the browser which scheme to draw its own parts in. The theme appended that meta
// and then set it while the whole page was there: the browser restyles the whole document
// for each change of it, so that was two whole-page restyles in the theme's long start-up
// task on every page. Here only the header exists yet. Instant navigation keeps the header
// and the meta (the theme keeps a color-scheme meta of the head), so this runs once a visit.
(() => {
  const form = document.querySelector("form[data-tcr-palette]");
  const inputs = form ? [...form.querySelectorAll('input[name="__palette"]')] : [];
  if (!inputs.length) return;
  const meta = document.createElement("meta");
  meta.name = "color-scheme";
  let current = 0;
  const show = (index) => {
    current = index;
    const input = inputs[index];
    const color = {};
    for (const key of ["media", "scheme", "primary", "accent"]) {
      const value = input.getAttribute(`data-md-color-${key}`);
      if (value === null) continue;
      color[key] = value;
      if (document.body.getAttribute(`data-md-color-${key}`) !== value) document.body.setAttribute(`data-md-color-${key}`, value);
    }
    inputs.forEach((each, i) => {
      const label = each.nextElementSibling;
      if (label instanceof HTMLElement) label.hidden = i !== index;
    });
    try { __md_set("__palette", { index, color }); } catch { /* storage blocked */ }
    // the scheme's own colour-scheme (the theme's stylesheets set it per scheme)
    meta.content = getComputedStyle(form.closest("header") || document.body).colorScheme;
  };
  let saved = null;
  try { saved = __md_get("__palette"); } catch { /* storage blocked or unreadable */ }
  const preferred = inputs.findIndex((input) => matchMedia(input.getAttribute("data-md-color-media") || "not all").matches);
  const start = saved && Number.isInteger(saved.index) ? saved.index : preferred;
  show(Math.max(0, Math.min(start, inputs.length - 1)));
  document.head.append(meta);
  // a label switches to the next scheme (its `for` names the next input)
  form.addEventListener("change", (event) => {
    const index = inputs.indexOf(event.target);
    if (index >= 0) show(index);
  });
  // Enter on the switch moves to the next scheme, as the theme's component did
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const next = inputs[(current + 1) % inputs.length];
    next.click();
    next.focus();
  });
})();
