"""What a running tool can reach: its workspace, session, config and the
host's services."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from agenthost.config import Config
    from agenthost.host import Host, Session
    from agenthost.tool import Tool

T = TypeVar("T")


@dataclass(slots=True)
class CallInfo:
    """One call as events and the audit log see it."""

    call_id: str
    tool: str
    arguments: dict[str, Any]
    session: Session
    decision: str = ""
    rule: str = ""


class ToolContext:
    """Passed to a tool that declares a ``ctx`` parameter."""

    __slots__ = ("call_id", "host", "session", "tool")

    def __init__(self, host: Host, session: Session, call_id: str, tool: Tool) -> None:
        self.host = host
        self.session = session
        self.call_id = call_id
        self.tool = tool

    @property
    def workspace(self) -> Path:
        return self.host.workspace.root

    @property
    def config(self) -> Config:
        return self.host.config

    @property
    def log(self) -> logging.Logger:
        return logging.getLogger(f"agenthost.{self.tool.plugin or 'tools'}")

    def resolve_path(self, path: str | os.PathLike[str], *, write: bool = False) -> Path:
        """The real path inside the workspace; raises ``OutsideWorkspace`` (or
        ``Denied`` for writes to the host's config and state)."""
        return self.host.workspace.resolve(path, write=write)

    def relative(self, path: str | os.PathLike[str]) -> str:
        """A path as the model should see it (relative to the workspace)."""
        return self.host.workspace.relative(path)

    def state(self, key: str, factory: Callable[[], T]) -> T:
        """Per-session state for a plugin, made on first use. A value with an
        ``aclose()`` or ``close()`` method is closed when the session ends."""
        return self.session.state(key, factory)

    async def ask_user(
        self, question: str, options: list[str] | None = None, multi_select: bool = False
    ) -> Any:
        return await self.session.ask_user(question, options, multi_select)
