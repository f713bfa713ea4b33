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
import select
import selectors
import signal
import subprocess
import threading
import time
from typing import TYPE_CHECKING

from agenthost_shell.buffer import OutputBuffer
from agenthost_shell.loopwatch import SNAPSHOT_INTERVAL_S, watcher_of
from agenthost_shell.tree import TAG_VAR, alive_pid

if TYPE_CHECKING:
    import psutil

CHUNK = 1 << 20
FOREGROUND_CHUNK = 1 << 16
PIPE_SIZE = 1 << 20
_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_MAX_REMEMBERED = 4096
_TAG_VAR = TAG_VAR.encode()
_devnull_fd = -1
_devnull_lock = threading.Lock()


def _devnull() -> int:
    """Every child's stdin: /dev/null opened once, not per command (read-write,
    as subprocess.DEVNULL opens it)."""
    global _devnull_fd
    if _devnull_fd < 0:
        with _devnull_lock:
            if _devnull_fd < 0:
                _devnull_fd = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    return _devnull_fd


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
        self.ended_at: float | None = None
        self.exit_code: int | None = None
        self.stopped_by: str | None = None  # "bash_kill", "timeout", "session end"...
        self.stdout = OutputBuffer(head_bytes, tail_bytes)
        self.stderr = OutputBuffer(head_bytes, tail_bytes)
        self.remembered: dict[int, float] = {}  # descendant pid -> create time
        self._lock = threading.Lock()
        self._exited = False
        self._exited_event: threading.Event | None = None  # made by wait_sync only
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pidfd = -1
        # Our own pipes, passed as descriptors: Popen then wraps nothing in file
        # objects and opens no /dev/null of its own (less work on every command).
        self._out, out_w = os.pipe()
        self._err, err_w = os.pipe()
        self._fds = [self._out, out_w, self._err, err_w]  # ours to close, once
        try:
            self.popen = subprocess.Popen(
                argv,
                cwd=cwd,
                env={**env, _TAG_VAR: tag.encode()},
                stdin=_devnull(),
                stdout=out_w,
                stderr=err_w,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            self._close_fds()
            raise
        self.pid = self.popen.pid
        if not background and self._start_on_loop():
            return  # a foreground command is read by the calling event loop: no thread to start
        for fd in (out_w, err_w):  # the thread reads until both pipes end
            self._fds.remove(fd)
            os.close(fd)
        # reused for every read by the thread; a foreground command read there (no running
        # loop) gets a small one, since zeroing a megabyte costs more than `true` runs
        self._chunk = memoryview(bytearray(CHUNK if background else FOREGROUND_CHUNK))
        self._thread = threading.Thread(target=self._pump, name=f"agenthost-shell-{id}", daemon=True)
        self._thread.start()

    def __del__(self) -> None:
        # a safety net for a reader that never saw the exit (its event loop was
        # closed); cheap when, as nearly always, the reader closed everything
        if getattr(self, "_fds", None):
            try:
                self._close_fds()
            except Exception:
                pass

    # -- status -------------------------------------------------------------

    @property
    def exited(self) -> bool:
        return self._exited

    @property
    def status(self) -> str:
        if not self._exited:
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
        if self._exited:
            return True
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        waiter = (loop, future)
        with self._lock:
            if self._exited:
                return True
            self._waiters.append(waiter)
        # the timeout resolves the same future: a plain timer, without the Timeout
        # object, async enter/exit and task bookkeeping asyncio.timeout adds per command
        timer = None if timeout is None else loop.call_later(timeout, _resolve, future)
        try:
            await future
        finally:
            if timer is not None:
                timer.cancel()
            if not self._exited:
                with self._lock:
                    if waiter in self._waiters:
                        self._waiters.remove(waiter)
        return self._exited

    def wait_sync(self, timeout: float | None) -> bool:
        with self._lock:
            if self._exited:
                return True
            if self._exited_event is None:
                self._exited_event = threading.Event()
            event = self._exited_event
        return event.wait(timeout)

    def check_exit(self) -> bool:
        """For stoppers (any thread): whether the shell has ended, reaping it
        here when the event loop that reads it no longer runs."""
        if self._exited:
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
        for fd, buffer in ((self._out, self.stdout), (self._err, self.stderr)):
            if self.background:  # read by its own thread; a foreground one is read as it writes
                with contextlib.suppress(OSError):
                    fcntl.fcntl(fd, _F_SETPIPE_SZ, PIPE_SIZE)
            os.set_blocking(fd, False)
            pipes.append((fd, buffer))
        return pipes

    def _close_fds(self) -> None:
        """Close the pipes (and the pidfd) we hold, once: the numbers may be reused right after."""
        with self._lock:
            fds, self._fds = self._fds, []
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass

    # -- reading on the event loop (foreground) -------------------------------

    def _start_on_loop(self) -> bool:
        try:
            loop = asyncio.get_running_loop()
            pidfd = os.pidfd_open(self.pid)
        except (RuntimeError, AttributeError, OSError):
            return False
        self._fds.append(pidfd)
        self._pidfd = pidfd
        # The pipes stay blocking (no fcntl calls): they are read only when the
        # epoll set says so. Their write ends stay open here until the exit, so
        # the shell's exit does not wake the loop for two ends of file before
        # the pidfd fires: what is left in the pipes is read at the pidfd's word.
        self._pipes = {self._out: self.stdout, self._err: self.stderr}
        try:
            watcher = watcher_of(loop)
            watcher.watch(loop, self, (self._out, self._err, pidfd))
        except (NotImplementedError, RuntimeError, OSError):  # a loop without add_reader
            self._fds.remove(pidfd)
            os.close(pidfd)
            return False
        self._loop, self._watcher = loop, watcher
        return True

    def _loop_read(self, fd: int) -> int:
        """One read of a pipe the epoll set reported ready: the bytes read (0 at its end)."""
        try:
            # os.read rather than a reused buffer: a foreground command usually
            # writes little, and this allocates only what arrived
            data = os.read(fd, FOREGROUND_CHUNK)
        except OSError:
            data = b""
        if data:
            self._pipes[fd].feed(data)
            return len(data)
        self._watcher.forget((fd,))
        self._pipes.pop(fd).closed = True
        return 0

    def _loop_exit(self, more_output: bool) -> None:
        watcher = self._watcher
        watcher.forget((self._pidfd,))
        # What the shell wrote before exiting is in the pipes: take it before
        # anyone is told the process ended. Bounded, since leftovers may still
        # write. Only a pipe that had output when the exit was seen can hold more.
        if more_output:
            ready = select.poll()
            for fd in self._pipes:
                ready.register(fd, select.POLLIN)
            budget = 8 * CHUNK
            while self._pipes and budget > 0:
                fds = [fd for fd, _ in ready.poll(0) if fd in self._pipes]
                if not fds:
                    break
                for fd in fds:
                    n = self._loop_read(fd)
                    budget -= n
                    if not n:
                        ready.unregister(fd)
        watcher.forget(tuple(self._pipes))
        for buffer in self._pipes.values():
            buffer.closed = True
        self._pipes.clear()
        self._close_fds()
        self.popen.wait()
        self._mark_done()

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
            while pipes or not self._exited:
                timeout = SNAPSHOT_INTERVAL_S if pidfd is not None or self._exited else 0.05
                for key, _ in sel.select(timeout):
                    if key.data is None:
                        sel.unregister(key.fd)
                        os.close(key.fd)
                        pidfd = None
                        self._on_exit(sel, pipes)
                    else:
                        self._read(key.fd, sel, pipes)
                if not self._exited and pidfd is None and self.popen.poll() is not None:
                    self._on_exit(sel, pipes)
                if self._exited and not self.background:
                    break  # the caller reaps leftovers; their late output is not waited for
                now = time.monotonic()
                if now >= next_snapshot:
                    next_snapshot = now + SNAPSHOT_INTERVAL_S
                    self._remember_tree()
        except Exception:  # the reader must never die silently with a live child
            if not self._exited:
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
            self._close_fds()

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
            if self._exited:
                return
            self.exit_code = self.popen.returncode
            self.ended_at = time.time()
            self._exited = True
            waiters, self._waiters = self._waiters, []
            event = self._exited_event
        if event is not None:
            event.set()
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
        if not self._exited:
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
