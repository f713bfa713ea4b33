"""Tools the core tests register in process."""

from __future__ import annotations

import asyncio
import base64
import threading
import time
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from agenthost import ImageBlock, JsonBlock, NotFound, TextBlock, ToolContext, hookimpl, tool

events: list[str] = []


class Item(BaseModel):
    content: str
    status: Literal["pending", "done"] = "pending"


@tool(path_args=("path",))
def where(path: str, ctx: ToolContext) -> str:
    """Resolve a path inside the workspace.

    :param path: a path
    """
    return ctx.relative(ctx.resolve_path(path))


@tool
def limited(limit: Annotated[int, Field(ge=1, le=100)] = 10, mode: Literal["a", "b"] = "a") -> dict:
    """Echo a limit.

    :param limit: how many, 1 to 100
    :param mode: a or b
    """
    return {"limit": limit, "mode": mode}


@tool
async def items(entries: list[Item]) -> str:
    """Count items (nested models become Python objects).

    :param entries: the items
    """
    assert all(isinstance(e, Item) for e in entries)
    return ",".join(e.status for e in entries)


@tool
async def missing() -> str:
    """Always not found."""
    raise NotFound("no such thing; list what exists first")


@tool
def crash() -> str:
    """Raises a plain exception."""
    raise ValueError("bad value\nsecond line that should not show")


@tool(timeout_s=0.3)
async def sleepy(seconds: float = 5) -> str:
    """Sleeps; records whether its cleanup ran."""
    try:
        await asyncio.sleep(seconds)
        return "woke"
    finally:
        events.append("sleepy cleaned up")


@tool
def blocking(seconds: float = 0.2) -> str:
    """A sync tool (runs in a thread)."""
    time.sleep(seconds)
    return threading.current_thread().name


@tool
def big(chars: int = 1000) -> str:
    """Returns a long text."""
    return "x" * (chars // 2) + "y" * (chars - chars // 2)


@tool
def picture(size: int = 100) -> list:
    """Returns an image and some text."""
    return [TextBlock("a picture"), ImageBlock(base64.b64encode(b"\0" * size).decode(), "image/png")]


@tool
def handle() -> list:
    """Returns a handle as JSON and text."""
    return [TextBlock("process_id: abc12345"), JsonBlock({"process_id": "abc12345", "status": "running"})]


@tool(level="write", path_args=("path",))
def write_note(path: str, content: str, ctx: ToolContext) -> str:
    """Write a note.

    :param path: where
    :param content: what
    """
    target = ctx.resolve_path(path, write=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    return "written"


@tool(level="execute", command_arg="command")
def run(command: str) -> str:
    """Pretend to run a shell command.

    :param command: the command line
    """
    return f"ran {command}"


@tool(level="network", match=("url",))
def fetch(url: str, api_key: str = "") -> str:
    """Pretend to fetch a URL.

    :param url: the address
    :param api_key: a secret
    """
    return f"fetched {url}"


ALL = [where, limited, items, missing, crash, sleepy, blocking, big, picture, handle, write_note, run, fetch]


class TestTools:
    """An in-process plugin with every test tool."""

    @hookimpl
    def agenthost_register_tools(self, register):
        for t in ALL:
            register(t)
