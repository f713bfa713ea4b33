"""A small plugin the MCP tests serve: tools that keep per-session state, start
a background process, hold a process until cancelled, ask the person, fail,
return JSON and images, and add a tool at run time.

Exposed to ``agenthost serve`` subprocesses as the entry point ``mcptest``
through a generated ``*.dist-info`` folder on PYTHONPATH (see conftest.py).
"""

from __future__ import annotations

import asyncio
import base64
import os
import signal
from pathlib import Path

from agenthost import NotFound, ToolContext, hookimpl, tool
from agenthost.results import ImageBlock, TextBlock

# a 1x1 PNG
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()


class Processes:
    """Per-session background processes, killed when the session ends."""

    def __init__(self) -> None:
        self.procs: list[asyncio.subprocess.Process] = []

    async def aclose(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


class Counter:
    def __init__(self) -> None:
        self.value = 0


@tool
def echo(text: str) -> str:
    """Return the text unchanged.

    :param text: what to return
    """
    return text


@tool
def count(ctx: ToolContext = None) -> dict:
    """Add one to this session's counter and return it."""
    counter = ctx.state("mcptest.counter", Counter)
    counter.value += 1
    return {"count": counter.value, "session": ctx.session.id}


@tool(level="execute", destructive=True)
async def spawn(ctx: ToolContext = None) -> dict:
    """Start a background `sleep 300` owned by this session; return its pid."""
    proc = await asyncio.create_subprocess_exec("sleep", "300")
    ctx.state("mcptest.procs", Processes).procs.append(proc)
    return {"pid": proc.pid, "status": "running"}


@tool(level="execute")
async def hold(pid_file: str, ctx: ToolContext = None) -> str:
    """Start `sleep 300`, write its pid to pid_file and wait for it; a cancel kills it.

    :param pid_file: workspace file that receives the pid
    """
    proc = await asyncio.create_subprocess_exec("sleep", "300")
    try:
        Path(ctx.resolve_path(pid_file, write=True)).write_text(str(proc.pid))
        await proc.wait()
        return "finished"
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()


@tool
async def ask(question: str, options: list[str] | None = None, ctx: ToolContext = None) -> str:
    """Ask the person a question and return the answer.

    :param question: the question
    :param options: choices, if any
    """
    answer = await ctx.session.ask_user(question, options)
    return f"answer: {answer}"


@tool(level="execute", open_world=True)
def guarded(note: str) -> str:
    """A tool the tests' policy asks about.

    :param note: anything
    """
    return f"ran: {note}"


@tool
def missing(name: str) -> str:
    """Always fails with not_found.

    :param name: a name
    """
    raise NotFound(f"no thing named {name!r}; call echo instead")


@tool
def picture() -> list:
    """Return a caption and a 1x1 PNG."""
    return [TextBlock("a pixel"), ImageBlock(PIXEL, "image/png")]


@tool(level="write")
def grow(name: str, ctx: ToolContext = None) -> str:
    """Add a tool named name at run time (it echoes its input).

    :param name: the new tool's name
    """

    def added(text: str) -> str:
        return f"{name}: {text}"

    added.__doc__ = "A tool added at run time.\n\n:param text: anything"
    ctx.host.add_tool(tool(added, name=name), plugin="mcptest")
    return f"added {name}"


@tool
def where(ctx: ToolContext = None) -> dict:
    """Return the workspace folder and this process's pid."""
    return {"workspace": str(ctx.host.workspace.root), "pid": os.getpid()}


@tool
def noisy() -> str:
    """Print to stdout (which must not reach the MCP stream) and return "quiet"."""
    print("noise on stdout", flush=True)
    os.write(1, b"raw noise on fd 1\n")
    return "quiet"


@hookimpl
def agenthost_register_tools(register):
    for t in (echo, count, spawn, hold, ask, guarded, missing, picture, grow, where, noisy):
        register(t)
