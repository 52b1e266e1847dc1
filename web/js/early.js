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
})();
