// Wide tables scroll sideways inside Material's wrapper. A wrapper that actually
// scrolls becomes a named, focusable group, so the table can be scrolled from the
// keyboard too (WCAG 2.1.1; axe: scrollable-region-focusable). A group, not a region: a
// region is a landmark, and a phone page with several wide tables would have landmarks
// of one name (axe: landmark-unique), as the calculators' own scroll boxes (render.py). Re-checked when the
// page changes (instant navigation) and when a wrapper changes size (phone rotation).
(() => {
  const MARK = "data-tcr-scroll";
  // Every width is read first, then every change written: reading after a write would
  // lay the whole page out again for each table (a long task on a page of many tables).
  const update = (wraps) => {
    const scrolls = wraps.map((wrap) => wrap.scrollWidth > wrap.clientWidth + 1);
    wraps.forEach((wrap, i) => {
      if (scrolls[i] && !wrap.hasAttribute("tabindex")) {
        const caption = wrap.querySelector("caption");
        wrap.tabIndex = 0;
        wrap.setAttribute("role", "group");
        wrap.setAttribute("aria-label",
          (caption ? caption.textContent.trim() : "Table") + " (scrolls sideways)");
        wrap.setAttribute(MARK, "");
      } else if (!scrolls[i] && wrap.hasAttribute(MARK)) {
        ["tabindex", "role", "aria-label", MARK].forEach((name) => wrap.removeAttribute(name));
      }
    });
  };
  // A ResizeObserver reports every wrapper once when observed (and again on resizes).
  const observer = "ResizeObserver" in window
    ? new ResizeObserver((entries) => update(entries.map((entry) => entry.target)))
    : null;
  const scan = () => {
    const wraps = [...document.querySelectorAll(".md-typeset__scrollwrap")];
    if (observer) wraps.forEach((wrap) => observer.observe(wrap));
    else update(wraps);
  };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => setTimeout(scan, 0));
  } else {
    window.addEventListener("load", scan);
  }
})();
