"""The ``[plugins.mcp]`` table: the servers to mount."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from agenthost import Param
from agenthost.config import Section


class ServerSettings(Section):
    """``[plugins.mcp.servers.NAME]``: ``command``/``args``/``env``/``cwd`` for a
    stdio server, or ``url``/``headers`` for streamable HTTP."""

    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    enabled: bool = True
    timeout_s: Annotated[float | None, Param(gt=0)] = (
        None  # connect + list; default [plugins.mcp] connect_timeout_s
    )
    level: Literal["read", "write", "execute", "network"] = "execute"

    def __post_init__(self) -> None:
        if (self.command is None) == (self.url is None):
            raise ValueError("give exactly one of command (stdio) or url (streamable HTTP)")


class McpSettings(Section):
    connect_timeout_s: Annotated[float, Param(gt=0)] = 20
    servers: dict[str, ServerSettings] = field(default_factory=dict)
