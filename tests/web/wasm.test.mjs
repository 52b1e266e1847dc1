// web/worker/wasm.js: Pyodide's module is compiled from the moment its response arrives
// (not only once Pyodide asks to instantiate it), the instantiation then uses that
// compiled module, and a decoded first-visit module that fails to compile is fetched
// and compiled once more as it is.  Run on Node's own WebAssembly and fetch Response,
// with the worker's globals stood in (self, location, postMessage, fetch).

import { test, before } from "node:test";
import assert from "node:assert/strict";

// (module (func (export "f") (result i32) i32.const 42))
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type: () -> i32
  0x03, 0x02, 0x01, 0x00, // one function of that type
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f"
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b, // i32.const 42
]);
const NOT_A_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x0a, 0xff]);
const MODULE_URL = "https://example.test/pyodide/pyodide.asm.wasm";
const WASM = { "Content-Type": "application/wasm" };

const fetched = []; // URLs asked of the network, in order
let answers = new Map(); // URL -> the bytes the network answers (each fetch once)

before(async () => {
  globalThis.self = globalThis;
  globalThis.location = new URL("https://example.test/worker.js"); // where worker.js runs
  globalThis.postMessage = () => {}; // progress.js reports to the page
  globalThis.fetch = async (input) => {
    const url = String(input?.url ?? input);
    fetched.push(url);
    const bytes = answers.get(url);
    if (!bytes) return new Response("not found", { status: 404 });
    return new Response(bytes, { headers: WASM });
  };
  const { installWasmPatches } = await import("../../web/worker/wasm.js");
  installWasmPatches();
});

function reset(entries) {
  fetched.length = 0;
  answers = new Map(entries);
}

test("the module is compiled as soon as its response arrives, and instantiated from that", async () => {
  reset([[MODULE_URL, MODULE]]);
  const response = await globalThis.fetch(new URL(MODULE_URL)); // Pyodide passes a URL object
  assert.ok(response.jabberwockyCompiled, "the response carries its compiling");
  const compiled = await response.jabberwockyCompiled; // done before anyone instantiates it
  assert.ok(compiled instanceof WebAssembly.Module);

  const { module, instance } = await WebAssembly.instantiateStreaming(Promise.resolve(response), {});
  assert.equal(module, compiled, "the module compiled on arrival is the one instantiated");
  assert.equal(instance.exports.f(), 42);
  assert.deepEqual(fetched, [MODULE_URL], "fetched once");
});

test("other files are left alone", async () => {
  const other = "https://example.test/pyodide/python_stdlib.zip";
  reset([[other, MODULE]]);
  const response = await globalThis.fetch(other);
  assert.equal(response.jabberwockyCompiled, undefined);
  assert.equal(response.bodyUsed, false);
});

test("a response not compiled on arrival is instantiated as before", async () => {
  reset([]);
  const response = new Response(MODULE, { headers: WASM });
  const { instance } = await WebAssembly.instantiateStreaming(response, {});
  assert.equal(instance.exports.f(), 42);
});

test("a decoded module that does not compile is fetched and compiled once more", async () => {
  reset([[MODULE_URL, MODULE]]);
  // as worker/brotli.js hands it over (through the fetch wrapper): tagged with the URL
  // of the module itself
  const decoded = new Response(NOT_A_MODULE, { headers: WASM });
  decoded.jabberwockyModuleUrl = MODULE_URL;
  decoded.jabberwockyCompiled = WebAssembly.compileStreaming(decoded);
  decoded.jabberwockyCompiled.catch(() => {});
  const { instance } = await WebAssembly.instantiateStreaming(Promise.resolve(decoded), {});
  assert.equal(instance.exports.f(), 42);
  assert.deepEqual(fetched, [MODULE_URL], "the module itself, fetched once");
});

test("a module that does not compile, with nothing to fall back on, fails as before", async () => {
  reset([[MODULE_URL, NOT_A_MODULE]]);
  const response = await globalThis.fetch(MODULE_URL);
  await assert.rejects(WebAssembly.instantiateStreaming(Promise.resolve(response), {}), WebAssembly.CompileError);
  assert.deepEqual(fetched, [MODULE_URL], "no second download");
});

test("a repeat visit's module from the site cache is compiled before Pyodide asks, and used once", async () => {
  reset([[MODULE_URL, MODULE]]);
  const { prefetchModule } = await import("../../web/worker/wasm.js");
  const asked = [];
  prefetchModule(async (url) => {
    asked.push(url);
    return new Response(MODULE, { headers: WASM }); // the cached copy
  });
  assert.deepEqual(asked, [MODULE_URL], "looked up in the cache at once");
  const response = await globalThis.fetch(new URL(MODULE_URL)); // Pyodide's own fetch
  assert.deepEqual(fetched, [], "not fetched from the network");
  assert.ok(response.jabberwockyCompiled, "compiled on arrival from the cache");
  const { instance } = await WebAssembly.instantiateStreaming(Promise.resolve(response), {});
  assert.equal(instance.exports.f(), 42);
  await globalThis.fetch(MODULE_URL); // a second fetch goes to the network as before
  assert.deepEqual(fetched, [MODULE_URL]);
});

test("a cached module that does not link (another build's) is fetched again as usual", async () => {
  reset([[MODULE_URL, MODULE]]);
  const { prefetchModule } = await import("../../web/worker/wasm.js");
  prefetchModule(async () => new Response(NOT_A_MODULE, { headers: WASM }));
  const { instance } = await WebAssembly.instantiateStreaming(globalThis.fetch(MODULE_URL), {});
  assert.equal(instance.exports.f(), 42);
  assert.deepEqual(fetched, [MODULE_URL], "fetched once more after the cached copy failed");
});

test("no cached copy: Pyodide's fetch goes to the network", async () => {
  reset([[MODULE_URL, MODULE]]);
  const { prefetchModule } = await import("../../web/worker/wasm.js");
  prefetchModule(async () => null);
  const response = await globalThis.fetch(MODULE_URL);
  assert.ok(response.jabberwockyCompiled);
  assert.deepEqual(fetched, [MODULE_URL]);
});
