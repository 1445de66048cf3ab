// @ts-check
// The second entry module, right after calculators.js on a page with widgets or apps only
// (the post-build step puts it there): it hands the entry module the widgets' module
// before the page's DOMContentLoaded, so that every widget is bound before the page's
// load event, as if calculators.js imported widget.js itself. A page without widgets loads neither; one
// reached by instant navigation has calculators.js import widget.js then.
import { useWidgets } from "./calculators.js";
import * as widgets from "./widget.js";

useWidgets(widgets);
