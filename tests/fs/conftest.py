from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest_asyncio

from agenthost import ToolResult

Call = Callable[..., Awaitable[ToolResult]]


@pytest_asyncio.fixture
async def call(make_host: Any) -> Call:
    """``await call("read_file", path="a.txt")`` on a host with only the fs plugin."""
    host = await make_host(plugins=["fs"], config={"audit": {"enabled": False}})

    async def run(name: str, **arguments: Any) -> ToolResult:
        return await host.call(name, arguments)

    return run


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path
