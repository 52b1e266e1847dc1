// Pyodide's module compiled ahead of Pyodide's asking (wasm.js on every visit, brotli.js
// on a first visit's decoded download): one place tags a response with its compiling.

import { mark } from "./progress.js";

/** Start compiling `response` (Pyodide's module) now and tag it with the promise
 *  (`jabberwockyCompiled`), which wasm.js's instantiation takes instead of compiling
 *  again.  Nothing where the browser has no streaming compile, or when the response is
 *  already compiling (a first visit's decoded module passes wasm.js's fetch too). */
export function compileNow(response) {
  if (typeof WebAssembly.compileStreaming !== "function" || response.jabberwockyCompiled) return;
  mark("compiling");
  response.jabberwockyCompiled = WebAssembly.compileStreaming(response);
  response.jabberwockyCompiled.catch(() => {}); // seen by the instantiation
}
