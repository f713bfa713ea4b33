"""``agenthost serve --transport http``: the streamable HTTP app at ``/mcp``,
guarded by Host/Origin checks (DNS rebinding) and an optional bearer token,
run by uvicorn.

Part of the MCP server (see ``agenthost.mcp_server``); like the other
``mcp_*`` modules it imports the MCP SDK, so only ``agenthost serve`` loads it.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import os
import socket
import sys
from typing import Any

from mcp.server.lowlevel.server import Server

from agenthost.plugins import split_names


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def security_settings(bind: str) -> Any:
    """Host/Origin checks against DNS rebinding: only names that reach this
    server are accepted in ``Host``, and only pages from them in ``Origin``."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = ["127.0.0.1", "localhost", "[::1]"]
    if not is_loopback(bind):
        if bind in ("0.0.0.0", "::", ""):
            hostname = socket.gethostname()
            names.append(hostname)
            try:
                names.extend(socket.gethostbyname_ex(hostname)[2])
            except OSError:
                pass
        else:
            names.append(f"[{bind}]" if ":" in bind else bind)
    names.extend(split_names(os.environ.get("AGENTHOST_ALLOWED_HOSTS")))
    names = list(dict.fromkeys(names))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*names, *(f"{n}:*" for n in names)],
        allowed_origins=[
            f"{scheme}://{n}{port}" for n in names for scheme in ("http", "https") for port in ("", ":*")
        ],
    )


class BearerTokenGuard:
    """ASGI wrapper: every request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "unauthorized: send Authorization: Bearer <token>"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b'Bearer realm="agenthost"'),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: Server[Any], bind: str, token: str | None) -> Any:
    app = server.streamable_http_app(
        streamable_http_path="/mcp", transport_security=security_settings(bind), host=bind
    )
    return BearerTokenGuard(app, token) if token else app


async def serve_http(server: Server[Any], bind: str, port: int, token: str | None) -> None:
    import uvicorn

    config = uvicorn.Config(
        http_app(server, bind, token),
        host=bind,
        port=port,
        log_config=None,  # our logging: stderr only
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    http = uvicorn.Server(config)

    async def announce() -> None:
        while not http.started:
            await asyncio.sleep(0.02)
        for srv in http.servers:
            for sock in srv.sockets:
                address, actual = sock.getsockname()[:2]
                shown = f"[{address}]" if ":" in address else address
                print(f"agenthost: serving MCP at http://{shown}:{actual}/mcp", file=sys.stderr, flush=True)
                return

    announcer = asyncio.create_task(announce())
    try:
        await http.serve()
    finally:
        announcer.cancel()
