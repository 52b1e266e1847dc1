"""The standard library's second archive in the browser: fetched on first import, once.

A module worker on a probe page (added to a copy of the built site) starts Pyodide from
the site's own files and gives it web/worker/stdlib.js's fetch, as the engine worker
does; then it imports modules that are not in the first archive.  The page's requests
show that the first visit's start needs only python_stdlib.zip and that the second
archive is fetched exactly once, by the first import that needs it (a synchronous
request from inside Python's import).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SiteServer
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>stdlib probe</title><script type="module" src="stdlib-probe.js"></script></head>
<body data-probe="running"></body></html>
"""
PAGE_JS = """const url = new URL("./stdlib-probe-worker.js", import.meta.url);
const worker = new Worker(url, { type: "module" });
const seen = [];
worker.onmessage = (e) => {
  seen.push(e.data);
  document.body.dataset.result = JSON.stringify(seen);
  if (e.data.phase !== "started") document.body.dataset.probe = "done";
};
"""
WORKER_JS = """import { loadPyodide } from "./pyodide/pyodide.mjs";
import { provideStdlib } from "./worker/stdlib.js";
try {
  const py = await loadPyodide();
  provideStdlib(py, { installFinder: true });
  const started = py.runPython("import os; os.path.exists('/lib/python_stdlib_later.zip')");
  const engineSide = py.runPython("import json, typing; json.__file__");
  self.postMessage({ phase: "started", started, engineSide });
  const files = py.runPython(`
import email.mime.text, json.tool, difflib
from email.message import EmailMessage
m = EmailMessage(); m["Subject"] = "later"
[email.mime.text.__file__, json.tool.__file__, m["Subject"],
 difflib.get_close_matches("appel", ["apple", "ape"])[0]]
`).toJs();
  self.postMessage({ phase: "imported", files });
} catch (err) {
  self.postMessage({ phase: "failed", error: String(err) });
}
"""


@pytest.fixture
def probe_site(site_server: SiteServer, tmp_path: Path) -> Iterator[SiteServer]:
    site = site_server.site
    probe = tmp_path / "site"
    shutil.copytree(site, probe)
    # the site has the engine worker bundled (tools/bundle.py): the probe takes the
    # source module, which imports nothing, at the path it has in web/
    (probe / "worker").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "web" / "worker" / "stdlib.js", probe / "worker" / "stdlib.js")
    (probe / "stdlib-probe.html").write_text(PAGE)
    (probe / "stdlib-probe.js").write_text(PAGE_JS)
    (probe / "stdlib-probe-worker.js").write_text(WORKER_JS)
    site_server.stop()
    site_server.site = probe
    site_server.start()
    yield site_server
    site_server.stop()
    site_server.site = site
    site_server.start()


def test_second_archive_fetched_on_first_import_only(page: Page, probe_site: SiteServer) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(probe_site.url + "stdlib-probe.html")
    deadline = time.monotonic() + 120
    while page.evaluate("() => document.body.dataset.probe") != "done":
        assert time.monotonic() < deadline, "the probe worker did not answer"
        page.wait_for_timeout(100)
    started, result = json.loads(page.evaluate("() => document.body.dataset.result"))
    assert started == {"phase": "started", "started": False,
                       "engineSide": "/lib/python314.zip/json/__init__.pyc"}, started
    assert result["phase"] == "imported", result
    email_file, tool_file, subject, match = result["files"]
    assert email_file == "/lib/python_stdlib_later.zip/email/mime/text.py"
    assert tool_file == "/lib/python_stdlib_later.zip/json/tool.py"
    assert (subject, match) == ("later", "apple")
    later = [u for u in requested if u.endswith("/pyodide/python_stdlib_later.zip")]
    assert len(later) == 1, requested
    assert any(u.endswith("/pyodide/python_stdlib.zip") for u in requested)
