"""No process outlives its owner: session end, host close, SIGTERM to the
command, interpreter exit. The trees fork, ignore SIGTERM and call setsid."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from .helpers import RESISTANT_COUNT, RESISTANT_TREE, find_marked, shell_config, wait_for_marked

# Escapes every cheap way of finding it: it leaves the session, drops the tag
# variable and is orphaned when its shell exits. Only the reader's snapshots
# of the tree (taken while the shell was alive) still know it.
SNAPSHOT_ONLY = "env -u AGENTHOST_SHELL_TAG setsid sleep 6{m} & sleep 1.2; echo parent-done"


async def test_session_end_reaps_resistant_background_trees(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    async with host.session() as session:
        first = await session.call("bash", {"command": RESISTANT_TREE.format(m=marker), "background": True})
        assert first.ok
        second = await session.call("bash", {"command": SNAPSHOT_ONLY.format(m=marker), "background": True})
        running = await asyncio.to_thread(wait_for_marked, marker, RESISTANT_COUNT + 1)
        assert len(running) >= RESISTANT_COUNT + 1
        done = await session.call(
            "bash_output", {"process_id": second.data["process_id"], "block": True, "timeout_ms": 10000}
        )
        assert "parent-done" in done.text  # the shell is gone; its setsid child lives on
        assert any(p.cmdline()[-1] == f"6{marker}" for p in find_marked(marker))
    assert find_marked(marker) == []


async def test_bash_kill_reaps_children_that_left_the_process_group(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    pid = (await host.call("bash", {"command": RESISTANT_TREE.format(m=marker), "background": True})).data[
        "process_id"
    ]
    assert len(await asyncio.to_thread(wait_for_marked, marker, RESISTANT_COUNT)) >= RESISTANT_COUNT
    result = await host.call("bash_kill", {"process_id": pid})
    assert result.ok
    assert "SIGKILL after the grace period" in result.text
    assert find_marked(marker) == []


async def test_closing_the_host_reaps_every_session(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    session = host.session()
    await session.start()
    await session.call("bash", {"command": f"sleep 1{marker}", "background": True})
    # a daemon that escaped a foreground call (it left the session before the
    # call ended, so the call's cheap leftover check does not see it)
    await host.call("bash", {"command": f"setsid -f sleep 2{marker}; sleep 0.3"})
    assert len(await asyncio.to_thread(wait_for_marked, marker, 2)) == 2
    await host.aclose()
    assert find_marked(marker) == []


async def test_host_shutdown_hook_reaps_managers_it_owns(make_host, marker):
    from agenthost_shell import agenthost_host_shutdown
    from agenthost_shell.manager import ProcessManager

    host = await make_host(plugins=["shell"], config=shell_config())
    stray = ProcessManager(workspace=host.workspace.root, host=host)
    stray.spawn(f"sleep 1{marker}", background=True)
    assert len(await asyncio.to_thread(wait_for_marked, marker, 1)) == 1
    await agenthost_host_shutdown(host)
    assert stray.closed
    assert find_marked(marker) == []


def _agenthost() -> str:
    return str(Path(sys.executable).with_name("agenthost"))


def _env() -> dict[str, str]:
    return {**os.environ, "AGENTHOST_PLUGINS": "shell"}


def test_sigterm_to_the_command_reaps_what_it_started(workspace, marker):
    (workspace / "agenthost.toml").write_text("[plugins.shell]\nkill_grace_s = 0.5\n")
    command = RESISTANT_TREE.format(m=marker)
    cli = subprocess.Popen(
        [_agenthost(), "call", "--workspace", str(workspace), "bash", "--arg", f"command={command}"],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert len(wait_for_marked(marker, RESISTANT_COUNT, timeout=30)) >= RESISTANT_COUNT
        cli.send_signal(signal.SIGTERM)
        cli.wait(timeout=30)
    finally:
        cli.kill()
        cli.communicate()
    assert find_marked(marker) == []


def test_interpreter_exit_reaps_what_was_never_closed(workspace, marker):
    script = textwrap.dedent(f"""
        import asyncio, sys
        from agenthost import Host

        async def main():
            host = Host({str(workspace)!r}, config={{"plugins": {{"shell": {{"kill_grace_s": 0.5}}}}}},
                        plugins=["shell"])
            await host.start()
            r = await host.call("bash", {{"command": {RESISTANT_TREE.format(m=marker)!r}, "background": True}})
            assert r.ok, r.text
            pid, seen = r.data["process_id"], ""
            while "ready" not in seen:
                await asyncio.sleep(0.1)
                seen += (await host.call("bash_output", {{"process_id": pid}})).text
            print("started", flush=True)
            # no host.aclose(): the interpreter just ends

        asyncio.run(main())
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], env=_env(), capture_output=True, text=True, timeout=60, check=False
    )
    assert "started" in done.stdout, done.stderr
    assert find_marked(marker) == []
