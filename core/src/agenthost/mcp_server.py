"""``agenthost serve``: every registered tool over MCP, on stdio or streamable
HTTP at ``/mcp``.

The MCP SDK is imported only by the ``mcp_*`` modules (it takes over a second
to import): this one (the service binding MCP connections to host sessions,
the server, stdio and the command), ``mcp_frontend`` (asking the person
through elicitation) and ``mcp_http`` (the HTTP app, its bearer token and
Host/Origin checks). The low-level ``Server`` is used so tools are listed with
agenthost's own JSON schemas and annotations, and results carry our content,
structured content and ``isError``.

Protocol era: agenthost speaks the handshake era (``initialize``), the one
every MCP client in use speaks, because it is the era with sessions,
server-to-client requests (elicitation, roots) and ``list_changed``
notifications. ``server/discover`` is answered "method not found", so
clients that probe the 2026 era fall back to the handshake.

One MCP connection (a stdio pipe, an HTTP ``Mcp-Session-Id``) is one host
``Session``: its background processes, browser and todo list belong to that
client alone and are released when the connection ends.
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import logging
import os
import sys
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from agenthost import __version__
from agenthost.formats import definition, result_message
from agenthost.host import Host, Session
from agenthost.mcp_frontend import McpFrontend, connection_of, current_request
from agenthost.mcp_http import is_loopback, serve_http
from agenthost.plugins import split_names
from agenthost.results import ToolResult

log = logging.getLogger("agenthost.serve")

ROOTS_TIMEOUT_S = 10.0


# -- the service: hosts, sessions, listing and calling ------------------------


@dataclass(eq=False)
class Binding:
    """One MCP connection's host session."""

    host: Host
    session: Session
    connection: Any


@dataclass(eq=False)
class HostEntry:
    host: Host
    connections: set[Any] = field(default_factory=set)


class McpService:
    """Turns MCP requests into host calls; one host per workspace, one host
    session per MCP connection."""

    def __init__(
        self,
        workspace: str | None,
        config: str | None = None,
        plugins: list[str] | None = None,
        patterns: list[str] | None = None,
    ) -> None:
        self.explicit_workspace = workspace
        self.config = config
        self.plugins = plugins
        self.patterns = patterns or []
        self.hosts: dict[Path, HostEntry] = {}
        self._host_lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- which tools are served

    def serves(self, name: str) -> bool:
        return not self.patterns or any(fnmatch.fnmatchcase(name, p) for p in self.patterns)

    def tool_names(self, host: Host) -> list[str]:
        return sorted(n for n in host.tools if self.serves(n))

    # -- hosts

    async def open_host(self, root: Path) -> HostEntry:
        async with self._host_lock:
            entry = self.hosts.get(root)
            if entry is not None:
                return entry
            self._loop = asyncio.get_running_loop()
            # Loading plugins may block (imports, mounted MCP servers): keep the
            # event loop answering meanwhile.
            host = await asyncio.to_thread(Host, root, self.config, self.plugins)
            await host.start()
            entry = HostEntry(host)
            host.registry.listeners.append(lambda added, removed: self._tools_changed(entry, added, removed))
            self.hosts[root] = entry
            log.info("serving %d tools from %s", len(self.tool_names(host)), root)
            return entry

    async def aclose(self) -> None:
        entries = list(self.hosts.values())
        self.hosts.clear()
        await asyncio.gather(*(e.host.aclose() for e in entries), return_exceptions=True)

    async def workspace_for(self, ctx: Any) -> Path:
        if self.explicit_workspace is not None:
            root = Path(self.explicit_workspace).expanduser()
            if not root.is_dir():
                raise MCPError(code=types.INVALID_REQUEST, message=f"workspace {root} is not a folder")
            return root.resolve()
        given = await self._client_root(ctx)
        source = "the client's first root"
        if given is None:
            given, source = Path.cwd(), "the current folder"
        root = given.resolve()
        if root == Path(root.anchor) or root == Path.home().resolve():
            raise MCPError(
                code=types.INVALID_REQUEST,
                message=f"agenthost will not use {root} ({source}) as its workspace unless told to: "
                "start it with --workspace DIR",
            )
        return root

    async def _client_root(self, ctx: Any) -> Path | None:
        caps = connection_of(ctx).client_capabilities
        if caps is None or caps.roots is None:
            return None
        try:
            result = await ctx.session.send_request(
                types.ListRootsRequest(), types.ListRootsResult, request_read_timeout_seconds=ROOTS_TIMEOUT_S
            )
        except Exception as e:
            log.warning("roots/list failed (%s); using the current folder", e)
            return None
        for root in result.roots:
            url = urlparse(str(root.uri))
            if url.scheme == "file":
                path = Path(url2pathname(unquote(url.path)))
                if path.is_dir():
                    return path
        return None

    # -- sessions

    async def bind(self, ctx: Any) -> Binding:
        connection = connection_of(ctx)
        binding = connection.state.get("agenthost")
        if binding is not None:
            return binding  # type: ignore[no-any-return]
        lock = connection.state.setdefault("agenthost_lock", asyncio.Lock())
        async with lock:
            binding = connection.state.get("agenthost")
            if binding is not None:
                return binding  # type: ignore[no-any-return]
            entry = await self.open_host(await self.workspace_for(ctx))
            session = entry.host.session(frontend=McpFrontend(connection))
            await session.start()
            binding = Binding(entry.host, session, connection)
            entry.connections.add(connection)
            connection.state["agenthost"] = binding

            async def release() -> None:
                entry.connections.discard(connection)
                await session.aclose()
                log.debug("session %s ended with its MCP connection", session.id)

            connection.exit_stack.push_async_callback(release)
            return binding

    # -- handlers

    async def list_tools(self, ctx: Any, params: Any) -> dict[str, Any]:
        binding = await self.bind(ctx)
        host = binding.host
        await asyncio.to_thread(host.registry.load_pending)  # mounted servers start here, off the loop
        return {"tools": [definition(host.tools[n], "mcp") for n in self.tool_names(host)]}

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        binding = await self.bind(ctx)
        if not self.serves(params.name):
            result = ToolResult.failure(
                "unknown_tool", f"unknown tool {params.name!r}; tools/list shows the tools served here"
            )
        else:
            token = current_request.set(ctx)
            try:
                result = await binding.session.call(params.name, params.arguments or {})
            finally:
                current_request.reset(token)
        return result_message(result, "mcp")

    # -- list_changed

    def _tools_changed(self, entry: HostEntry, added: list[str], removed: list[str]) -> None:
        if not any(self.serves(n) for n in [*added, *removed]) or self._loop is None:
            return
        for connection in list(entry.connections):
            self._soon(connection)

    def _soon(self, connection: Any) -> None:
        loop = self._loop
        assert loop is not None

        def start() -> None:
            task = loop.create_task(self._notify(connection))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            start()
        else:  # a sync tool (in a worker thread) or a plugin's own thread changed the tools
            loop.call_soon_threadsafe(start)

    @staticmethod
    async def _notify(connection: Any) -> None:
        try:
            await connection.send_tool_list_changed()
        except Exception as e:
            log.debug("tools/list_changed not delivered: %s", e)


# -- the MCP server ------------------------------------------------------------


class _AgenthostServer(Server[Any]):
    def create_initialization_options(
        self, notification_options: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        # The HTTP session manager calls this without options; the tool list
        # does change at run time (JS tools, mounted servers).
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), *args, **kwargs
        )


async def _no_discover(ctx: Any, params: Any) -> Any:
    raise MCPError(code=types.METHOD_NOT_FOUND, message="Method not found", data="server/discover")


def build_server(service: McpService) -> Server[Any]:
    server = _AgenthostServer(
        "agenthost",
        version=__version__,
        instructions="Tools from agenthost plugins. Each call runs under the host's policy, "
        "workspace confinement and audit log.",
        # dicts, not result models: the wire shapes are built once, by agenthost.formats
        on_list_tools=service.list_tools,  # type: ignore[arg-type]
        on_call_tool=service.call_tool,  # type: ignore[arg-type]
    )
    server.add_request_handler("server/discover", types.RequestParams, _no_discover)
    server.middleware = []  # the OpenTelemetry span per message is unused here
    return server


# -- transports ------------------------------------------------------------------


async def serve_stdio(service: McpService, server: Server[Any]) -> None:
    from mcp.server.runner import serve_loop
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await serve_loop(
            server,
            read_stream,
            write_stream,
            lifespan_state={},
            init_options=server.create_initialization_options(),
        )


# -- the command -------------------------------------------------------------------


def serve(args: argparse.Namespace) -> int:
    from agenthost.cli import UsageError

    warnings.filterwarnings("ignore", module=r"mcp(\.|$)")
    token = getattr(args, "token", None) or os.environ.get("AGENTHOST_TOKEN") or None
    if args.transport == "http" and not is_loopback(args.host) and not token:
        raise UsageError(
            f"binding {args.host} exposes the tools to the network: give a bearer token "
            "with --token or AGENTHOST_TOKEN (or bind 127.0.0.1)"
        )
    service = McpService(
        workspace=args.workspace,
        config=args.config,
        plugins=split_names(args.plugins) or None,
        patterns=split_names(args.tools) or None,
    )
    server = build_server(service)

    async def run() -> None:
        try:
            if args.workspace is not None:  # load now: errors show at once, first listing is fast
                await service.open_host(await service.workspace_for(None))
            if args.transport == "stdio":
                await serve_stdio(service, server)
            else:
                await serve_http(server, args.host, args.port, token)
        finally:
            await asyncio.shield(service.aclose())

    return _run(run(), service)


def _run(coro: Any, service: McpService) -> int:
    """Run the server; SIGTERM/SIGINT end it after every session is released."""
    import signal

    async def guarded() -> None:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, _stop, task, service)
            except (NotImplementedError, RuntimeError):
                pass
        await coro

    try:
        asyncio.run(guarded())
    except (asyncio.CancelledError, KeyboardInterrupt):
        pass
    _exit_if_stuck()
    return 0


_stopping: set[asyncio.Task[Any]] = set()


def _stop(task: asyncio.Task[Any], service: McpService) -> None:
    task.cancel()
    if not _stopping:
        stopper = asyncio.get_running_loop().create_task(_release_then_exit(task, service))
        _stopping.add(stopper)


async def _release_then_exit(task: asyncio.Task[Any], service: McpService) -> None:
    """A stdio server's reader thread blocks on stdin until the client writes
    or closes it, so cancellation alone may never finish: release every
    session (and the processes their tools started) here, then leave."""
    try:
        await asyncio.wait_for(service.aclose(), 15)
    except Exception as e:
        log.warning("closing sessions on signal: %s", e)
    await asyncio.sleep(1)  # room for the normal unwinding to finish first
    if not task.done():
        _exit_if_stuck(force=True)


def _exit_if_stuck(force: bool = False) -> None:
    # The stdio reader thread may still block on a read of stdin; it owns
    # nothing, so it must not hold the process open.
    stuck = any(
        t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()
    )
    if force or stuck:
        sys.stderr.flush()
        os._exit(0)
