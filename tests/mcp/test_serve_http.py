"""``agenthost serve --transport http``: streamable HTTP at /mcp with the
official MCP client; sessions, the bearer token and DNS-rebinding checks."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import mcp_types as types
import psutil
import pytest
import pytest_asyncio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .helpers import gone, start_http_server, stop, text_of

pytestmark = pytest.mark.timeout(90)
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest_asyncio.fixture
async def http_server(serve_args, server_env, workspace) -> AsyncIterator[Callable[..., Any]]:
    procs: list[subprocess.Popen] = []

    async def start(*extra: str) -> str:
        proc, url = await start_http_server(serve_args, server_env, "--workspace", str(workspace), *extra)
        procs.append(proc)
        return url

    yield start
    for proc in procs:
        if proc.poll() is None:
            assert stop(proc) == "", "stdout must stay empty"


async def test_tools_and_calls_over_http(http_server):
    url = await http_server()
    assert url.startswith("http://127.0.0.1:")
    async with Client(url) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert "echo" in names and "spawn" in names
        assert text_of(await client.call_tool("echo", {"text": "over http"})) == "over http"
        failed = await client.call_tool("missing", {"name": "y"})
        assert failed.is_error and "no thing named 'y'" in text_of(failed)


async def test_two_sessions_are_isolated_and_released(http_server):
    url = await http_server()
    async with Client(url) as b:
        async with Client(url) as a:
            assert (await a.call_tool("count", {})).structured_content["count"] == 1
            assert (await a.call_tool("count", {})).structured_content["count"] == 2
            first_b = (await b.call_tool("count", {})).structured_content
            assert first_b["count"] == 1
            assert first_b["session"] != (await a.call_tool("count", {})).structured_content["session"]
            pid_a = (await a.call_tool("spawn", {})).structured_content["pid"]
            pid_b = (await b.call_tool("spawn", {})).structured_content["pid"]
        # a left (its DELETE ends the MCP session): its process is gone, b's is not
        assert await gone(pid_a)
        assert psutil.Process(pid_b).is_running()
        assert (await b.call_tool("count", {})).structured_content["count"] == 2
    assert await gone(pid_b)


async def test_elicitation_over_http(http_server):
    url = await http_server()

    async def answer(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"answer": "forty-two"})

    async with Client(url, elicitation_callback=answer) as client:
        assert text_of(await client.call_tool("ask", {"question": "Why?"})) == "answer: forty-two"


async def test_bearer_token(http_server):
    url = await http_server("--token", "s3cret-token")
    async with httpx.AsyncClient() as http:
        missing = await http.post(url, json=INIT, headers=HEADERS)
        assert missing.status_code == 401
        assert missing.headers["www-authenticate"].startswith("Bearer")
        wrong = await http.post(url, json=INIT, headers={**HEADERS, "authorization": "Bearer nope"})
        assert wrong.status_code == 401
    transport = streamable_http_client(
        url, http_client=create_mcp_http_client(headers={"Authorization": "Bearer s3cret-token"})
    )
    async with Client(transport) as client:
        assert text_of(await client.call_tool("echo", {"text": "in"})) == "in"


async def test_dns_rebinding_checks(http_server):
    url = await http_server()
    async with httpx.AsyncClient() as http:
        ok = await http.post(url, json=INIT, headers=HEADERS)
        assert ok.status_code == 200
        bad_host = await http.post(url, json=INIT, headers={**HEADERS, "host": "evil.example:80"})
        assert bad_host.status_code == 421
        bad_origin = await http.post(url, json=INIT, headers={**HEADERS, "origin": "http://evil.example"})
        assert bad_origin.status_code == 403
        good_origin = await http.post(url, json=INIT, headers={**HEADERS, "origin": "http://localhost:1234"})
        assert good_origin.status_code == 200


def test_binding_beyond_loopback_needs_a_token(serve_args, server_env, workspace):
    env = {k: v for k, v in server_env.items() if k != "AGENTHOST_TOKEN"}
    done = subprocess.run(
        [*serve_args, "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=workspace,
    )
    assert done.returncode == 2
    assert "--token" in done.stderr and done.stdout == ""


async def test_binding_beyond_loopback_with_token_from_env(serve_args, server_env, workspace):
    env = {**server_env, "AGENTHOST_TOKEN": "env-token-123"}
    proc, url = await start_http_server(serve_args, env, "--workspace", str(workspace), "--host", "0.0.0.0")
    try:
        url = url.replace("0.0.0.0", "127.0.0.1")
        async with httpx.AsyncClient() as http:
            assert (await http.post(url, json=INIT, headers=HEADERS)).status_code == 401
            authorized = {**HEADERS, "authorization": "Bearer env-token-123"}
            assert (await http.post(url, json=INIT, headers=authorized)).status_code == 200
    finally:
        stop(proc)


async def test_no_process_survives_the_http_server(serve_args, server_env, workspace):
    proc, url = await start_http_server(serve_args, server_env, "--workspace", str(workspace))
    client = Client(url)
    await client.__aenter__()
    try:
        pid = (await client.call_tool("spawn", {})).structured_content["pid"]
        assert psutil.Process(pid).is_running()
        proc.terminate()
        await asyncio.get_running_loop().run_in_executor(None, proc.wait, 30)
    finally:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(Exception):  # the client may complain that its server went away
            await client.__aexit__(None, None, None)
    assert await gone(pid)
