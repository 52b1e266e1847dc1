// Starts the engine worker the moment the page begins to load: a small classic script in
// the head runs as soon as it arrives (fetched first, at high priority), while the page's
// modules wait for the whole document, their imports and the stylesheet.
// engine.js adopts this worker (and the messages it sent meanwhile); if this script failed
// or did not run, engine.js starts its own.
(function () {
  if (window.__jabberwocky) return; // engine.js ran first and has its own worker
  try {
    var worker = new Worker(new URL("../worker.js", document.currentScript.src), { type: "module", name: "jabberwocky" });
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
  // A first visit (no service worker controls the page yet): ask for Pyodide's two big
  // files now.  The worker's own requests for them come ~1.5 s later on a slow link (its
  // modules and Pyodide's must arrive first); they are then answered from the HTTP cache
  // (or join the download in flight) instead of starting it.  With a service worker, the
  // files come from its cache and nothing is asked for here.
  try {
    if (!(navigator.serviceWorker && navigator.serviceWorker.controller)) {
      ["../pyodide/pyodide.asm.wasm", "../pyodide/python_stdlib.zip"].forEach(function (rel) {
        var link = document.createElement("link");
        link.rel = "preload";
        link.as = "fetch";
        link.crossOrigin = "anonymous";
        link.href = new URL(rel, document.currentScript.src).href;
        document.head.appendChild(link);
      });
    }
  } catch (err) {
    // the worker asks for them itself
  }
})();
