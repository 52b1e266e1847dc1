"""Locked down: a strict Content-Security-Policy, no inline script, no HTML from data.

- The built index.html carries the CSP in a <meta> tag before any script; scripts come
  from the site only ('self' plus 'wasm-unsafe-eval'); no inline script, no inline event
  handler, no inline style attribute.
- The front end never writes HTML from strings (innerHTML and friends) and never evals;
  the engine has no eval/exec.
- A full game in Chromium reports no 'securitypolicyviolation' event (and the listener
  does catch one when an inline script or eval is tried).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer
from playwright.sync_api import Page
from pwa_helpers import fast_prefs, open_game, play_to_the_end, set_storage

ROOT = Path(__file__).resolve().parent.parent
SCRIPT_SRC = {"'self'", "'wasm-unsafe-eval'"}
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push({directive: e.violatedDirective, blocked: e.blockedURI,
                               sample: e.sample, source: e.sourceFile, line: e.lineNumber});
});
"""


class Scan(HTMLParser):
    """The tags of a page, in order, with their attributes and whether they have text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline_script = False
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_script = True


def policy(html: str) -> tuple[int, dict[str, list[str]]]:
    scan = Scan()
    scan.feed(html)
    for index, (tag, attrs) in enumerate(scan.tags):
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == \
                "content-security-policy":
            directives: dict[str, list[str]] = {}
            for part in (attrs.get("content") or "").split(";"):
                words = part.split()
                if words:
                    directives[words[0]] = words[1:]
            return index, directives
    raise AssertionError("index.html has no Content-Security-Policy <meta> tag")


def test_csp_meta_is_strict(site_dir: Path) -> None:
    html = (site_dir / "index.html").read_text(encoding="utf-8")
    index, csp = policy(html)
    scan = Scan()
    scan.feed(html)
    first_script = next(i for i, (tag, _) in enumerate(scan.tags) if tag == "script")
    assert index < first_script, "the CSP must come before the first script"
    assert set(csp["script-src"]) == SCRIPT_SRC, csp["script-src"]
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert "base-uri" in csp
    for directive, sources in csp.items():
        for bad in ("'unsafe-inline'", "'unsafe-eval'", "*", "data:", "http:", "https:"):
            if directive in ("img-src",) and bad == "data:":
                continue
            assert bad not in sources, f"{directive} allows {bad}"
    assert not scan.inline_script, "index.html has an inline <script>"
    for tag, attrs in scan.tags:
        if tag == "script":
            src = attrs.get("src") or ""
            assert src and not re.match(r"^[a-z]+:|^//", src), f"script src {src!r}"
        handlers = [name for name in attrs if name.startswith("on")]
        assert not handlers, f"<{tag}> has inline event handlers {handlers}"
        assert "style" not in attrs, f"<{tag}> has an inline style attribute"
        for name in ("href", "src", "action"):
            assert not (attrs.get(name) or "").strip().lower().startswith("javascript:")


HTML_SINKS = re.compile(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|"
                        r"\beval\s*\(|new\s+Function\s*\(|setTimeout\s*\(\s*['\"`]|"
                        r"createContextualFragment")


@pytest.mark.parametrize("folder", ["web"])
def test_front_end_writes_no_html_and_evals_nothing(folder: str) -> None:
    found = []
    for path in sorted((ROOT / folder).rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HTML_SINKS.search(line) and not line.lstrip().startswith("//"):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "HTML/eval sinks in the front end:\n" + "\n".join(found)


def test_engine_has_no_eval_or_exec() -> None:
    found = []
    for path in sorted((ROOT / "src" / "jabberwocky").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(?<![\w.])(eval|exec|compile)\s*\(", line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "eval/exec in the engine:\n" + "\n".join(found)


def violations(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__cspViolations")
    return found


def test_no_csp_violation_during_a_full_game(page: Page, site_server: SiteServer) -> None:
    page.add_init_script(LISTEN)
    set_storage(page, site_server.url, fast_prefs())
    open_game(page, site_server.url, "#seed=csp-full-game&players=3&bots=random")
    assert violations(page) == []
    final = play_to_the_end(page)
    assert final["phase"] == "game-over" and final["winners"]
    assert final["round"] == final["rounds"]
    for action in ("scores", "help"):  # open the dialogs that render text too
        button = page.query_selector(f"[data-action='{action}']:visible")
        if button is not None:
            button.click()
            page.keyboard.press("Escape")
    assert violations(page) == [], violations(page)


@pytest.mark.allow_console_errors
def test_the_policy_is_enforced(page: Page, site_server: SiteServer) -> None:
    """The listener above is not vacuous: an inline script is refused and reported.

    (eval cannot be tried from here: code run by the test through DevTools is exempt.)"""
    page.add_init_script(LISTEN)
    page.goto(site_server.url + "#seed=csp-enforced&players=3&bots=random")  # no need to wait
    ran = page.evaluate("""() => {
        window.__inlineRan = false;
        const s = document.createElement("script");
        s.textContent = "window.__inlineRan = true";
        document.body.append(s);
        return window.__inlineRan;
    }""")
    assert ran is False
    page.wait_for_timeout(200)
    directives = {v["directive"] for v in violations(page)}
    assert directives & {"script-src", "script-src-elem"}, violations(page)
