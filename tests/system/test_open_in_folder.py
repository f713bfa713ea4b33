"""open_in_folder runs the real commands of each platform; here those commands
are recording stand-ins on PATH (they write their argv to a file), and the
platform is chosen through ``agenthost_system.environment.PLATFORM``."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from agenthost_system import environment, reveal


@pytest.fixture
def fakebin(tmp_path, monkeypatch):
    """A folder of stand-in commands that alone makes up PATH; ``install(name,
    exit_code, stderr, linger)`` adds one; ``calls(name)`` is what each call got."""
    folder = tmp_path / "bin"
    folder.mkdir()
    records = tmp_path / "records"
    records.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("FAKE_RECORDS", str(records))
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)

    class Fakes:
        path = folder

        @staticmethod
        def install(name: str, exit_code: int = 0, stderr: str = "", linger: bool = False) -> None:
            script = folder / name
            lines = [
                "#!/bin/sh",
                # one record per call: the pid, then one argument per line
                'out="$FAKE_RECORDS/' + name + '.$$"',
                'echo "$$" > "$out"',
                'for a in "$@"; do printf "%s\\n" "$a" >> "$out"; done',
            ]
            if stderr:
                lines.append(f"echo '{stderr}' >&2")
            if linger:
                lines.append("exec /bin/sleep 60")
            lines.append(f"exit {exit_code}")
            script.write_text("\n".join(lines) + "\n")
            script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

        @staticmethod
        def calls(name: str) -> list[list[str]]:
            found = []
            for record in sorted(records.glob(f"{name}.*")):
                _pid, *argv = record.read_text().splitlines()
                found.append(argv)
            return found

        @staticmethod
        def pids(name: str) -> list[int]:
            return [int(r.read_text().split()[0]) for r in records.glob(f"{name}.*")]

    return Fakes


@pytest.fixture
def on(monkeypatch):
    def choose(platform: str) -> None:
        monkeypatch.setattr(environment, "PLATFORM", platform)

    return choose


@pytest.fixture
def report(workspace: Path) -> Path:
    folder = workspace / "out dir"
    folder.mkdir()
    target = folder / "report's file.txt"
    target.write_text("hello")
    return target


async def test_linux_without_a_session_bus_opens_the_folder_with_xdg_open(make_host, fakebin, on, report):
    on("linux")
    fakebin.install("xdg-open")
    fakebin.install("gdbus")  # present, but there is no bus to call
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert "xdg-open" in result.text
    assert fakebin.calls("xdg-open") == [[str(report.parent)]]
    assert fakebin.calls("gdbus") == []

    folder = await host.call("open_in_folder", {"path": "out dir"})
    assert folder.ok, folder.text
    assert fakebin.calls("xdg-open")[-1] == [str(report.parent)]  # a folder is opened itself


async def test_linux_with_a_session_bus_calls_filemanager1_showitems(
    make_host, fakebin, on, report, monkeypatch
):
    on("linux")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
    fakebin.install("gdbus")
    fakebin.install("xdg-open")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert "org.freedesktop.FileManager1" in result.text
    uri = report.as_uri()
    assert "%27" in uri and "%20" in uri  # the quote and space are escaped inside the GVariant string
    assert fakebin.calls("gdbus") == [
        [
            "call", "--session",
            "--dest", "org.freedesktop.FileManager1",
            "--object-path", "/org/freedesktop/FileManager1",
            "--method", "org.freedesktop.FileManager1.ShowItems",
            f"['{uri}']", "",
        ]
    ]  # fmt: skip
    assert fakebin.calls("xdg-open") == []


async def test_dbus_send_is_used_when_gdbus_is_missing(make_host, fakebin, on, report, monkeypatch):
    on("linux")
    runtime = Path(os.environ["FAKE_RECORDS"]).parent / "run"
    runtime.mkdir()
    import socket

    with socket.socket(socket.AF_UNIX) as bus:  # a session bus found by its socket alone
        bus.bind(str(runtime / "bus"))
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        fakebin.install("dbus-send")
        host = await make_host(plugins=["system"])
        result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert fakebin.calls("dbus-send") == [
        [
            "--session", "--print-reply",
            "--dest=org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
            "org.freedesktop.FileManager1.ShowItems",
            f"array:string:{report.as_uri()}", "string:",
        ]
    ]  # fmt: skip


async def test_a_failing_filemanager1_call_falls_back_to_xdg_open(
    make_host, fakebin, on, report, monkeypatch
):
    on("linux")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
    fakebin.install(
        "gdbus", exit_code=1, stderr="Error: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown"
    )
    fakebin.install("xdg-open")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert len(fakebin.calls("gdbus")) == 1
    assert fakebin.calls("xdg-open") == [[str(report.parent)]]


async def test_an_xdg_open_that_fails_is_an_error_with_its_message(make_host, fakebin, on, report):
    on("linux")
    fakebin.install("xdg-open", exit_code=3, stderr="xdg-open: no method available for opening")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir"})
    assert not result.ok and result.error.type == "tool_error"
    assert "xdg-open exited with 3" in result.text and "no method available" in result.text
    assert "no D-Bus session bus" in result.text


async def test_an_xdg_open_that_stays_running_is_left_to_start_the_file_manager(
    make_host, fakebin, on, report, monkeypatch
):
    on("linux")
    monkeypatch.setattr(reveal, "LAUNCH_WAIT_S", 0.5)
    fakebin.install("xdg-open", linger=True)
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir"})
    try:
        assert result.ok, result.text
        assert "starting" in result.text
        [pid] = fakebin.pids("xdg-open")
        os.kill(pid, 0)  # still running: it was not killed
    finally:
        for pid in fakebin.pids("xdg-open"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


async def test_linux_with_no_file_manager_at_all_says_what_to_install(make_host, fakebin, on, report):
    on("linux")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir"})
    assert not result.ok and result.error.type == "unavailable"
    assert "no D-Bus session bus" in result.text and "xdg-open is not on PATH" in result.text
    assert "apt-get install xdg-utils" in result.text


async def test_macos_reveals_with_open_dash_r(make_host, fakebin, on, report):
    on("darwin")
    fakebin.install("open")
    fakebin.install("xdg-open")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert "Finder" in result.text
    assert fakebin.calls("open") == [["-R", str(report)]]
    assert fakebin.calls("xdg-open") == []


async def test_macos_open_failing_or_missing(make_host, fakebin, on, report):
    on("darwin")
    host = await make_host(plugins=["system"])
    missing = await host.call("open_in_folder", {"path": "out dir"})
    assert not missing.ok and missing.error.type == "unavailable"
    assert "`open`" in missing.text
    fakebin.install("open", exit_code=1, stderr="The file does not exist.")
    failed = await host.call("open_in_folder", {"path": "out dir"})
    assert not failed.ok and failed.error.type == "tool_error"
    assert "open -R exited with 1" in failed.text


async def test_windows_selects_the_file_in_explorer(make_host, fakebin, on, report):
    on("win32")
    fakebin.install("explorer", exit_code=1)  # explorer.exe exits with 1 even when it worked
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir/report's file.txt"})
    assert result.ok, result.text
    assert "Explorer" in result.text
    assert fakebin.calls("explorer") == [[f"/select,{report}"]]


async def test_windows_without_explorer(make_host, fakebin, on, report):
    on("win32")
    host = await make_host(plugins=["system"])
    result = await host.call("open_in_folder", {"path": "out dir"})
    assert not result.ok and result.error.type == "unavailable"
    assert "explorer" in result.text.lower()


async def test_the_path_is_confined_to_the_workspace_and_must_exist(make_host, fakebin, on, tmp_path):
    on("linux")
    fakebin.install("xdg-open")
    (tmp_path / "secret.txt").write_text("x")
    host = await make_host(plugins=["system"])
    outside = await host.call("open_in_folder", {"path": str(tmp_path / "secret.txt")})
    assert not outside.ok and outside.error.type == "outside_workspace"
    up = await host.call("open_in_folder", {"path": "../secret.txt"})
    assert not up.ok and up.error.type == "outside_workspace"
    missing = await host.call("open_in_folder", {"path": "nope.txt"})
    assert not missing.ok and missing.error.type == "not_found"
    assert fakebin.calls("xdg-open") == []
