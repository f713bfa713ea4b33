"""Connections to other MCP servers, run on a private event loop thread.

Tool registration is synchronous (``register_tools``) and may happen inside or
outside a running event loop, so the client sessions live on a loop of their
own; a call from the host's loop is bridged with ``run_coroutine_threadsafe``,
and cancelling the caller cancels the remote call (the SDK then sends
``notifications/cancelled``).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from agenthost.errors import ToolFailure, Unavailable
from agenthost.plugins import one_line
from agenthost.results import Block, ImageBlock, JsonBlock, TextBlock
from agenthost.tool import Tool

if TYPE_CHECKING:
    from agenthost_mcp.settings import McpSettings, ServerSettings

log = logging.getLogger("agenthost.mcp")
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    return f"mcp__{_UNSAFE.sub('_', server)}__{_UNSAFE.sub('_', tool)}"[:64]


class ClientLoop:
    """An event loop on a daemon thread, stopped by ``close``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="agenthost-mcp-client", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Any) -> Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


class Mount:
    """One server: its connection (kept open by a task on the client loop)
    and its tools."""

    def __init__(
        self, name: str, settings: ServerSettings, timeout_s: float, level: str, runner: ClientLoop
    ) -> None:
        self.name = name
        self.runner = runner
        self.closed = False
        self.settings = settings
        self.timeout_s = timeout_s
        self.level = level
        self.client: Any = None
        self.tools: dict[str, Tool] = {}
        self.error: str | None = None
        self._stop: asyncio.Event | None = None
        self._runner: asyncio.Task[None] | None = None
        self._lock: asyncio.Lock | None = None
        self.on_list_changed: Callable[[], Any] | None = None

    def _client(self) -> Any:
        from mcp import Client, StdioServerParameters

        s = self.settings
        handler = self._on_message
        if s.command is not None:
            params = StdioServerParameters(command=s.command, args=s.args, env=s.env or None, cwd=s.cwd)
            return Client(params, message_handler=handler)
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        assert s.url is not None
        transport = streamable_http_client(
            s.url, http_client=create_mcp_http_client(headers=s.headers or None)
        )
        return Client(transport, message_handler=handler)

    async def _on_message(self, message: Any) -> None:
        import mcp_types as types

        root = getattr(message, "root", message)
        if isinstance(root, types.ToolListChangedNotification) and self.on_list_changed is not None:
            asyncio.get_running_loop().create_task(self.on_list_changed())

    async def connect(self) -> None:
        """Open the connection (on the client loop) and list the tools."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self.client is not None:
                return
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._stop = asyncio.Event()
            self._runner = asyncio.create_task(self._hold(ready))
            try:
                async with asyncio.timeout(self.timeout_s):
                    await ready
                    await self.list_tools()
            except TimeoutError:
                await self._drop()
                raise Unavailable(f"no answer within {self.timeout_s:g} s") from None
            except BaseException:
                await self._drop()
                raise

    async def _hold(self, ready: asyncio.Future[None]) -> None:
        # The client must be entered and left in one task (anyio scopes).
        try:
            async with self._client() as client:
                self.client = client
                ready.set_result(None)
                assert self._stop is not None
                await self._stop.wait()
        except BaseException as e:
            if not ready.done():
                ready.set_exception(e if isinstance(e, Exception) else RuntimeError(one_line(e)))
            elif not isinstance(e, asyncio.CancelledError):
                log.warning("MCP server %s: connection ended: %s", self.name, one_line(e))
        finally:
            self.client = None

    async def _drop(self) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._runner is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._runner), 10)
            except BaseException:
                self._runner.cancel()
        self.client, self._runner = None, None

    async def list_tools(self) -> dict[str, Tool]:
        tools: dict[str, Tool] = {}
        cursor = None
        while True:
            page = await self.client.list_tools(cursor=cursor, cache_mode="refresh")
            for remote in page.tools:
                local = self._tool(remote)
                tools[local.name] = local
            cursor = page.next_cursor
            if not cursor:
                break
        self.tools = tools
        return tools

    def _tool(self, remote: Any) -> Tool:
        hints = remote.annotations
        remote_name = remote.name
        mount = self

        async def call(**arguments: Any) -> Any:
            return await mount.call(remote_name, arguments)

        schema = dict(remote.input_schema or {"type": "object"})
        schema.pop("$schema", None)
        return Tool(
            name=tool_name(self.name, remote_name),
            fn=call,
            description=(remote.description or f"{remote_name} from MCP server {self.name}")
            + f"\n\n(MCP server {self.name}, tool {remote_name})",
            level=self.level,  # type: ignore[arg-type]
            read_only=bool(hints and hints.read_only_hint),
            destructive=bool(hints and hints.destructive_hint),
            open_world=bool(hints is None or hints.open_world_hint is not False),
            schema=schema,
        )

    async def call_here(self, remote_name: str, arguments: dict[str, Any]) -> list[Block]:
        """Call on the client loop; reconnects once if the connection is gone."""
        if self.client is None:
            await self.connect()
        result = await self.client.call_tool(remote_name, arguments)
        blocks = to_blocks(result)
        if result.is_error:
            text = "\n".join(b.text for b in blocks if isinstance(b, TextBlock)) or "the tool failed"
            raise ToolFailure(f"{self.name}/{remote_name}: {text}")
        return blocks

    async def call(self, remote_name: str, arguments: dict[str, Any]) -> list[Block]:
        """Call from the host's loop: run on the client loop; cancelling this
        await cancels the remote call there."""
        if self.closed:
            raise Unavailable(f"MCP server {self.name} was closed with its host")
        return await asyncio.wrap_future(self.runner.submit(self.call_here(remote_name, arguments)))

    async def aclose(self) -> None:
        await self._drop()


def to_blocks(result: Any) -> list[Block]:
    import mcp_types as types

    blocks: list[Block] = []
    structured = result.structured_content
    for item in result.content:
        if isinstance(item, types.TextContent):
            if structured is None:
                blocks.append(TextBlock(item.text))
        elif isinstance(item, types.ImageContent):
            blocks.append(ImageBlock(item.data, item.mime_type))
        elif isinstance(item, types.EmbeddedResource) and isinstance(
            item.resource, types.TextResourceContents
        ):
            blocks.append(TextBlock(item.resource.text))
        else:
            kind = getattr(item, "type", type(item).__name__)
            blocks.append(TextBlock(f"[{kind} content left out: agenthost passes on text, images and JSON]"))
    if structured is not None:
        blocks.insert(0, JsonBlock(structured))
    return blocks


class MountSet:
    """Every configured server of one host, on one client loop."""

    def __init__(self, servers: dict[str, ServerSettings], settings: McpSettings) -> None:
        self.runner = ClientLoop()
        self.mounts = {
            name: Mount(name, s, s.timeout_s or settings.connect_timeout_s, s.level, self.runner)
            for name, s in servers.items()
        }
        self.on_change: Callable[[list[Tool], list[str]], None] | None = None
        self.host_loop: asyncio.AbstractEventLoop | None = None
        self.closed = False
        for mount in self.mounts.values():
            mount.on_list_changed = self._relister(mount)
        atexit.register(self.close_now)

    def _relister(self, mount: Mount) -> Callable[[], Any]:
        async def relist() -> None:
            before = set(mount.tools)
            try:
                tools = await mount.list_tools()
            except Exception as e:
                log.warning("MCP server %s: relisting tools failed: %s", mount.name, one_line(e))
                return
            removed = sorted(before - set(tools))
            added = list(tools.values())
            if self.on_change is None:
                return
            loop = self.host_loop
            if loop is not None and loop.is_running():
                loop.call_soon_threadsafe(self.on_change, added, removed)
            else:
                self.on_change(added, removed)

        return relist

    def connect_all(self) -> dict[str, str]:
        """Connect every server in parallel; the errors of those that failed."""

        async def connect(mount: Mount) -> str | None:
            try:
                await mount.connect()
                return None
            except Exception as e:
                mount.error = e.message if isinstance(e, ToolFailure) else one_line(e)
                return mount.error

        async def everything() -> list[str | None]:
            return await asyncio.gather(*(connect(m) for m in self.mounts.values()))

        results = self.runner.submit(everything()).result()
        return {name: err for name, err in zip(self.mounts, results, strict=True) if err is not None}

    def tools(self) -> list[Tool]:
        return [t for m in self.mounts.values() for t in m.tools.values()]

    async def aclose(self) -> None:
        if self.closed:
            return
        self.closed = True
        for mount in self.mounts.values():
            mount.closed = True
        future = self.runner.submit(self._close_mounts())
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), 15)
        except Exception as e:
            log.warning("closing MCP servers: %s", one_line(e))
        self.runner.close()
        atexit.unregister(self.close_now)

    async def _close_mounts(self) -> None:
        await asyncio.gather(*(m.aclose() for m in self.mounts.values()), return_exceptions=True)

    def close_now(self) -> None:
        """At interpreter exit (hosts never closed, e.g. ``agenthost tools``):
        end the servers' processes."""
        if self.closed:
            return
        self.closed = True
        for mount in self.mounts.values():
            mount.closed = True
        try:
            self.runner.submit(self._close_mounts()).result(timeout=10)
        except Exception:
            pass
        self.runner.close()


def check_servers(servers: dict[str, ServerSettings], settings: McpSettings) -> list[dict[str, Any]]:
    """``agenthost doctor`` rows: can each server be reached, how many tools."""
    if not servers:
        return []
    mounts = MountSet(servers, settings)
    try:
        errors = mounts.connect_all()
        rows = []
        for name, mount in mounts.mounts.items():
            where = mount.settings.command or mount.settings.url
            if name in errors:
                rows.append(
                    {
                        "name": f"mcp server {name}",
                        "ok": False,
                        "detail": f"{where}: {errors[name]}",
                        "fix": f"check [plugins.mcp.servers.{name}] (run its command by hand to see why), "
                        "or set enabled = false",
                    }
                )
            else:
                rows.append(
                    {
                        "name": f"mcp server {name}",
                        "ok": True,
                        "detail": f"{where}: {len(mount.tools)} tools",
                        "fix": "",
                    }
                )
        return rows
    finally:
        mounts.close_now()
