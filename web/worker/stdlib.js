// The second half of the standard library (pyodide/python_stdlib_later.zip): every module
// the game does not import, fetched the first time one of them is imported.  The finder
// (tools/stdlib_finder.py, in python_stdlib.zip as _jabberwocky_stdlib) is installed
// right after Pyodide starts (a restored snapshot has it already) and calls
// jabberwockyFetchStdlib(path) from inside an import, which cannot wait: hence a
// synchronous request (allowed in a worker).  It goes through the service worker's cache
// once the site is installed, so it also works offline.

const LATER_URL = new URL("../pyodide/python_stdlib_later.zip", import.meta.url);

const INSTALL_FINDER = `
import _jabberwocky_stdlib
_jabberwocky_stdlib.install()
pass
`;

/** Let Python fetch the later archive into its file system (and install the finder
 *  unless a restored snapshot has it). */
export function provideStdlib(py, { installFinder }) {
  self.jabberwockyFetchStdlib = (path) => {
    const request = new XMLHttpRequest();
    request.open("GET", LATER_URL.href, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`${LATER_URL.pathname} answered HTTP ${request.status}`);
    py.FS.writeFile(path, new Uint8Array(request.response));
  };
  if (installFinder) py.runPython(INSTALL_FINDER);
}
