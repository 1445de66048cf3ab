// Wide tables scroll sideways inside Material's wrapper. A wrapper that actually
// scrolls becomes a named, focusable region, so the table can be scrolled from the
// keyboard too (WCAG 2.1.1; axe: scrollable-region-focusable). Re-checked when the
// page changes (instant navigation) and when a wrapper changes size (phone rotation).
(() => {
  const MARK = "data-tcr-scroll";
  const update = (wrap) => {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    if (scrolls && !wrap.hasAttribute("tabindex")) {
      const caption = wrap.querySelector("caption");
      wrap.tabIndex = 0;
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label",
        (caption ? caption.textContent.trim() : "Table") + " (scrolls sideways)");
      wrap.setAttribute(MARK, "");
    } else if (!scrolls && wrap.hasAttribute(MARK)) {
      ["tabindex", "role", "aria-label", MARK].forEach((name) => wrap.removeAttribute(name));
    }
  };
  const observer = "ResizeObserver" in window
    ? new ResizeObserver((entries) => entries.forEach((entry) => update(entry.target)))
    : null;
  const scan = () => {
    for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
      update(wrap);
      if (observer) observer.observe(wrap);
    }
  };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => setTimeout(scan, 0));
  } else {
    window.addEventListener("load", scan);
  }
})();
