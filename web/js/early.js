// Starts the engine worker the moment the page begins to load: a small classic script in
// the head runs as soon as it arrives (fetched first, at high priority), while the page's
// modules wait for the whole document, their imports and the stylesheet.
// engine.js adopts this worker (and the messages it sent meanwhile); if this script failed
// or did not run, engine.js starts its own.
//
// On a first visit (no service worker controls the page yet) it also starts the two big
// downloads, Pyodide's WebAssembly module and standard library, here and now, and hands
// each response's body to the worker as a stream (transferred, not copied; the worker's
// name says "early" so it waits for them).  The worker's own requests would begin only
// once its modules are in, ~0.4 s later over a slow HTTP/1.1 link (the page's modules
// take the browser's six connections first); a preload instead would leave the page a
// second copy of 13 MB and the worker a revalidation.
(function () {
  if (window.__jabberwocky) return; // engine.js ran first and has its own worker
  var EARLY_FILES = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];

  function canTransferStreams() {
    try {
      var stream = new ReadableStream();
      new MessageChannel().port1.postMessage(stream, [stream]);
      return true;
    } catch (err) {
      return false; // e.g. Safari: the worker fetches the files itself
    }
  }

  function handOver(worker, base) {
    EARLY_FILES.forEach(function (file) {
      var url = new URL(file, base).href;
      fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
        var headers = {};
        response.headers.forEach(function (value, name) {
          if (name === "content-type") headers[name] = value;
        });
        worker.postMessage({ type: "early", payload: { url: url, status: response.status, headers: headers, body: response.body } },
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
