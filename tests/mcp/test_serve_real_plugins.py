"""``agenthost serve`` with the real fs and shell plugins: a file tool call and
a background shell process started and read back, isolated per HTTP session
and gone when the server exits."""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import psutil
import pytest
from mcp import Client, StdioServerParameters

from .helpers import start_http_server, stop, text_of

pytestmark = pytest.mark.timeout(120)
pytest.importorskip("agenthost_fs", reason="agenthost-fs is not installed")
pytest.importorskip("agenthost_shell", reason="agenthost-shell is not installed")


@pytest.fixture
def plain_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("AGENTHOST_")}


async def read_back(client: Client, process_id: str, want: str) -> dict[str, Any]:
    seen = ""
    for _ in range(100):
        out = await client.call_tool("bash_output", {"process_id": process_id})
        assert not out.is_error, text_of(out)
        seen += text_of(out)
        if want in seen:
            return {"text": seen}
        await asyncio.sleep(0.1)
    raise AssertionError(f"{want!r} never appeared in {seen!r}")


async def test_files_and_background_shell_over_stdio(serve_args, plain_env, workspace):
    params = StdioServerParameters(
        command=serve_args[0],
        args=[*serve_args[1:], "serve", "--workspace", str(workspace), "--plugins", "fs,shell"],
        env=plain_env,
    )
    async with Client(params) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"read_file", "write_file", "bash", "bash_output"} <= names
        written = await client.call_tool("write_file", {"path": "notes/a.txt", "content": "alpha\nbeta\n"})
        assert not written.is_error, text_of(written)
        assert (workspace / "notes" / "a.txt").read_text() == "alpha\nbeta\n"
        read = await client.call_tool("read_file", {"path": "notes/a.txt"})
        assert "beta" in text_of(read)
        outside = await client.call_tool("read_file", {"path": "/etc/passwd"})
        assert outside.is_error

        started = await client.call_tool(
            "bash", {"command": "echo started; echo $$ > bg.pid; sleep 300", "background": True}
        )
        assert not started.is_error, text_of(started)
        process_id = started.structured_content["process_id"]
        assert re.fullmatch(r"[0-9a-f]{8}", process_id)
        await read_back(client, process_id, "started")
        pid = int((workspace / "bg.pid").read_text())
        assert psutil.pid_exists(pid)
    for _ in range(100):
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the background process outlived the server")


async def test_shell_processes_are_per_http_session(serve_args, plain_env, workspace):
    proc, url = await start_http_server(
        serve_args, plain_env, "--workspace", str(workspace), "--plugins", "fs,shell"
    )
    try:
        async with Client(url) as a, Client(url) as b:
            started = await a.call_tool("bash", {"command": "echo from-a; sleep 300", "background": True})
            process_id = started.structured_content["process_id"]
            await read_back(a, process_id, "from-a")
            other = await b.call_tool("bash_output", {"process_id": process_id})
            assert other.is_error  # b cannot see a's process
    finally:
        stop(proc)
