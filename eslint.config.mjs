// ESLint (flat config) for the front end: the page's modules, the engine worker, the
// service worker and the one classic script; and the Node.js scripts of the build (tools/)
// and of the tests that run in Pyodide under Node.js (tests/pyodide/).
// Run by `python3 build.py test`.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["_site/**", "node_modules/**", ".cache/**", ".venv/**", "e2e/**", "bench/**"] },
  js.configs.recommended,
  {
    files: ["web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-eval": "error",
    },
  },
  {
    files: ["web/worker.js", "web/worker/**/*.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["web/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["web/js/early.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tools/**/*.mjs", "tests/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
