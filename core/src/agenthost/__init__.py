"""agenthost: a plugin-based tool host for LLM agents.

Names are imported on first use so that ``import agenthost`` stays cheap for
plugins and the command line.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

import pluggy

hookimpl = pluggy.HookimplMarker("agenthost")

__version__ = "0.1.0"

# Imported eagerly (it is light) so that the name `tool` is the decorator, not
# the submodule `agenthost.tool` that importing it would otherwise expose.
from agenthost.tool import Tool, tool  # noqa: E402

_EXPORTS = {
    "Host": "agenthost.host",
    "Session": "agenthost.host",
    "Frontend": "agenthost.host",
    "ToolContext": "agenthost.context",
    "CallInfo": "agenthost.context",
    "ToolResult": "agenthost.results",
    "ToolError": "agenthost.results",
    "TextBlock": "agenthost.results",
    "ImageBlock": "agenthost.results",
    "JsonBlock": "agenthost.results",
    "ToolFailure": "agenthost.errors",
    "InvalidArguments": "agenthost.errors",
    "NotFound": "agenthost.errors",
    "OutsideWorkspace": "agenthost.errors",
    "Denied": "agenthost.errors",
    "Unavailable": "agenthost.errors",
    "ConfigError": "agenthost.errors",
    "Config": "agenthost.config",
    "Section": "agenthost.config",
    "Param": "agenthost.params",
}

__all__ = ["Tool", "__version__", "hookimpl", "tool", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agenthost' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from agenthost.config import Config, Section
    from agenthost.context import CallInfo, ToolContext
    from agenthost.errors import (
        ConfigError,
        Denied,
        InvalidArguments,
        NotFound,
        OutsideWorkspace,
        ToolFailure,
        Unavailable,
    )
    from agenthost.host import Frontend, Host, Session
    from agenthost.params import Param
    from agenthost.results import ImageBlock, JsonBlock, TextBlock, ToolError, ToolResult
