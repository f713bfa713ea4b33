"""The SSRF guard for the browser (``ssrf_guard = true`` in ``[plugins.browser]``).

A session's browser context sends all its http(s) traffic through a small
forward proxy on loopback (``proxy={"server": ..., "bypass": "<-loopback>"}``,
so loopback addresses go through it too). The proxy checks every request with
``agenthost.net.NetGuard`` (``[net] allow`` applies; cloud metadata addresses
are always blocked) and connects to the address it checked, so nothing the
page does gets around the guard: navigations, redirect hops (which
Playwright's route handlers never see), frames, subresources, fetch, and
WebSockets; and no second DNS lookup can swap the address after the check.
A refused request is answered with 403 (plain http) or a refused tunnel
(https), and reported to the session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agenthost.errors import Denied, InvalidArguments, ToolFailure

if TYPE_CHECKING:
    from agenthost.net import NetGuard

_HOP_HEADERS = frozenset({"proxy-connection", "proxy-authorization", "connection", "keep-alive"})
_MAX_HEAD = 64 * 1024


class GuardProxy:
    """A forward proxy that lets through only what ``guard`` allows.

    :param on_refused: called with (url, reason) for each refused request
    """

    def __init__(self, guard: NetGuard, on_refused: Callable[[str, str], None]) -> None:
        self.guard = guard
        self.on_refused = on_refused
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def start(self) -> str:
        if self._server is None:
            self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0, limit=_MAX_HEAD)
        return self.url

    async def aclose(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=5)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        request_line, *header_lines = head.split("\r\n")
        method, target, version = request_line.split(" ", 2)
        if method.upper() == "CONNECT":
            host, _, port_text = target.rpartition(":")
            port = int(port_text)
            url = f"https://{host.strip('[]')}" + ("" if port == 443 else f":{port}")
        else:
            parts = urlsplit(target)
            if parts.scheme != "http" or not parts.hostname:
                await _answer(writer, 400, "the guard proxy takes absolute http:// URLs only")
                return
            host, port, url = parts.hostname, parts.port or 80, target
        try:
            addresses = await self.guard.resolve(host, port)
        except (Denied, InvalidArguments) as e:  # BlockedURL, UnsupportedURL
            self.on_refused(url, str(e))
            await _answer(writer, 403, f"refused by the SSRF guard: {e}")
            return
        except ToolFailure as e:  # the name does not resolve: not a refusal
            await _answer(writer, 502, str(e))
            return
        upstream = await _connect(addresses, port)
        if upstream is None:
            await _answer(writer, 502, f"could not connect to {host}:{port}")
            return
        up_reader, up_writer = upstream
        try:
            if method.upper() == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                path = urlsplit(target)._replace(scheme="", netloc="").geturl() or "/"
                kept = [
                    line
                    for line in header_lines
                    if line and line.split(":", 1)[0].strip().lower() not in _HOP_HEADERS
                ]
                # one request per connection: the browser may send the next one elsewhere
                lines = [f"{method} {path} {version}", *kept, "Connection: close", "", ""]
                up_writer.write("\r\n".join(lines).encode("latin-1"))
            pipes = {
                asyncio.ensure_future(_pipe(reader, up_writer)),
                asyncio.ensure_future(_pipe(up_reader, writer)),
            }
            try:
                await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for pipe in pipes:
                    pipe.cancel()
        finally:
            up_writer.close()


async def _connect(
    addresses: list[str], port: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    for address in addresses:
        try:
            return await asyncio.wait_for(asyncio.open_connection(address, port), timeout=30)
        except (OSError, TimeoutError):
            continue
    return None


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        with contextlib.suppress(Exception):
            if writer.can_write_eof():
                writer.write_eof()


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    body = f"<!doctype html><title>{status} {reason}</title><p>{_escape(text)}</p>".encode()
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    await writer.drain()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
