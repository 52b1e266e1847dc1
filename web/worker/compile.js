// Pyodide's module compiled ahead of Pyodide's asking (wasm.js on every visit, brotli.js
// on a first visit's decoded download): one place tags a response with its compiling.

import { mark } from "./progress.js";

/** Start compiling `response` (Pyodide's module) now and tag it with the promise
 *  (`jabberwockyCompiled`), which wasm.js's instantiation takes instead of compiling
 *  again. */
export function compileNow(response) {
  mark("compiling");
  response.jabberwockyCompiled = WebAssembly.compileStreaming(response);
  response.jabberwockyCompiled.catch(() => {}); // seen by the instantiation
}
