"""The bubblewrap sandbox: writes only in the workspace (and a private
/tmp), no network, background processes reaped, refusal when bwrap is
missing. Each "fails inside" test has a twin that succeeds unsandboxed, so
the test can tell the sandbox from a broken command."""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import find_marked, need_bwrap, shell_config, wait_for_marked

SANDBOX = shell_config(sandbox="bwrap")


@pytest.fixture(autouse=True)
def _bwrap() -> None:
    need_bwrap()


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder outside the workspace and outside /tmp."""
    base = "/var/tmp" if Path("/var/tmp").is_dir() else str(Path.home())
    folder = Path(tempfile.mkdtemp(prefix="agenthost-outside-", dir=base))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class LoopbackServer:
    """A TCP server on 127.0.0.1 that answers HTTP and counts connections."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            with conn:
                conn.settimeout(1)
                try:
                    conn.recv(1024)
                    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello")
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    srv = LoopbackServer()
    yield srv
    srv.close()


async def test_the_workspace_is_writable(make_host, workspace):
    host = await make_host(plugins=["shell"], config=SANDBOX)
    result = await host.call("bash", {"command": "mkdir -p d && echo made > d/f && cat d/f"})
    assert result.ok and "made" in result.text and "exit code 0" in result.text
    assert (workspace / "d" / "f").read_text() == "made\n"


async def test_a_write_outside_the_workspace_fails(make_host, outside):
    for config, allowed in ((shell_config(), True), (SANDBOX, False)):
        host = await make_host(plugins=["shell"], config=config)
        result = await host.call("bash", {"command": f"echo x > {outside}/planted"})
        assert ("exit code 0" in result.text) is allowed, result.text
        assert (outside / "planted").exists() is allowed
        if not allowed:
            assert "Read-only file system" in result.text
        (outside / "planted").unlink(missing_ok=True)


async def test_tmp_inside_is_private(make_host, tmp_path):
    host = await make_host(plugins=["shell"], config=SANDBOX)
    # the workspace lies under /tmp here: its sibling is reachable inside, but
    # only in the sandbox's own /tmp
    result = await host.call("bash", {"command": f"echo x > {tmp_path}/sibling && echo wrote"})
    assert "wrote" in result.text
    assert not (tmp_path / "sibling").exists()


async def test_a_write_through_a_symlink_to_outside_fails(make_host, workspace, outside):
    (workspace / "link").symlink_to(outside)
    for config, allowed in ((shell_config(), True), (SANDBOX, False)):
        host = await make_host(plugins=["shell"], config=config)
        result = await host.call("bash", {"command": "echo x > link/planted"})
        assert (outside / "planted").exists() is allowed, result.text
        (outside / "planted").unlink(missing_ok=True)


async def test_the_hosts_own_state_stays_read_only(make_host, workspace):
    host = await make_host(plugins=["shell"], config=SANDBOX)
    await host.call("bash", {"command": "true"})  # the audit log creates the state folder
    state = workspace / ".agenthost"
    assert state.is_dir()
    result = await host.call("bash", {"command": "echo x > .agenthost/planted"})
    assert "Read-only file system" in result.text
    assert not (state / "planted").exists()


async def test_no_network_to_a_loopback_server(make_host, server):
    tcp = f"exec 3<>/dev/tcp/127.0.0.1/{server.port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3"
    commands = [tcp]
    if shutil.which("curl"):
        commands.append(f"curl -sS --max-time 5 http://127.0.0.1:{server.port}/")
    for command in commands:
        host = await make_host(plugins=["shell"], config=shell_config())
        before = server.connections
        result = await host.call("bash", {"command": command})
        assert "hello" in result.text and server.connections > before  # reachable unsandboxed
        host = await make_host(plugins=["shell"], config=SANDBOX)
        before = server.connections
        result = await host.call("bash", {"command": command})
        assert "hello" not in result.text
        assert "exit code 0" not in result.text
        assert server.connections == before


async def test_sandbox_network_can_be_allowed(make_host, server):
    host = await make_host(plugins=["shell"], config=shell_config(sandbox="bwrap", sandbox_network=True))
    result = await host.call("bash", {"command": f"exec 3<>/dev/tcp/127.0.0.1/{server.port} && echo open"})
    assert "open" in result.text


async def test_processes_run_in_their_own_pid_namespace(make_host):
    host = await make_host(plugins=["shell"], config=SANDBOX)
    result = await host.call("bash", {"command": "ps -e -o pid= | wc -l"})
    assert int(result.text.split()[0]) < 10


async def test_background_processes_inside_the_sandbox_are_reaped(make_host, marker):
    from .helpers import RESISTANT_COUNT, RESISTANT_TREE

    host = await make_host(plugins=["shell"], config=SANDBOX)
    async with host.session() as session:
        started = await session.call("bash", {"command": RESISTANT_TREE.format(m=marker), "background": True})
        assert started.ok
        assert len(await asyncio.to_thread(wait_for_marked, marker, RESISTANT_COUNT)) >= RESISTANT_COUNT
        other = await session.call("bash", {"command": f"sleep 7{marker}", "background": True})
        assert len(await asyncio.to_thread(wait_for_marked, f"7{marker}", 1)) == 1
        killed = await session.call("bash_kill", {"process_id": other.data["process_id"]})
        assert killed.ok
        assert find_marked(f"7{marker}") == []
    assert find_marked(marker) == []


async def test_timeout_inside_the_sandbox_kills_the_tree(make_host, marker):
    host = await make_host(plugins=["shell"], config=SANDBOX)
    result = await host.call("bash", {"command": f"sleep 1{marker} & sleep 2{marker}", "timeout_ms": 1000})
    assert result.error.type == "timeout"
    assert find_marked(marker) == []


async def test_missing_bwrap_refuses_rather_than_runs_unsandboxed(make_host, workspace):
    config = shell_config(sandbox="bwrap", bwrap="/nonexistent/bwrap")
    host = await make_host(plugins=["shell"], config=config)
    for args in ({"command": "touch ran"}, {"command": "touch ran", "background": True}):
        result = await host.call("bash", args)
        assert result.error.type == "unavailable"
        assert "apt-get install bubblewrap" in result.text
    assert not (workspace / "ran").exists()
    async with host.session() as session:
        with pytest.raises(Exception, match="bubblewrap"):
            await host.service("run_command", command="touch ran", cwd=None, timeout_s=5, session=session)
    assert not (workspace / "ran").exists()


def test_doctor_reports_whether_bwrap_works(workspace):
    from agenthost import Host
    from agenthost_shell import agenthost_doctor

    host = Host(workspace, config=SANDBOX, plugins=["shell"])
    [row] = agenthost_doctor(host.config)
    assert row["ok"] is True and "starts sandboxes" in row["detail"]
    host = Host(workspace, config=shell_config(bwrap="/nonexistent/bwrap"), plugins=["shell"])
    [row] = agenthost_doctor(host.config)
    assert row["ok"] is False
    assert row["fix"] == "apt-get install bubblewrap"
