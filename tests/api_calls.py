"""Asking the page's facade as the worker does: JSON text in, JSON text out.

The engine tests that drive :class:`~jabberwocky.webapi.WebApi` share these two helpers
instead of each keeping its own copy.
"""

from __future__ import annotations

import json
from typing import Any

from jabberwocky.webapi import WebApi


def call(api: WebApi, kind: str, payload: Any = None) -> Any:
    """The result of a request; fails the test on an error answer."""
    reply = json.loads(api.handle(kind, json.dumps(payload if payload is not None else {})))
    assert "error" not in reply, reply
    return reply["result"]


def refused(api: WebApi, kind: str, payload: Any = None) -> dict[str, Any]:
    """The error of a request that must be refused (it has the documented four fields)."""
    reply = json.loads(api.handle(kind, json.dumps(payload if payload is not None else {})))
    assert "error" in reply, reply
    err: dict[str, Any] = reply["error"]
    assert set(err) == {"kind", "message", "code", "params"}
    return err
