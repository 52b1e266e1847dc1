// Starts the engine worker the moment the page begins to load: a small classic script in
// the head runs as soon as it arrives (fetched first, at high priority), while the page's
// modules wait for the whole document, their imports and the stylesheet.
// engine.js adopts this worker (and the messages it sent meanwhile); if this script failed
// or did not run, engine.js starts its own.
//
// On a first visit (no service worker controls the page yet) it also starts the two big
// downloads, Pyodide's WebAssembly module and standard library (both brotli-compressed:
// 2.74 MB instead of 3.55 MB gzipped, 0.61 MB instead of 0.88 MB; the worker decodes
// them), here and now, and hands each
// response's body to the worker as a stream (transferred, not copied; the worker's name
// says "early" so it waits for them).  The worker's own requests would begin only
// once its modules are in, ~0.4 s later over a slow HTTP/1.1 link (the page's modules
// take the browser's six connections first); a preload instead would leave the page a
// second copy of 13 MB and the worker a revalidation.
(function () {
  if (window.__jabberwocky) return; // engine.js ran first and has its own worker
  // [file fetched, the file the worker asks for, its encoding]: both come
  // brotli-compressed (decoded in the worker)
  var EARLY_FILES = [
    ["pyodide/pyodide.asm.wasm.br", "pyodide/pyodide.asm.wasm", "br"],
    ["pyodide/python_stdlib.zip.br", "pyodide/python_stdlib.zip", "br"],
  ];

  function canTransferStreams() {
    try {
      var stream = new ReadableStream();
      new MessageChannel().port1.postMessage(stream, [stream]);
      return true;
    } catch (err) {
      return false; // e.g. Safari: the worker fetches the files itself
    }
  }

  // Whether Cache Storage holds a site cache of this game: then the worker reads the files
  // from there (a reload that bypassed the service worker, or one that has not taken the
  // page yet).
  function siteCached() {
    try {
      return caches.keys().then(function (names) {
        return names.some(function (name) { return name.indexOf("jabberwocky-site-") === 0; });
      }, function () { return false; });
    } catch (err) {
      return Promise.resolve(false);
    }
  }

  function handOver(worker, base) {
    // The responses are kept: in Chromium a transferred body stops once its Response
    // has been garbage-collected (seen over a slow link: the module stalled at 4 KB).
    var kept = window.__jabberwockyEarlyDownloads = [];
    var cached = siteCached();
    EARLY_FILES.forEach(function (early) {
      var url = new URL(early[1], base).href;
      cached.then(function (yes) {
        if (yes) throw new Error("cached");
        return fetch(new URL(early[0], base).href, { credentials: "same-origin" });
      }).then(function (response) {
        if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
        kept.push(response);
        var headers = {};
        response.headers.forEach(function (value, name) {
          if (name === "content-type") headers[name] = value;
        });
        worker.postMessage({ type: "early", payload: { url: url, encoding: early[2], status: response.status, headers: headers, body: response.body } },
          [response.body]);
      }).catch(function () {
        worker.postMessage({ type: "early", payload: { url: url, failed: true } }); // it fetches the file itself
      });
    });
  }

  try {
    var sw = navigator.serviceWorker;
    var first = !(sw && sw.controller) && typeof fetch === "function" && canTransferStreams();
    var base = new URL("../", document.currentScript.src);
    var worker = new Worker(new URL("worker.js", base), { type: "module", name: first ? "jabberwocky early" : "jabberwocky" });
    if (first) handOver(worker, base);
    var held = [];
    var errors = [];
    var hold = function (event) { held.push(event.data); };
    var fail = function (event) {
      if (event.preventDefault) event.preventDefault();
      errors.push(event.message || "it could not be loaded");
    };
    worker.addEventListener("message", hold);
    worker.addEventListener("error", fail);
    window.__jabberwockyEarlyWorker = {
      worker: worker,
      /** Hand the worker over: the held messages and errors, and no more holding. */
      adopt: function () {
        worker.removeEventListener("message", hold);
        worker.removeEventListener("error", fail);
        delete window.__jabberwockyEarlyWorker;
        return { worker: worker, held: held, errors: errors };
      },
    };
  } catch (err) {
    // engine.js starts the worker itself
  }
})();
