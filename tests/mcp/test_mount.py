"""The ``mcp`` plugin: mounting another MCP server's tools as
``mcp__NAME__TOOL`` (the second server is ``agenthost serve`` with the test
plugin, over stdio and over HTTP)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from agenthost.config import Config
from agenthost_mcp import agenthost_doctor

from .helpers import gone, start_http_server, stop

pytestmark = pytest.mark.timeout(120)


def stdio_server(serve_args: list[str], env: dict[str, str], workspace: Path) -> dict:
    return {
        "command": serve_args[0],
        "args": [*serve_args[1:], "serve", "--workspace", str(workspace)],
        "env": {"PYTHONPATH": env["PYTHONPATH"], "AGENTHOST_PLUGINS": "mcptest"},
    }


@pytest.fixture
def second(tmp_path: Path) -> Path:
    folder = tmp_path / "second"
    folder.mkdir()
    return folder


async def test_mounts_a_server_and_calls_through_it(make_host, serve_args, server_env, second):
    config = {
        "plugins": {
            "mcp": {
                "servers": {
                    "second": stdio_server(serve_args, server_env, second),
                    "broken": {"command": "/nonexistent/mcp-server"},
                }
            }
        }
    }
    host = await make_host(plugins=["mcp"], config=config)
    names = sorted(host.tools)
    assert "mcp__second__echo" in names and "mcp__second__spawn" in names
    assert not any(n.startswith("mcp__broken__") for n in names)
    info = next(i for i in host.plugin_infos if i.name == "mcp")
    assert info.status == "loaded"
    assert any("'broken'" in p and "did not start" in p for p in info.problems)
    assert "mcp__second__echo" in info.tools

    echo = host.tools["mcp__second__echo"]
    assert echo.input_schema["required"] == ["text"]
    assert echo.annotations["readOnlyHint"] is True
    assert host.tools["mcp__second__spawn"].annotations["destructiveHint"] is True

    result = await host.call("mcp__second__echo", {"text": "through"})
    assert result.ok and result.text == "through"
    counted = await host.call("mcp__second__count", {})
    assert counted.ok and counted.data["count"] == 1
    failed = await host.call("mcp__second__missing", {"name": "z"})
    assert not failed.ok and "no thing named 'z'" in failed.error.message
    invalid = await host.call("mcp__second__echo", {})
    assert not invalid.ok and invalid.error.type == "invalid_arguments"

    where = await host.call("mcp__second__where", {})
    server_pid = where.data["pid"]
    assert Path(where.data["workspace"]) == second.resolve()
    spawned = (await host.call("mcp__second__spawn", {})).data["pid"]
    await host.aclose()
    assert await gone(server_pid, within=15)
    assert await gone(spawned, within=15)


async def test_cancelling_a_mounted_call_stops_it_remotely(make_host, serve_args, server_env, second):
    config = {"plugins": {"mcp": {"servers": {"second": stdio_server(serve_args, server_env, second)}}}}
    host = await make_host(plugins=["mcp"], config=config)
    call = asyncio.create_task(host.call("mcp__second__hold", {"pid_file": "held.pid"}))
    pid_file = second / "held.pid"
    for _ in range(300):
        if pid_file.exists() and pid_file.read_text():
            break
        await asyncio.sleep(0.05)
    pid = int(pid_file.read_text())
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert await gone(pid, within=15)
    assert (await host.call("mcp__second__echo", {"text": "still"})).text == "still"


async def test_mounted_list_changes_follow_the_server(make_host, serve_args, server_env, second):
    config = {"plugins": {"mcp": {"servers": {"second": stdio_server(serve_args, server_env, second)}}}}
    changes: list[tuple[list[str], list[str]]] = []
    host = await make_host(plugins=["mcp"], config=config)
    host.registry.listeners.append(lambda added, removed: changes.append((added, removed)))
    assert (await host.call("mcp__second__grow", {"name": "later"})).ok
    for _ in range(100):
        if "mcp__second__later" in host.tools:
            break
        await asyncio.sleep(0.1)
    assert (await host.call("mcp__second__later", {"text": "x"})).text == "later: x"
    assert any("mcp__second__later" in added for added, _ in changes)


async def test_mounts_an_http_server(make_host, serve_args, server_env, second):
    proc, url = await start_http_server(
        serve_args, server_env, "--workspace", str(second), "--token", "tok-42"
    )
    try:
        config = {
            "plugins": {
                "mcp": {
                    "servers": {
                        "web": {"url": url, "headers": {"Authorization": "Bearer tok-42"}},
                        "locked": {"url": url, "timeout_s": 20},
                    }
                }
            }
        }
        host = await make_host(plugins=["mcp"], config=config)
        assert (await host.call("mcp__web__echo", {"text": "via http"})).text == "via http"
        info = next(i for i in host.plugin_infos if i.name == "mcp")
        assert any("'locked'" in p for p in info.problems)
        assert not any(n.startswith("mcp__locked__") for n in host.tools)
    finally:
        stop(proc)


def test_plugins_and_doctor_report_a_server_that_fails(serve_args, server_env, workspace, second, tmp_path):
    good = stdio_server(serve_args, server_env, second)
    toml = [
        "[plugins.mcp.servers.second]",
        f"command = {json.dumps(good['command'])}",
        f"args = {json.dumps(good['args'])}",
        f"env = {{ PYTHONPATH = {json.dumps(good['env']['PYTHONPATH'])}, AGENTHOST_PLUGINS = 'mcptest' }}",
        "[plugins.mcp.servers.broken]",
        'command = "/nonexistent/mcp-server"',
    ]
    (workspace / "agenthost.toml").write_text("\n".join(toml) + "\n")
    env = {**server_env, "AGENTHOST_PLUGINS": "mcp"}
    plugins = subprocess.run(
        [*serve_args, "plugins", "--json", "--workspace", str(workspace)],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert plugins.returncode == 0, plugins.stderr
    (mcp,) = [p for p in json.loads(plugins.stdout) if p["name"] == "mcp"]
    assert mcp["status"] == "loaded"
    assert "mcp__second__echo" in mcp["tools"]
    assert any("broken" in p for p in mcp["problems"])
    tools = subprocess.run(
        [*serve_args, "tools", "--workspace", str(workspace)],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert "mcp__second__echo" in tools.stdout

    rows = agenthost_doctor(Config.load(workspace))
    by_name = {r["name"]: r for r in rows}
    assert by_name["mcp server second"]["ok"] is True
    assert by_name["mcp server broken"]["ok"] is False
    assert "plugins.mcp.servers.broken" in by_name["mcp server broken"]["fix"]


def test_a_server_needs_command_or_url(workspace):
    from agenthost.errors import ConfigError
    from agenthost_mcp.settings import McpSettings

    config = Config.load(workspace, {"plugins": {"mcp": {"servers": {"x": {"args": ["a"]}}}}})
    with pytest.raises(ConfigError, match=r"plugins\.mcp\.servers\.x"):
        config.section("mcp", McpSettings)


async def test_served_host_passes_mounted_tools_and_their_changes_on(
    serve_args, server_env, workspace, second
):
    import mcp_types as types
    from mcp import Client, StdioServerParameters

    good = stdio_server(serve_args, server_env, second)
    (workspace / "agenthost.toml").write_text(
        "[plugins.mcp.servers.second]\n"
        f"command = {json.dumps(good['command'])}\n"
        f"args = {json.dumps(good['args'])}\n"
        f"env = {{ PYTHONPATH = {json.dumps(good['env']['PYTHONPATH'])}, AGENTHOST_PLUGINS = 'mcptest' }}\n"
    )
    changed = asyncio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    outer = StdioServerParameters(
        command=serve_args[0],
        args=[*serve_args[1:], "serve", "--workspace", str(workspace), "--plugins", "mcp"],
        env=server_env,
    )
    async with Client(outer, message_handler=on_message) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert "mcp__second__echo" in names
        echoed = await client.call_tool("mcp__second__echo", {"text": "two hops"})
        assert [c.text for c in echoed.content] == ["two hops"]
        inner_pid = (await client.call_tool("mcp__second__where", {})).structured_content["pid"]
        await client.call_tool("mcp__second__grow", {"name": "late"})
        await asyncio.wait_for(changed.wait(), 20)
        for _ in range(50):
            names = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
            if "mcp__second__late" in names:
                break
            await asyncio.sleep(0.1)
        assert "mcp__second__late" in names
    assert await gone(inner_pid, within=15)
