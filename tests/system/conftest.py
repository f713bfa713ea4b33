"""A real X server (Xvfb) started by the tests, and a Tk program on it."""

from __future__ import annotations

import os
import queue
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

APP = Path(__file__).with_name("desktop_app.py")
SCREEN = (640, 480)


@pytest.fixture(scope="session")
def xvfb() -> Iterator[str]:
    """The display name of an Xvfb server of 640x480x24 that this test run started.

    ``-displayfd`` lets Xvfb pick a free display number itself, so parallel
    test workers never race for one.
    """
    if shutil.which("Xvfb") is None:
        pytest.skip(reason="Xvfb not on PATH (apt-get install xvfb)")
    argv = [
        "Xvfb",
        "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
        "-nolisten", "tcp",
        "-noreset",  # else the server resets (pointer and all) whenever its last client leaves
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:  # a file, not a pipe: a full pipe would stall the server
        read_end, write_end = os.pipe()
        proc = subprocess.Popen(
            [*argv, "-displayfd", str(write_end)],
            pass_fds=(write_end,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
        os.close(write_end)
        number = _read_display_number(read_end, timeout=30)
        os.close(read_end)
        try:
            if not number:
                proc.kill()
                proc.wait()
                log.seek(0)
                pytest.fail(f"Xvfb did not start: {log.read().decode(errors='replace')[-500:]}")
            yield ":" + number
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _read_display_number(fd: int, timeout: float) -> str:
    number = b""
    deadline = time.monotonic() + timeout
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            chunk = os.read(fd, 32)
            if not chunk:
                break
            number += chunk
    return number.decode().strip()


class DesktopApp:
    """The Tk test program; ``lines`` receives what it prints."""

    def __init__(self, display: str, *args: str) -> None:
        env = {**os.environ, "DISPLAY": display}
        self.proc = subprocess.Popen(
            [sys.executable, str(APP), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        first = self.next_line(timeout=30)
        if first != "ready":
            self.close()
            raise RuntimeError(f"the Tk program did not start: {first!r} {self.proc.stderr.read()!r}")  # type: ignore[union-attr]

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("<eof>")

    def next_line(self, timeout: float = 15) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return "<nothing>"

    def wait_for(self, prefix: str, timeout: float = 15) -> str:
        """The first line starting with ``prefix`` (other lines are dropped)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            line = self.next_line(left)
            if line.startswith(prefix) or line in ("<eof>", "<nothing>"):
                return line
        return "<nothing>"

    def drain(self) -> list[str]:
        out = []
        while True:
            try:
                out.append(self.lines.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def desktop_app(xvfb: str) -> Iterator[type[DesktopApp]]:
    """``desktop_app(*args)`` starts the Tk program on the test display; all are closed after."""
    try:
        import tkinter  # noqa: F401
    except ImportError:
        pytest.skip(reason="tkinter not importable (apt-get install python3-tk)")
    started: list[DesktopApp] = []

    def start(*args: str) -> DesktopApp:
        app = DesktopApp(xvfb, *args)
        started.append(app)
        return app

    yield start  # type: ignore[misc]
    for app in started:
        app.close()


@pytest.fixture
def xdotool() -> str:
    found = shutil.which("xdotool")
    if found is None:
        pytest.skip(reason="xdotool not on PATH (apt-get install xdotool)")
    return found
