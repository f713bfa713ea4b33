"""Memory and time limits: endless loops, allocation bombs, deep recursion and
time spent in host calls; a runaway script never holds up other calls."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from agenthost_js import engine
from tests.js.conftest import ALL_ALLOWED, js_config, tool_source, write_tool


async def _wait_for_no_runs() -> None:
    """The worker thread really stopped: its run left the interrupt table."""
    for _ in range(200):
        if not engine._runs:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"scripts still running: {list(engine._runs)}")


@pytest.mark.parametrize(
    "body",
    [
        "while (true) {}",
        "for (;;) { try { while (true) {} } catch (e) {} }",
        "var f = function () { try { while (true) {} } finally { f(); } }; f();",
        "while (true) { try { JSON.parse('{bad'); } catch (e) {} }",
    ],
)
async def test_endless_loops_stop_at_the_time_limit(make_host, workspace, body):
    write_tool(workspace, "t.js", tool_source("spin", body))
    host = await make_host(plugins=["js"], config=js_config(timeout=1))
    result = await host.call("spin")
    assert result.error.type == "timeout", result.text
    assert "longer than 1 s" in result.text
    await _wait_for_no_runs()
    assert (await host.call("spin")).error.type == "timeout"  # the host is fine, and so is the next run


@pytest.mark.parametrize(
    "body",
    [
        "var a = []; while (true) { a.push('x'.repeat(100000) + a.length); }",
        "var s = 'x'; var keep = []; while (true) { s = s + s; keep.push(s.slice(0, 1000) + keep.length); }",
        "var a = []; try { while (true) { a.push(new Array(100000).fill(a.length)); } } catch (e) { throw e; }",
        "return new ArrayBuffer(64 * 1024 * 1024).byteLength;",
    ],
)
async def test_allocation_bombs_hit_the_memory_limit(make_host, workspace, body):
    write_tool(workspace, "t.js", tool_source("bomb", body))
    host = await make_host(plugins=["js"], config=js_config(timeout=5, max_memory=4 * 1024 * 1024))
    result = await host.call("bomb")
    assert not result.ok
    assert "memory" in result.text and "4,194,304" in result.text, result.text
    await _wait_for_no_runs()


async def test_memory_limit_is_configurable(make_host, workspace):
    body = "return 'x'.repeat(6 * 1024 * 1024).length;"
    write_tool(workspace, "t.js", tool_source("big", body))
    small = await make_host(plugins=["js"], config=js_config(max_memory=4 * 1024 * 1024))
    assert "memory" in (await small.call("big")).text
    roomy = await make_host(plugins=["js"], config=js_config(max_memory=32 * 1024 * 1024))
    assert (await roomy.call("big")).text == str(6 * 1024 * 1024)


@pytest.mark.parametrize(
    "body",
    [
        "function f(n) { return f(n + 1) + 1; } return f(0);",
        "var o = {}; o.toString = function () { return String(o); }; return String(o);",
        "function g() { try { return g(); } catch (e) { return g(); } } return g();",
    ],
)
async def test_deep_recursion_is_stopped(make_host, workspace, body):
    write_tool(workspace, "t.js", tool_source("deep", body))
    host = await make_host(plugins=["js"], config=js_config(timeout=3))
    result = await host.call("deep")
    assert not result.ok
    assert "recursed too deeply" in result.text or result.error.type == "timeout", result.text
    await _wait_for_no_runs()


async def test_sleep_counts_against_the_time_limit(make_host, workspace):
    write_tool(workspace, "t.js", tool_source("sleepy", "utils.sleep(60000); return 'woke';"))
    host = await make_host(plugins=["js"], config=js_config(timeout=1))
    result = await host.call("sleepy")
    assert result.error.type == "timeout", result.text
    await _wait_for_no_runs()


async def test_slow_http_counts_against_the_time_limit(make_host, workspace, http_server):
    body = f"try {{ http.get({http_server.url + '/slow'!r}); }} catch (e) {{ }} while (true) {{}}"
    write_tool(workspace, "t.js", tool_source("slow_net", body, {"network": True}))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED, net_allow=["127.0.0.1"], timeout=1))
    result = await host.call("slow_net")
    assert result.error.type == "timeout", result.text
    await _wait_for_no_runs()


@pytest.mark.skipif(shutil.which("sleep") is None, reason="sleep not on PATH")
async def test_slow_command_counts_against_the_time_limit(make_host, workspace):
    body = "var r = shell.execWithTimeout('sleep 30', 60); return JSON.stringify(r);"
    write_tool(workspace, "t.js", tool_source("slow_cmd", body, {"exec": True}))
    host = await make_host(plugins=["js", "shell"], config=js_config(ALL_ALLOWED, timeout=1))
    result = await host.call("slow_cmd")
    assert not result.ok or result.data["timed_out"] is True, result.text
    await _wait_for_no_runs()


async def test_a_runaway_script_does_not_hold_up_other_calls(make_host, workspace):
    write_tool(workspace, "a.js", tool_source("spin", "while (true) {}"))
    write_tool(workspace, "b.js", tool_source("quick", "return 'done';"))
    host = await make_host(plugins=["js"], config=js_config(timeout=20))
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(ticker())
    spinning = asyncio.create_task(host.call("spin"))
    while not engine._runs:  # the runaway is running
        await asyncio.sleep(0.01)
    before = ticks
    quick = await host.call("quick")
    assert quick.text == "done"
    assert not spinning.done()
    await asyncio.sleep(0.2)
    assert ticks > before  # the event loop kept turning
    spinning.cancel()
    with pytest.raises(asyncio.CancelledError):
        await spinning
    ticking.cancel()
    await _wait_for_no_runs()  # cancelling the call stopped the script


async def test_caller_timeout_stops_the_script(make_host, workspace):
    write_tool(workspace, "a.js", tool_source("spin", "while (true) {}"))
    host = await make_host(plugins=["js"], config=js_config(timeout=30))
    result = await host.call("spin", timeout=0.5)
    assert result.error.type == "timeout"
    await _wait_for_no_runs()


async def test_many_calls_at_once(make_host, workspace):
    write_tool(workspace, "a.js", tool_source("square", "return params.n * params.n;"))
    host = await make_host(plugins=["js"])
    results = await asyncio.gather(*(host.call("square", {"n": n}) for n in range(40)))
    assert [r.data for r in results] == [n * n for n in range(40)]
