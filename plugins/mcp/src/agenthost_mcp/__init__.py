"""MCP client plugin for agenthost: mount other MCP servers' tools.

Servers are listed in config::

    [plugins.mcp.servers.github]
    command = "npx"
    args = ["-y", "@modelcontextprotocol/server-github"]
    env = { GITHUB_TOKEN = "..." }

    [plugins.mcp.servers.docs]
    url = "https://example.org/mcp"
    headers = { Authorization = "Bearer ..." }

Each server's tools become ``mcp__<server>__<tool>``. The servers are
connected lazily (on the first listing of tools, or a call of a tool not
known yet), in parallel, each under its own timeout; one that fails is reported by ``agenthost plugins`` (``problems``) and
``agenthost doctor``, and the rest of the host works. A connection that drops
is reopened on the next call.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from agenthost import hookimpl
from agenthost_mcp.settings import McpSettings

if TYPE_CHECKING:
    from agenthost_mcp.mounts import MountSet

log = logging.getLogger("agenthost.mcp")

# one MountSet per Host
_MOUNTS: dict[int, MountSet] = {}


@hookimpl
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section("mcp", McpSettings)
    servers = {name: s for name, s in settings.servers.items() if s.enabled}
    if not servers:
        return
    from agenthost_mcp.mounts import MountSet  # only with servers to mount: listing tools must not pay for it

    mounts = MountSet(servers, settings)
    _MOUNTS[id(host)] = mounts

    def connect(register: Any) -> None:
        for name, error in mounts.connect_all().items():
            register.problem(f"MCP server {name!r} did not start: {error}")
        for tool in mounts.tools():
            register(tool)
        mounts.on_change = lambda added, removed: _apply_change(host, added, removed)

    # Servers start on the first listing or on a call of a tool not known yet,
    # so a call of a built-in tool never waits for them.
    register.deferred(connect)


def _apply_change(host: Any, added: list[Any], removed: list[str]) -> None:
    for name in removed:
        host.remove_tool(name)
    for tool in added:
        host.add_tool(tool, plugin="mcp", replace=True)


@hookimpl
def agenthost_host_start(host: Any) -> None:
    mounts = _MOUNTS.get(id(host))
    if mounts is not None:  # tool list changes are applied on the host's loop
        import asyncio

        mounts.host_loop = asyncio.get_running_loop()


@hookimpl
async def agenthost_host_shutdown(host: Any) -> None:
    mounts = _MOUNTS.pop(id(host), None)
    if mounts is not None:
        await mounts.aclose()


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    from agenthost_mcp.mounts import check_servers

    settings = config.section("mcp", McpSettings)
    return check_servers({n: s for n, s in settings.servers.items() if s.enabled}, settings)
