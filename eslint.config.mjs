// ESLint flat config for the browser JavaScript of the site (calculators/assets) and
// the service worker template.
import js from "@eslint/js";
import globals from "globals";

export default [
  // calculators/assets/vendor: third-party code, kept as published
  { ignores: ["site/**", "build/**", "node_modules/**", ".venv/**", "calculators/assets/vendor/**"] },
  js.configs.recommended,
  {
    files: ["calculators/assets/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // test drivers and runners, and the build's bundle compiler, run under Node
    files: ["tests/**/*.mjs", "calculators/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.node },
  },
  {
    // Material theme override, and the inline scripts (runtime pages' and home page's heads,
    // the header's switch): classic scripts
    files: ["overrides/**/*.js", "calculators/runtime_head.js", "calculators/launch_head.js",
      "calculators/palette_body.js"],
    languageOptions: {
      ecmaVersion: 2023, sourceType: "script",
      // the theme's storage helpers, defined by its own inline script in every page's head
      globals: { ...globals.browser, __md_get: "readonly", __md_set: "readonly" },
    },
  },
];
