// WebAssembly patches of the engine worker, installed before Pyodide loads.

import { mark, progress } from "./progress.js";
import { urlOf } from "./site-cache.js";
import { compileNow } from "./compile.js";

const SMALL_MODULE = 1024; // bytes; Pyodide's own module and any real one are compiled as asked

/**
 * Pyodide's loader wraps every JavaScript function it puts into the WebAssembly table in
 * a tiny module of its own, compiled synchronously: ~260 compiles on every start (~18 ms
 * of this thread on a repeat visit), of only ~30 different modules (one per function
 * signature; the function itself is an import).  A compiled module is immutable, so the
 * same bytes can share one: small modules are compiled once per content.
 */
function shareSmallModules() {
  const Module = WebAssembly.Module;
  const compiled = new Map(); // module bytes (as a string) -> WebAssembly.Module
  const SharedModule = function Module_(bytes, ...rest) {
    if (!new.target) throw new TypeError("WebAssembly.Module must be called with new");
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : null;
    if (rest.length || !view || view.length > SMALL_MODULE) return new Module(bytes, ...rest);
    const key = String.fromCharCode.apply(null, view);
    let module = compiled.get(key);
    if (!module) {
      module = new Module(view);
      compiled.set(key, module);
    }
    return module;
  };
  SharedModule.prototype = Module.prototype;
  for (const name of ["customSections", "exports", "imports"]) SharedModule[name] = Module[name];
  WebAssembly.Module = SharedModule;
}

const MODULE_FILE = "pyodide.asm.wasm";

/**
 * Compile Pyodide's module from the moment its response arrives.  Pyodide fetches the
 * module as it begins to load, but compiles it only once pyodide.asm.mjs is in and
 * evaluated, ~0.2-0.3 s later on a cold loopback start: the bytes (or, on a first visit,
 * the brotli decoding, worker/brotli.js) wait meanwhile.  The compiling starts at once
 * instead; the response carries it (`jabberwockyCompiled`) to the instantiation below.
 * The compiling happens on the browser's background threads, the decoding on this one.
 */
function compileOnArrival() {
  if (typeof WebAssembly.compileStreaming !== "function") return;
  const fetchNext = self.fetch;
  self.fetch = async function (input, init) {
    const url = urlOf(input).split(/[?#]/)[0];
    if (prefetched && url === prefetched.url) {
      const early = await prefetched.response;
      prefetched = null;
      if (early) return early;
    }
    const response = await fetchNext(input, init);
    if (url.endsWith(MODULE_FILE) && response.ok && response.body && !response.bodyUsed) {
      compileNow(response);
    }
    return response;
  };
}

let prefetched = null; // {url, response: Promise<Response | null>}: prefetchModule's

/**
 * A repeat visit: Pyodide's module read from the site cache and compiled from the moment
 * the worker's modules are in, while the snapshot is read and build.json asked for
 * (`source(url)`: site-cache.js cachedEarly, null when there is no such copy).  Pyodide
 * asked for it only after both (~0.3 s later); its fetch then takes this response, and
 * the instantiation its compiled module.  Tagged like a first visit's decoded module: a
 * module that does not link (another build's) is fetched and compiled again as usual.
 */
export function prefetchModule(source) {
  if (typeof WebAssembly.compileStreaming !== "function") return;
  const url = new URL(`pyodide/${MODULE_FILE}`, self.location.href).href;
  const response = source(url).then((found) => {
    if (!found || !found.ok || !found.body) return null;
    found.jabberwockyModuleUrl = url;
    compileNow(found);
    return found;
  }, () => null);
  prefetched = { url, response };
}

/** Report when Pyodide's module is compiled and instantiated.  (Only the streaming call:
 *  Pyodide also instantiates a tiny helper module.)  A module compiled on arrival is
 *  instantiated from its compiled form.  A module decoded here from a first
 *  visit's brotli download (worker/brotli.js tags that response with the module's URL)
 *  that fails to compile is fetched and compiled once more as it is: Pyodide itself
 *  would not try again. */
function reportInstantiation() {
  if (typeof WebAssembly.instantiateStreaming !== "function") return;
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (source, imports, ...rest) {
    mark("instantiating");
    const instantiate = async (from) => {
      const response = await from;
      const compiled = response?.jabberwockyCompiled;
      if (!compiled) return original.call(this, response, imports, ...rest);
      const module = await compiled;
      return { module, instance: await WebAssembly.instantiate(module, imports) };
    };
    const promise = instantiate(source).catch(async (err) => {
      const url = (await source)?.jabberwockyModuleUrl;
      if (!url) throw err;
      return instantiate(self.fetch(url));
    });
    promise.then(() => {
      mark("wasm");
      progress(0.75, "loading.starting_python");
    }, () => {});
    return promise;
  };
}

export function installWasmPatches() {
  shareSmallModules();
  compileOnArrival();
  reportInstantiation();
}
