"""``agenthost serve`` over stdio, driven by the official MCP client with the
server as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from .helpers import alive, gone, text_of

pytestmark = pytest.mark.timeout(90)


def params(
    serve_args: list[str], env: dict[str, str], *extra: str, cwd: str | None = None
) -> StdioServerParameters:
    return StdioServerParameters(
        command=serve_args[0], args=[*serve_args[1:], "serve", *extra], env=env, cwd=cwd
    )


async def test_tools_list_equals_agenthost_tools(serve_args, server_env, workspace):
    async with Client(params(serve_args, server_env, "--workspace", str(workspace))) as client:
        listed = (await client.list_tools()).tools
    out = subprocess.run(
        [*serve_args, "tools", "--json", "--workspace", str(workspace)],
        env=server_env,
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(out.stdout)
    assert [t.name for t in listed] == [t["name"] for t in expected]
    assert len(listed) >= 10
    for tool, row in zip(listed, expected, strict=True):
        assert tool.description == row["description"]
        assert tool.annotations is not None
        assert tool.annotations.model_dump(by_alias=True, exclude_none=True) == row["annotations"]
    schemas = subprocess.run(
        [*serve_args, "schema", "--format", "mcp", "--workspace", str(workspace)],
        env=server_env,
        capture_output=True,
        text=True,
        check=True,
    )
    by_name = {d["name"]: d for d in json.loads(schemas.stdout)}
    for tool in listed:
        assert tool.input_schema == by_name[tool.name]["inputSchema"]
    spawn = next(t for t in listed if t.name == "spawn")
    assert spawn.annotations.destructive_hint is True and spawn.annotations.read_only_hint is False
    echo = next(t for t in listed if t.name == "echo")
    assert echo.annotations.read_only_hint is True
    assert echo.input_schema["required"] == ["text"]


async def test_calls_map_results_and_faults(serve_args, server_env, workspace):
    async with Client(params(serve_args, server_env, "--workspace", str(workspace))) as client:
        echoed = await client.call_tool("echo", {"text": "hello"})
        assert not echoed.is_error and text_of(echoed) == "hello"

        counted = await client.call_tool("count", {})
        assert counted.structured_content["count"] == 1
        assert json.loads(text_of(counted))["count"] == 1

        picture = await client.call_tool("picture", {})
        kinds = [c.type for c in picture.content]
        assert kinds == ["text", "image"]
        assert picture.content[1].mime_type == "image/png"

        failed = await client.call_tool("missing", {"name": "x"})
        assert failed.is_error
        assert text_of(failed) == "no thing named 'x'; call echo instead"

        invalid = await client.call_tool("echo", {})
        assert invalid.is_error and "text" in text_of(invalid)

        assert text_of(await client.call_tool("noisy", {})) == "quiet"  # stdout carries only protocol
        assert text_of(await client.call_tool("echo", {"text": "after noise"})) == "after noise"

        unknown = await client.call_tool("ehco", {"text": "x"})
        assert unknown.is_error and "echo" in text_of(unknown)
    audit = list((workspace / ".agenthost" / "audit").glob("*.jsonl"))
    records = [json.loads(line) for f in audit for line in f.read_text().splitlines()]
    assert [r["status"] for r in records if r["tool"] == "missing"] == ["not_found"]


async def test_elicitation_answers_ask_user_and_policy_ask(serve_args, server_env, workspace):
    (workspace / "agenthost.toml").write_text('[policy]\nask = ["guarded"]\n')
    asked: list[str] = []

    async def answer(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        props = params.requested_schema["properties"]
        if "answer" in props:
            return types.ElicitResult(action="accept", content={"answer": props["answer"]["enum"][1]})
        allow = "yes" in params.message
        return types.ElicitResult(action="accept", content={"allow": allow})

    async with Client(
        params(serve_args, server_env, "--workspace", str(workspace)), elicitation_callback=answer
    ) as client:
        asked_result = await client.call_tool("ask", {"question": "Colour?", "options": ["red", "blue"]})
        assert text_of(asked_result) == "answer: blue"
        allowed = await client.call_tool("guarded", {"note": "yes please"})
        assert not allowed.is_error and text_of(allowed) == "ran: yes please"
        refused = await client.call_tool("guarded", {"note": "no"})
        assert refused.is_error and "declined" in text_of(refused)
    assert asked[0] == "Colour?"
    assert asked[1].startswith("Allow guarded") and "guarded" in asked[1]


async def test_without_elicitation_asking_is_a_clear_error(serve_args, server_env, workspace):
    (workspace / "agenthost.toml").write_text('[policy]\nask = ["guarded"]\n')
    async with Client(params(serve_args, server_env, "--workspace", str(workspace))) as client:
        asked = await client.call_tool("ask", {"question": "Colour?"})
        assert asked.is_error and "nobody can be asked" in text_of(asked)
        guarded = await client.call_tool("guarded", {"note": "x"})
        assert guarded.is_error and "needs permission" in text_of(guarded)


async def test_no_process_survives_the_client_leaving(serve_args, server_env, workspace):
    async with Client(params(serve_args, server_env, "--workspace", str(workspace))) as client:
        spawned = await client.call_tool("spawn", {})
        pid = spawned.structured_content["pid"]
        server_pid = (await client.call_tool("where", {})).structured_content["pid"]
        assert alive(pid)
    assert await gone(server_pid)
    assert await gone(pid)


async def test_no_process_survives_sigterm(serve_args, server_env, workspace):
    client = Client(params(serve_args, server_env, "--workspace", str(workspace)))
    await client.__aenter__()
    try:
        pid = (await client.call_tool("spawn", {})).structured_content["pid"]
        server_pid = (await client.call_tool("where", {})).structured_content["pid"]
        assert alive(pid)
        os.kill(server_pid, signal.SIGTERM)
        assert await gone(server_pid)
    finally:
        with anyio.move_on_after(30), contextlib.suppress(Exception):  # its server went away
            await client.__aexit__(None, None, None)
    assert await gone(pid)


async def test_cancel_stops_the_call_and_what_it_started(serve_args, server_env, workspace):
    pid_file = workspace / "held.pid"
    async with Client(params(serve_args, server_env, "--workspace", str(workspace))) as client:
        async with anyio.create_task_group() as tg:

            async def call() -> None:
                await client.call_tool("hold", {"pid_file": "held.pid"})

            tg.start_soon(call)
            for _ in range(200):
                if pid_file.exists() and pid_file.read_text():
                    break
                await asyncio.sleep(0.05)
            pid = int(pid_file.read_text())
            assert alive(pid)
            tg.cancel_scope.cancel()
        assert await gone(pid)
        still = await client.call_tool("echo", {"text": "after"})
        assert text_of(still) == "after"


async def test_tools_list_changed_is_announced(serve_args, server_env, workspace):
    changed = asyncio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with Client(
        params(serve_args, server_env, "--workspace", str(workspace)), message_handler=on_message
    ) as client:
        assert client.server_capabilities.tools.list_changed is True
        before = {t.name for t in (await client.list_tools()).tools}
        assert "fresh" not in before
        grown = await client.call_tool("grow", {"name": "fresh"})
        assert not grown.is_error
        await asyncio.wait_for(changed.wait(), 10)
        after = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
        assert after == before | {"fresh"}
        assert text_of(await client.call_tool("fresh", {"text": "hi"})) == "fresh: hi"


async def test_subset_of_tools(serve_args, server_env, workspace):
    args = ("--workspace", str(workspace), "--plugins", "mcptest", "--tools", "echo,co*")
    async with Client(params(serve_args, server_env, *args)) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["count", "echo"]
        hidden = await client.call_tool("missing", {"name": "x"})
        assert hidden.is_error and "unknown tool" in text_of(hidden)


async def test_workspace_from_the_clients_first_root(serve_args, server_env, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()

    async def roots(context: Any) -> types.ListRootsResult:
        return types.ListRootsResult(
            roots=[types.Root(uri=first.as_uri()), types.Root(uri=second.as_uri())]  # type: ignore[arg-type]
        )

    async with Client(params(serve_args, server_env, cwd=str(second)), list_roots_callback=roots) as client:
        where = await client.call_tool("where", {})
    assert Path(where.structured_content["workspace"]) == first.resolve()


async def test_current_folder_without_roots_but_never_root_or_home(serve_args, server_env, workspace):
    async with Client(params(serve_args, server_env, cwd=str(workspace))) as client:
        where = await client.call_tool("where", {})
    assert Path(where.structured_content["workspace"]) == workspace.resolve()
    async with Client(params(serve_args, server_env, cwd="/")) as client:
        with pytest.raises(MCPError, match="--workspace"):
            await client.list_tools()
    async with Client(params(serve_args, server_env, "--workspace", str(workspace), cwd="/")) as client:
        assert (await client.list_tools()).tools


def test_a_config_error_is_one_line_and_exit_2(serve_args, server_env, workspace):
    (workspace / "agenthost.toml").write_text("[host]\nbogus = 1\n")
    done = subprocess.run(
        [*serve_args, "serve", "--workspace", str(workspace)],
        env=server_env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "host.bogus: unknown key" in done.stderr and "Traceback" not in done.stderr
