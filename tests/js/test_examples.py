"""Seed 004's four examples, as written, loaded from the workspace's tools folder."""

from __future__ import annotations

import shutil
import sys

import pytest

from tests.js.conftest import (
    API_FETCHER,
    CALCULATOR,
    FILE_PROCESSOR,
    RUN_COMMAND,
    js_config,
    write_tool,
)


async def test_calculator(make_host, workspace):
    write_tool(workspace, "calculator.js", CALCULATOR)
    host = await make_host(plugins=["js"])
    assert host.tools["calculator"].plugin == "js"
    assert host.tools["calculator"].level == "read"
    result = await host.call("calculator", {"expression": "2 + 3 * 4"})
    assert result.ok, result.text
    assert result.data == {"expression": "2 + 3 * 4", "result": 14}
    missing = await host.call("calculator", {})
    assert missing.error.type == "invalid_arguments"
    assert "expression" in missing.text


async def test_api_fetcher_against_loopback_server(make_host, workspace, http_server):
    write_tool(workspace, "api_fetcher.tool", API_FETCHER)
    host = await make_host(plugins=["js"], config=js_config({"network": True}, net_allow=["127.0.0.1"]))
    assert host.tools["api_fetcher"].level == "network"
    result = await host.call("api_fetcher", {"url": http_server.url + "/data", "file": "out/data.json"})
    assert result.ok, result.text
    assert result.data == {"success": True, "file": "out/data.json"}
    assert (workspace / "out" / "data.json").read_text() == '{"items": [1, 2, 3], "source": "loopback"}'
    assert http_server.requests[-1]["path"] == "/data"

    failed = await host.call("api_fetcher", {"url": http_server.url + "/missing", "file": "x.json"})
    assert failed.ok
    assert failed.data == {"success": False, "error": "404 Not Found"}
    assert not (workspace / "x.json").exists()


async def test_file_processor(make_host, workspace):
    write_tool(workspace, "file_processor.js", FILE_PROCESSOR)
    (workspace / "in.txt").write_text("Hello, Wörld\n")
    host = await make_host(plugins=["js"])
    up = await host.call("file_processor", {"input": "in.txt", "output": "up.txt", "operation": "uppercase"})
    assert up.ok, up.text
    assert up.data == {"success": True, "output": "up.txt"}
    assert (workspace / "up.txt").read_text() == "HELLO, WÖRLD\n"
    down = await host.call(
        "file_processor", {"input": "up.txt", "output": "down.txt", "operation": "lowercase"}
    )
    assert (workspace / "down.txt").read_text() == "hello, wörld\n", down.text
    unknown = await host.call(
        "file_processor", {"input": "in.txt", "output": "o.txt", "operation": "reverse"}
    )
    assert unknown.data == {"error": "Unknown operation"}
    gone = await host.call(
        "file_processor", {"input": "nope.txt", "output": "o.txt", "operation": "uppercase"}
    )
    assert gone.error.type == "not_found"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not on PATH")
async def test_run_command_through_the_shell_plugin(make_host, workspace):
    write_tool(workspace, "run_command.js", RUN_COMMAND)
    host = await make_host(plugins=["js", "shell"], config=js_config({"exec": True}))
    assert host.tools["run_command"].level == "execute"
    result = await host.call("run_command", {"command": "echo hello; echo oops >&2; exit 3"})
    assert result.ok, result.text
    data = result.data
    assert data["stdout"].strip() == "hello"
    assert data["stderr"].strip() == "oops"
    assert data["exitCode"] == 3
    assert data["success"] is False
    assert data["duration"] >= 0
    ok = await host.call("run_command", {"command": f"{sys.executable} -c 'print(6 * 7)'", "timeout": 20})
    assert ok.data["stdout"].strip() == "42" and ok.data["success"] is True


async def test_shell_without_the_shell_plugin_says_what_to_install(make_host, workspace):
    write_tool(workspace, "run_command.js", RUN_COMMAND)
    host = await make_host(plugins=["js"], config=js_config({"exec": True}))
    result = await host.call("run_command", {"command": "echo hi"})
    assert result.error.type == "unavailable"
    assert "agenthost-shell" in result.text
