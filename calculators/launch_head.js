// The head of the home page runs this inline, before anything else loads (pages.py
// LAUNCH_HEAD; a classic script, covered by the page's CSP hashes). The app on a phone's
// home screen starts at the home page with ?launch=app (the manifest's start_url,
// calculators/installable.py): opened as an app (standalone), it goes straight on to the
// page read last (kept by assets/installed.js under the key scopedKey("last-page") of
// site.js). Offline too: the service worker answers both pages from its copy. A tap on
// "Home" inside the app has no ?launch=app and stays home.
(() => {
  try {
    const here = new URL(location.href);
    if (here.searchParams.get("launch") !== "app") return;
    here.searchParams.delete("launch");
    const app = ["standalone", "fullscreen", "minimal-ui"].some((mode) => matchMedia(`(display-mode: ${mode})`).matches) ||
      navigator.standalone === true;
    const root = new URL("./", here);
    const kept = app ? localStorage.getItem(`tcr:${root.pathname}:last-page`) : null;
    const last = kept ? new URL(kept, root) : null;
    if (last && last.href.startsWith(root.href) && last.href !== root.href) {
      location.replace(last.href);
    } else {
      history.replaceState(history.state, "", here.href); // the plain home page's address
    }
  } catch { /* storage blocked: the app opens on the home page */ }
})();
