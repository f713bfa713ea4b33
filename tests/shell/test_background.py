"""Background processes: the process manager, bash_output, bash_kill,
bash_list (equivalents of seed 000's ProcessManager / bash_output / bash_kill
tests, and more)."""

from __future__ import annotations

import asyncio
import time

import psutil

from agenthost_shell.manager import ProcessManager

from .helpers import find_marked, shell_config, wait_for_marked


async def start(host, command: str, **extra) -> str:
    result = await host.call("bash", {"command": command, "background": True, **extra})
    assert result.ok, result.text
    return result.data["process_id"]


# -- seed 000: ProcessManager ---------------------------------------------------


async def test_manager_spawn_and_get_output(workspace):
    pm = ProcessManager(workspace=workspace)
    proc = pm.spawn("echo hello", background=True)
    assert await proc.wait(5)
    assert proc.exited and proc.exit_code == 0
    assert "hello" in proc.stdout.drain()
    await pm.aclose()


async def test_manager_spawn_background_and_kill(workspace, marker):
    pm = ProcessManager(workspace=workspace)
    proc = pm.spawn(f"sleep 1{marker}", background=True)
    assert not await proc.wait(0.2)
    assert not proc.exited
    await pm.kill(proc.id)
    assert proc.exited
    assert proc.status == "killed"
    assert find_marked(marker) == []
    await pm.aclose()


async def test_manager_lists_processes(workspace):
    pm = ProcessManager(workspace=workspace)
    pm.spawn("echo test1", background=True)
    assert len(pm.list()) == 1
    await pm.aclose()


async def test_manager_get_nonexistent(workspace):
    from agenthost.errors import NotFound

    pm = ProcessManager(workspace=workspace)
    try:
        pm.get("nonexistent")
    except NotFound as e:
        assert "nonexistent" in e.message
    else:
        raise AssertionError("NotFound expected")
    await pm.aclose()


# -- seed 000: the tools ----------------------------------------------------------


async def test_bash_background_mode_returns_a_process_id_at_once(make_host):
    host = await make_host(plugins=["shell"])
    began = time.monotonic()
    result = await host.call("bash", {"command": "sleep 5; echo late", "background": True})
    assert time.monotonic() - began < 4
    assert result.ok
    pid = result.data["process_id"]
    assert len(pid) == 8 and int(pid, 16) >= 0
    assert result.data["status"] == "running"
    assert result.data["command"] == "sleep 5; echo late"
    assert f"process_id: {pid}" in result.text


async def test_bash_output_tool(make_host):
    host = await make_host(plugins=["shell"])
    pid = await start(host, "echo output_test")
    result = await host.call("bash_output", {"process_id": pid, "block": True})
    assert result.ok
    assert "output_test" in result.text
    assert result.text.startswith("status: exited (exit code 0)")


async def test_bash_kill_tool(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    pid = await start(host, f"sleep 1{marker}")
    assert wait_for_marked(marker, 1)
    result = await host.call("bash_kill", {"process_id": pid})
    assert result.ok
    assert f"process {pid} stopped" in result.text
    assert find_marked(marker) == []
    status = await host.call("bash_output", {"process_id": pid})
    assert status.text.startswith("status: killed (killed by SIGTERM (bash_kill))")


# -- incremental output, block, filter ----------------------------------------------


async def test_bash_output_returns_only_what_is_new(make_host, workspace):
    host = await make_host(plugins=["shell"])
    gate = workspace / "gate"
    pid = await start(host, "echo first; while [ ! -e gate ]; do sleep 0.05; done; echo second")
    deadline = time.monotonic() + 5
    text = ""
    while "first" not in text and time.monotonic() < deadline:
        text += (await host.call("bash_output", {"process_id": pid})).text
        await asyncio.sleep(0.05)
    assert "status: running" in text
    again = await host.call("bash_output", {"process_id": pid})
    assert "first" not in again.text
    assert "(no new output)" in again.text
    gate.touch()
    final = await host.call("bash_output", {"process_id": pid, "block": True, "timeout_ms": 5000})
    assert "second" in final.text and "first" not in final.text
    assert "exited (exit code 0)" in final.text


async def test_block_is_bounded_by_timeout_ms(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    pid = await start(host, f"echo begun; sleep 1{marker}")
    began = time.monotonic()
    result = await host.call("bash_output", {"process_id": pid, "block": True, "timeout_ms": 300})
    waited = time.monotonic() - began
    assert result.ok
    assert result.text.startswith("status: running")
    assert 0.25 < waited < 5


async def test_filter_keeps_matching_lines_and_consumes_the_rest(make_host):
    host = await make_host(plugins=["shell"])
    pid = await start(host, "printf 'ok 1\\nERROR a\\nok 2\\nERROR b\\n'; echo 'ERROR c' >&2")
    result = await host.call("bash_output", {"process_id": pid, "block": True, "filter": "^ERROR"})
    assert "ERROR a\nERROR b" in result.text
    assert "ERROR c" in result.text
    assert "ok 1" not in result.text and "ok 2" not in result.text
    after = await host.call("bash_output", {"process_id": pid})
    assert "ok 1" not in after.text and "(no new output)" in after.text
    bad = await host.call("bash_output", {"process_id": pid, "filter": "("})
    assert bad.error.type == "invalid_arguments"


async def test_unknown_process_id_is_not_found(make_host):
    host = await make_host(plugins=["shell"])
    for tool in ("bash_output", "bash_kill"):
        result = await host.call(tool, {"process_id": "deadbeef"})
        assert result.error.type == "not_found"
        assert "deadbeef" in result.text and "bash_list" in result.text


async def test_bash_list_shows_status_command_and_age(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    done = await start(host, "echo quick")
    await host.call("bash_output", {"process_id": done, "block": True})
    running = await start(host, f"sleep 1{marker}")
    listing = (await host.call("bash_list", {})).data
    by_id = {p["process_id"]: p for p in listing}
    assert by_id[done]["status"] == "exited" and by_id[done]["exit_code"] == 0
    assert by_id[running]["status"] == "running" and by_id[running]["exit_code"] is None
    assert by_id[running]["command"] == f"sleep 1{marker}"
    assert by_id[running]["age_s"] >= 0


async def test_sessions_do_not_see_each_others_processes(make_host):
    host = await make_host(plugins=["shell"])
    async with host.session() as one, host.session() as two:
        pid = (await one.call("bash", {"command": "echo mine", "background": True})).data["process_id"]
        assert (await two.call("bash_output", {"process_id": pid})).error.type == "not_found"
        assert (await two.call("bash_list", {})).data == []


async def test_finished_processes_beyond_the_newest_30_are_forgotten(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    ids = []
    for i in range(33):
        pid = await start(host, f"echo {i}")
        await host.call("bash_output", {"process_id": pid, "block": True})
        ids.append(pid)
    running = await start(host, f"sleep 1{marker}")  # starting one more forgets the oldest finished
    known = {p["process_id"] for p in (await host.call("bash_list", {})).data}
    assert len([i for i in ids if i in known]) == 30
    assert ids[0] not in known and ids[-1] in known and running in known
    result = await host.call("bash_output", {"process_id": ids[0]})
    assert result.error.type == "not_found" and "forgotten" in result.text


async def test_a_chatty_process_never_blocks_and_memory_stays_bounded(make_host):
    host = await make_host(plugins=["shell"], config=shell_config(head_bytes=1000, tail_bytes=4096))
    me = psutil.Process()
    before = me.memory_info().rss
    # 200 MB on stdout and 20 MB on stderr, nobody reading until it ends
    pid = await start(
        host, "head -c 200000000 /dev/zero | tr '\\0' o; head -c 20000000 /dev/zero >&2; echo END"
    )
    result = await host.call("bash_output", {"process_id": pid, "block": True, "timeout_ms": 120000})
    grown = me.memory_info().rss - before
    assert "exited (exit code 0)" in result.text
    assert "[... 199,99" in result.text  # most of stdout was dropped, and counted
    stdout, stderr = result.text.split("[stdout]\n", 1)[1].split("[stderr]\n")
    assert stdout.startswith("o" * 1000) and stdout.rstrip().endswith("END")
    assert "[... 19,99" in stderr and stderr.endswith("\x00" * 4096)
    assert len(result.text) < 20_000
    assert grown < 64 * 1024 * 1024
