"""bash in the foreground: output, exit codes, confinement, timeouts, long
and odd output."""

from __future__ import annotations

import os

from .helpers import RESISTANT_COUNT, RESISTANT_TREE, find_marked, shell_config, wait_for_marked


async def test_stdout_stderr_exit_code_and_duration(make_host):
    host = await make_host(plugins=["shell"])
    result = await host.call("bash", {"command": "echo out; echo err >&2; exit 3"})
    assert result.ok
    lines = result.text.splitlines()
    assert lines[0] == "out"
    assert lines[1:3] == ["[stderr]", "err"]
    assert lines[3].startswith("[exit code 3, ") and lines[3].endswith(" s]")


async def test_runs_in_the_workspace_and_in_a_working_dir_inside_it(make_host, workspace):
    (workspace / "sub").mkdir()
    host = await make_host(plugins=["shell"])
    assert (await host.call("bash", {"command": "pwd"})).text.splitlines()[0] == str(workspace)
    result = await host.call("bash", {"command": "pwd", "working_dir": "sub"})
    assert result.text.splitlines()[0] == str(workspace / "sub")


async def test_working_dir_outside_the_workspace_is_refused(make_host, workspace, tmp_path):
    (workspace / "escape").symlink_to(tmp_path)
    host = await make_host(plugins=["shell"])
    for outside in ("..", "/etc", "escape"):
        result = await host.call("bash", {"command": "touch planted", "working_dir": outside})
        assert result.error.type == "outside_workspace", outside
    assert not (tmp_path / "planted").exists()
    result = await host.call("bash", {"command": "true", "working_dir": "missing"})
    assert result.error.type == "not_found"


async def test_timeout_kills_the_whole_tree_and_says_so(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    command = RESISTANT_TREE.format(m=marker)
    result = await host.call("bash", {"command": command, "timeout_ms": 1500})
    assert not result.ok
    assert result.error.type == "timeout"
    assert "process tree was killed" in result.text
    assert "ready" in result.text  # output before the kill is kept
    assert find_marked(marker) == []


async def test_processes_left_behind_by_a_foreground_command_are_stopped(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    result = await host.call("bash", {"command": f"sleep 1{marker} & sleep 2{marker} & echo started"})
    assert result.ok
    assert "started" in result.text
    assert "left running were stopped" in result.text
    assert find_marked(marker) == []


async def test_long_output_keeps_head_and_tail_with_an_omission_marker(make_host):
    host = await make_host(plugins=["shell"], config=shell_config(head_bytes=2000, tail_bytes=2000))
    result = await host.call("bash", {"command": "seq 1 100000"})
    assert result.ok
    text = result.text
    assert text.startswith("1\n2\n3\n")
    assert "bytes omitted ...]" in text
    assert "\n100000\n[exit code 0" in text
    assert len(text) < 5000


async def test_multibyte_characters_split_between_writes_arrive_whole(make_host):
    host = await make_host(plugins=["shell"])
    # "€" is e2 82 ac: write its bytes in separate writes with pauses between
    command = (
        r"printf '\xe2'; sleep 0.2; printf '\x82'; sleep 0.2; printf '\xac ok\n'; printf 'bad \xff end\n'"
    )
    result = await host.call("bash", {"command": command})
    assert result.ok
    assert result.text.splitlines()[:2] == ["€ ok", "bad \ufffd end"]


async def test_no_output_says_so(make_host):
    host = await make_host(plugins=["shell"])
    assert (await host.call("bash", {"command": "true"})).text.startswith("(no output)\n[exit code 0")


async def test_a_killed_command_reports_the_signal(make_host):
    host = await make_host(plugins=["shell"])
    result = await host.call("bash", {"command": "kill -KILL $$"})
    assert result.ok
    assert "killed by SIGKILL" in result.text


async def test_cancelling_a_call_stops_its_tree(make_host, marker):
    import asyncio

    host = await make_host(plugins=["shell"], config=shell_config())
    async with host.session() as session:
        task = asyncio.create_task(session.call("bash", {"command": RESISTANT_TREE.format(m=marker)}))
        assert len(await asyncio.to_thread(wait_for_marked, marker, RESISTANT_COUNT)) >= RESISTANT_COUNT
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
    # the session's end waited for the stop that the cancellation started
    assert find_marked(marker) == []


async def test_the_shell_is_not_left_as_a_zombie(make_host):
    import psutil

    host = await make_host(plugins=["shell"])
    for _ in range(3):
        await host.call("bash", {"command": "true"})
    zombies = [c for c in psutil.Process(os.getpid()).children() if c.status() == psutil.STATUS_ZOMBIE]
    assert zombies == []
