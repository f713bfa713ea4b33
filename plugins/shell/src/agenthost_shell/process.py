"""One shell process and its reader (the event loop, or a thread).

Each command runs as ``<shell> -c <command>`` in a new session, so its process
group id is its pid. A reader drains both pipes continuously (a chatty
process never blocks on a full pipe) into bounded buffers and notices the
exit through a pidfd. Every child carries ``AGENTHOST_SHELL_TAG`` in its
environment, and the reader remembers the descendants it sees, so a tree is
found again even after children called ``setsid`` and were orphaned
(finding and stopping trees: ``agenthost_shell.tree``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import selectors
import signal
import subprocess
import threading
import time
from typing import TYPE_CHECKING

from agenthost_shell.buffer import OutputBuffer
from agenthost_shell.tree import TAG_VAR, alive_pid

if TYPE_CHECKING:
    import psutil

CHUNK = 1 << 20
FOREGROUND_CHUNK = 1 << 16
PIPE_SIZE = 1 << 20
SNAPSHOT_INTERVAL_S = 0.5
_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_MAX_REMEMBERED = 4096


class ShellProcess:
    """A started command: its buffers, status and tree."""

    def __init__(
        self,
        id: str,
        command: str,
        argv: list[str],
        cwd: str,
        env: dict[bytes, bytes],
        tag: str,
        head_bytes: int,
        tail_bytes: int,
        background: bool,
    ) -> None:
        self.id = id
        self.command = command
        self.background = background
        self.tag = tag
        self.started_at = time.time()
        self._started = time.monotonic()
        self.ended_at: float | None = None
        self.exit_code: int | None = None
        self.stopped_by: str | None = None  # "bash_kill", "timeout", "session end"...
        self.stdout = OutputBuffer(head_bytes, tail_bytes)
        self.stderr = OutputBuffer(head_bytes, tail_bytes)
        self.remembered: dict[int, float] = {}  # descendant pid -> create time
        # reused for every read; a foreground command (read on the event loop, usually
        # short) gets a small one, since zeroing a megabyte costs more than `true` runs
        self._chunk = memoryview(bytearray(CHUNK if background else FOREGROUND_CHUNK))
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self.popen = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**env, TAG_VAR.encode(): tag.encode()},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            bufsize=0,
        )
        self.pid = self.popen.pid
        self._loop: asyncio.AbstractEventLoop | None = None
        if not background and self._start_on_loop():
            return  # a foreground command is read by the calling event loop: no thread to start
        self._thread = threading.Thread(target=self._pump, name=f"agenthost-shell-{id}", daemon=True)
        self._thread.start()

    # -- status -------------------------------------------------------------

    @property
    def exited(self) -> bool:
        return self._done.is_set()

    @property
    def status(self) -> str:
        if not self._done.is_set():
            return "running"
        return "killed" if self.stopped_by else "exited"

    @property
    def duration_s(self) -> float:
        end = self.ended_at if self.ended_at is not None else time.time()
        return max(0.0, end - self.started_at)

    def describe_exit(self) -> str:
        code = self.exit_code
        if code is None:
            return "still running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"killed by {name}" + (f" ({self.stopped_by})" if self.stopped_by else "")
        return f"exit code {code}"

    async def wait(self, timeout: float | None) -> bool:
        """Wait for the shell to exit; False when ``timeout`` passed first."""
        if self._done.is_set():
            return True
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._done.is_set():
                return True
            self._waiters.append((loop, future))
        try:
            async with asyncio.timeout(timeout):
                await future
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock, contextlib.suppress(ValueError):
                self._waiters.remove((loop, future))

    def wait_sync(self, timeout: float | None) -> bool:
        return self._done.wait(timeout)

    def check_exit(self) -> bool:
        """For stoppers (any thread): whether the shell has ended, reaping it
        here when the event loop that reads it no longer runs."""
        if self._done.is_set():
            return True
        loop = self._loop
        if loop is not None and (loop.is_closed() or not loop.is_running()) and self.popen.poll() is not None:
            self._mark_done()
            return True
        return False

    def has_leftovers(self) -> bool:
        """Whether processes the command started are still alive after the
        shell itself exited (cheap: its process group, and descendants seen)."""
        try:
            os.killpg(self.pid, 0)
            return True
        except ProcessLookupError:
            pass
        except PermissionError:
            return True
        return bool(self.remembered) and any(alive_pid(p, t) for p, t in list(self.remembered.items()))

    # -- the output pipes ---------------------------------------------------------

    def _output_pipes(self) -> list[tuple[int, OutputBuffer]]:
        """The shell's stdout and stderr pipes, each with its buffer: made
        non-blocking, and enlarged for a background process (fewer wake-ups)."""
        pipes = []
        for stream, buffer in ((self.popen.stdout, self.stdout), (self.popen.stderr, self.stderr)):
            assert stream is not None
            fd = stream.fileno()
            if self.background:  # read by its own thread; a foreground one is read as it writes
                with contextlib.suppress(OSError):
                    fcntl.fcntl(fd, _F_SETPIPE_SZ, PIPE_SIZE)
            os.set_blocking(fd, False)
            pipes.append((fd, buffer))
        return pipes

    def _close_pipes(self) -> None:
        for stream in (self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]

    # -- reading on the event loop (foreground) -------------------------------

    def _start_on_loop(self) -> bool:
        try:
            loop = asyncio.get_running_loop()
            pidfd = os.pidfd_open(self.pid)
        except (RuntimeError, AttributeError, OSError):
            return False
        pipes: dict[int, OutputBuffer] = {}
        try:
            for fd, buffer in self._output_pipes():
                loop.add_reader(fd, self._loop_read, fd)
                pipes[fd] = buffer
            loop.add_reader(pidfd, self._loop_exit)
        except (NotImplementedError, RuntimeError):  # a loop without add_reader
            for fd in pipes:
                loop.remove_reader(fd)
            os.close(pidfd)
            return False
        self._loop, self._pidfd, self._pipes = loop, pidfd, pipes
        self._snapshot = loop.call_later(SNAPSHOT_INTERVAL_S, self._loop_snapshot)
        return True

    def _loop_read(self, fd: int) -> None:
        n = self._read_into(fd)
        if n < 0:
            return
        if n:
            self._pipes[fd].feed(self._chunk[:n])
        else:
            self._loop.remove_reader(fd)  # type: ignore[union-attr]
            self._pipes.pop(fd).closed = True

    def _loop_exit(self) -> None:
        loop = self._loop
        assert loop is not None
        loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        self._snapshot.cancel()
        budget = 8 * CHUNK  # what the shell wrote before exiting; leftovers may still write
        for fd, buffer in list(self._pipes.items()):
            loop.remove_reader(fd)
            while budget > 0:
                n = self._read_into(fd)
                if n <= 0:
                    break
                buffer.feed(self._chunk[:n])
                budget -= n
            buffer.closed = True
        self._pipes.clear()
        self._close_pipes()
        self.popen.wait()
        self._mark_done()

    def _loop_snapshot(self) -> None:
        if self._done.is_set() or self._loop is None or self._loop.is_closed():
            return
        self._loop.run_in_executor(None, self._remember_tree)
        self._snapshot = self._loop.call_later(SNAPSHOT_INTERVAL_S, self._loop_snapshot)

    # -- the reader thread ----------------------------------------------------

    def _pump(self) -> None:
        sel = selectors.DefaultSelector()
        pipes = {}
        for fd, buffer in self._output_pipes():
            sel.register(fd, selectors.EVENT_READ, buffer)
            pipes[fd] = buffer
        pidfd: int | None = None
        try:
            pidfd = os.pidfd_open(self.pid)
            sel.register(pidfd, selectors.EVENT_READ, None)
        except (AttributeError, OSError):
            pidfd = None
        next_snapshot = time.monotonic() + SNAPSHOT_INTERVAL_S
        try:
            while pipes or not self._done.is_set():
                timeout = SNAPSHOT_INTERVAL_S if pidfd is not None or self._done.is_set() else 0.05
                for key, _ in sel.select(timeout):
                    if key.data is None:
                        sel.unregister(key.fd)
                        os.close(key.fd)
                        pidfd = None
                        self._on_exit(sel, pipes)
                    else:
                        self._read(key.fd, sel, pipes)
                if not self._done.is_set() and pidfd is None and self.popen.poll() is not None:
                    self._on_exit(sel, pipes)
                if self._done.is_set() and not self.background:
                    break  # the caller reaps leftovers; their late output is not waited for
                now = time.monotonic()
                if now >= next_snapshot:
                    next_snapshot = now + SNAPSHOT_INTERVAL_S
                    self._remember_tree()
        except Exception:  # the reader must never die silently with a live child
            if not self._done.is_set():
                with contextlib.suppress(Exception):
                    self.popen.wait()
                self._mark_done()
        finally:
            for fd, buffer in list(pipes.items()):
                with contextlib.suppress(Exception):
                    sel.unregister(fd)
                buffer.closed = True
            if pidfd is not None:
                with contextlib.suppress(OSError):
                    os.close(pidfd)
            sel.close()
            self._close_pipes()

    def _read_into(self, fd: int) -> int:
        """Bytes read into the chunk buffer; 0 at the end, -1 for "nothing now"."""
        try:
            return os.readv(fd, [self._chunk])
        except BlockingIOError:
            return -1
        except OSError:
            return 0

    def _read(self, fd: int, sel: selectors.BaseSelector, pipes: dict[int, OutputBuffer]) -> bool:
        """One read; False when the pipe had nothing more right now."""
        n = self._read_into(fd)
        if n < 0:
            return False
        if n:
            pipes[fd].feed(self._chunk[:n])
            return True
        sel.unregister(fd)
        pipes.pop(fd).closed = True
        return False

    def _on_exit(self, sel: selectors.BaseSelector, pipes: dict[int, OutputBuffer]) -> None:
        # What the shell wrote before exiting is in the pipes: take it before
        # anyone is told the process ended. Bounded, since leftovers may still write.
        budget = 8 * CHUNK
        for fd in list(pipes):
            while fd in pipes and budget > 0 and self._read(fd, sel, pipes):
                budget -= CHUNK
        self.popen.wait()
        self._mark_done()

    def _mark_done(self) -> None:
        with self._lock:
            if self._done.is_set():
                return
            self.exit_code = self.popen.returncode
            self.ended_at = time.time()
            self._done.set()
            waiters, self._waiters = self._waiters, []
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:  # the reader thread
            here = None
        for loop, future in waiters:
            if loop is here:
                _resolve(future)
                continue
            with contextlib.suppress(RuntimeError):  # that loop is closed
                loop.call_soon_threadsafe(_resolve, future)

    def _remember_tree(self) -> None:
        import psutil

        roots: list[psutil.Process] = []
        if not self._done.is_set():
            with contextlib.suppress(psutil.Error):
                roots.append(psutil.Process(self.pid))
        for pid, created in list(self.remembered.items()):
            try:
                proc = psutil.Process(pid)
                if proc.create_time() == created:
                    roots.append(proc)
                    continue
            except psutil.Error:
                pass
            del self.remembered[pid]
        for root in roots:
            try:
                for child in root.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        if len(self.remembered) < _MAX_REMEMBERED:
                            self.remembered.setdefault(child.pid, child.create_time())
            except psutil.Error:
                continue


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
