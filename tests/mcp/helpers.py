"""Shared by the MCP tests: starting ``agenthost serve`` over HTTP, stopping
it, reading tool results and watching processes go."""

from __future__ import annotations

import asyncio
import re
import subprocess

import mcp_types as types
import psutil

URL_LINE = re.compile(r"serving MCP at (http://\S+/mcp)")


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def start_http_server(
    serve_args: list[str], env: dict[str, str], *extra: str
) -> tuple[subprocess.Popen, str]:
    """``agenthost serve --transport http --port 0 EXTRA...``, and the URL it
    announces on stderr once it listens."""
    proc = subprocess.Popen(
        [*serve_args, "serve", "--transport", "http", "--port", "0", *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    loop = asyncio.get_running_loop()
    lines: list[str] = []
    while True:
        line = await asyncio.wait_for(loop.run_in_executor(None, proc.stderr.readline), 60)
        if not line:
            raise AssertionError(f"server exited: {''.join(lines)}")
        lines.append(line)
        if m := URL_LINE.search(line):
            return proc, m[1]


def stop(proc: subprocess.Popen) -> str:
    """SIGTERM the server and wait for it; what it wrote to stdout."""
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return out


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def gone(pid: int, within: float = 10.0) -> bool:
    """Whether ``pid`` ended (or is a zombie) within ``within`` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        await asyncio.sleep(0.1)
    return False
