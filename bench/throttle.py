"""A small HTTP server that behaves like GitHub Pages over a slow link (for bench/firstvisit.py).

- **One shared pipe**: every byte of every response (headers included) goes through one
  token clock at ``rate`` bits a second, in 16 KB chunks, so parallel downloads share the
  bandwidth the way they share a home connection.
- **Latency**: each response waits ``latency`` seconds before its first byte (the time to
  the server and back; the browser's own request is not delayed again).
- **Compression as GitHub Pages serves it**: gzip (``Content-Encoding: gzip``, level 6)
  for text, JSON, JavaScript, the web app manifest, SVG, icons and ``.wasm`` when the
  browser accepts gzip; ``.zip``, ``.whl``, ``.png`` and anything else as they are.
- **Caching headers as GitHub Pages sends them**: ``Cache-Control: max-age=600``, an
  ``Expires`` ten minutes ahead, a strong ``ETag`` and a ``Last-Modified``, ``Vary:
  Accept-Encoding``; a request with a matching ``If-None-Match`` (or, without one, an
  ``If-Modified-Since`` not older than the file) gets ``304 Not Modified`` with no body.
  (GitHub Pages lets a site set none of these; seen on github.io responses:
  ``cache-control: max-age=600``, ``expires``, ``etag``, ``last-modified``.)

Every chunk sent is logged (time, bytes, request) so the benchmark can count what went over
the wire before a moment in the page's life, and which file was sent twice.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import mimetypes
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

CHUNK = 16 * 1024
MAX_AGE = 600
GZIP_TYPES = ("text/", "application/javascript", "application/json",
              "application/manifest+json", "image/svg+xml", "image/x-icon", "application/wasm")
TYPES = {
    ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
    ".json": "application/json", ".webmanifest": "application/manifest+json",
    ".html": "text/html", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png",
    ".whl": "application/zip", ".zip": "application/zip", ".ico": "image/x-icon",
    ".txt": "text/plain", ".gz": "application/gzip",
    # GitHub Pages sends a precompressed file as it is, with no Content-Encoding
    # (github.com/isaacs/github#611: .gz as application/octet-stream)
    ".br": "application/octet-stream",
}


def content_type(path: str) -> str:
    suffix = Path(path).suffix
    return TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def compressible(ctype: str) -> bool:
    return ctype.startswith(GZIP_TYPES)


@dataclass
class Sent:
    """One chunk on the wire."""

    at: float  # time.time()
    size: int
    request: int  # Request.number


@dataclass
class Request:
    number: int
    path: str
    status: int
    body: int = 0  # body bytes sent (compressed size when gzipped)
    headers: int = 0
    gzip: bool = False
    arrived: float = field(default_factory=time.time)  # when the request came in


@dataclass
class Pipe:
    """The shared link: a clock that each chunk advances by its time on the wire."""

    rate: float  # bytes a second
    free_at: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, size: int) -> float:
        """Reserve the link for ``size`` bytes; returns when they have gone through."""
        with self.lock:
            start = max(time.monotonic(), self.free_at)
            self.free_at = start + size / self.rate
            return self.free_at


@dataclass
class _File:
    raw: bytes
    gz: bytes | None
    etag: str
    ctype: str


class Site:
    """The files under one URL prefix, read (and gzipped) once."""

    def __init__(self, root: Path, prefix: str, mtime: float) -> None:
        self.root, self.prefix, self.mtime = root, prefix, mtime
        self._files: dict[str, _File] = {}
        self._lock = threading.Lock()

    def get(self, rel: str) -> _File | None:
        with self._lock:
            if rel in self._files:
                return self._files[rel]
            path = (self.root / rel).resolve()
            if not path.is_file() or self.root.resolve() not in path.parents:
                return None
            raw = path.read_bytes()
            ctype = content_type(rel)
            gz = gzip.compress(raw, 6, mtime=0) if compressible(ctype) else None
            entry = _File(raw, gz, '"' + hashlib.sha256(raw).hexdigest()[:20] + '"', ctype)
            self._files[rel] = entry
            return entry


class ThrottledServer:
    """Serves ``sites`` ({prefix: folder}) on 127.0.0.1 through one throttled pipe."""

    def __init__(self, sites: dict[str, Path], mbit: float, latency_ms: float) -> None:
        self.mtime = time.time() - 3600
        self.sites = [Site(root, prefix, self.mtime) for prefix, root in sites.items()]
        self.latency = latency_ms / 1000
        self.pipe = Pipe(mbit * 1e6 / 8)
        self.log: list[Sent] = []
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", 0), _handler(self))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> ThrottledServer:
        self.thread.start()
        return self

    def prepare(self) -> None:
        """Read (and gzip) every file now, so no visit waits for that."""
        for site in self.sites:
            for path in sorted(site.root.rglob("*")):
                if path.is_file():
                    site.get(path.relative_to(site.root).as_posix())

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def reset(self) -> None:
        with self._lock:
            self.log.clear()
            self.requests.clear()

    def set_link(self, mbit: float, latency_ms: float) -> None:
        self.pipe.rate = mbit * 1e6 / 8
        self.latency = latency_ms / 1000

    def new_request(self, path: str) -> Request:
        with self._lock:
            req = Request(len(self.requests), path, 0)
            self.requests.append(req)
            return req

    def record(self, req: Request, size: int) -> None:
        with self._lock:
            self.log.append(Sent(time.time(), size, req.number))

    def bytes_until(self, epoch_s: float) -> int:
        """Bytes sent (headers and bodies) up to ``epoch_s`` (time.time())."""
        with self._lock:
            return sum(s.size for s in self.log if s.at <= epoch_s)

    def total_bytes(self) -> int:
        with self._lock:
            return sum(s.size for s in self.log)

    def last_activity(self) -> float:
        with self._lock:
            return self.log[-1].at if self.log else 0.0

    def resolve(self, path: str) -> tuple[Site, str] | None:
        for site in self.sites:
            if path.startswith(site.prefix):
                rel = path[len(site.prefix):]
                return site, rel + "index.html" if rel == "" or rel.endswith("/") else rel
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a tab closed mid-download: nothing to report


def _handler(server: ThrottledServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, req: Request, data: bytes) -> None:
            for at in range(0, len(data), CHUNK):
                part = data[at:at + CHUNK]
                done = server.pipe.send(len(part))
                delay = done - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                self.wfile.write(part)
                server.record(req, len(part))

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def _answer(self, body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            req = server.new_request(path)
            time.sleep(server.latency)
            found = server.resolve(path)
            entry = found[0].get(found[1]) if found else None
            headers: list[tuple[str, str]] = []
            payload = b""
            if entry is None:
                req.status = 404
                payload = b"not found\n"
                headers.append(("Content-Type", "text/plain"))
            else:
                modified = email.utils.formatdate(found[0].mtime, usegmt=True) if found else ""
                headers += [("Cache-Control", f"max-age={MAX_AGE}"),
                            ("Expires", email.utils.formatdate(time.time() + MAX_AGE, usegmt=True)),
                            ("ETag", entry.etag), ("Last-Modified", modified),
                            ("Vary", "Accept-Encoding"), ("Content-Type", entry.ctype)]
                inm = self.headers.get("If-None-Match")
                ims = self.headers.get("If-Modified-Since")
                fresh = (entry.etag in [t.strip() for t in inm.split(",")] if inm else
                         bool(ims) and _not_older(ims, found[0].mtime if found else 0))
                if fresh:
                    req.status = 304
                else:
                    req.status = 200
                    use_gz = entry.gz is not None and "gzip" in self.headers.get(
                        "Accept-Encoding", "")
                    payload = entry.gz if use_gz and entry.gz is not None else entry.raw
                    req.gzip = use_gz
                    if use_gz:
                        headers.append(("Content-Encoding", "gzip"))
            if req.status != 304:
                headers.append(("Content-Length", str(len(payload))))
            reason = {200: "OK", 304: "Not Modified"}.get(req.status, "Not Found")
            head = f"HTTP/1.1 {req.status} {reason}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
            data = head.encode("latin-1") + (payload if body else b"")
            req.headers = len(head)
            req.body = len(payload) if body else 0
            try:
                self._send(req, data)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    return Handler


def _not_older(header: str, mtime: float) -> bool:
    try:
        since = email.utils.parsedate_to_datetime(header).timestamp()
    except (TypeError, ValueError):
        return False
    return int(mtime) <= since
