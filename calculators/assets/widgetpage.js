// @ts-check
// The second entry module, in the head of a page with widgets or apps only (the build puts
// it there): it hands the entry module the widgets' module before the page's
// DOMContentLoaded, so that every widget is bound before the page's load event, as if
// calculators.js imported widget.js itself. A page without widgets loads neither; one
// reached by instant navigation has calculators.js import widget.js then.
import { useWidgets } from "./calculators.js";
import * as widgets from "./widget.js";

useWidgets(widgets);
