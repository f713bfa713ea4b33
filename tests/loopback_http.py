"""Pieces shared by the loopback HTTP servers in the tests."""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler


def trickle(
    handler: BaseHTTPRequestHandler,
    size: int,
    delay: float,
    byte: bytes = b"a",
    headers: dict[str, str] | None = None,
) -> None:
    """Answer 200 with a ``size``-byte body sent one byte every ``delay`` seconds
    (a server that holds a client); a client that hangs up ends it quietly."""
    handler.send_response(200)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(size))
    handler.end_headers()
    try:
        for _ in range(size):
            handler.wfile.write(byte)
            handler.wfile.flush()
            time.sleep(delay)
    except OSError:
        pass
