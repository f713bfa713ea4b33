"""``ProcessManager``: one session's processes, background and foreground.

It lives in the session's state (``ctx.state("shell", ...)``); closing the
session calls ``aclose()``, which stops every tree the session started. The
host's shutdown hook and an ``atexit`` handler close whatever is left.
"""

from __future__ import annotations

import asyncio
import atexit
import builtins
import os
import secrets
import shutil
import threading
import weakref
from pathlib import Path
from typing import Any

from agenthost.errors import NotFound, Unavailable
from agenthost_shell import sandbox, screen
from agenthost_shell.process import ShellProcess
from agenthost_shell.settings import ShellSettings
from agenthost_shell.tree import stop_trees

_LIVE: weakref.WeakSet[ProcessManager] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


class ProcessManager:
    def __init__(
        self,
        settings: ShellSettings | None = None,
        workspace: str | Path | None = None,
        host: Any = None,
        read_only: tuple[str, ...] = (),
    ) -> None:
        self.settings = settings or ShellSettings()
        self.workspace = Path(workspace or Path.cwd()).resolve()
        self.read_only = read_only
        self._host = weakref.ref(host) if host is not None else None
        self.token = secrets.token_hex(6)
        self._background: dict[str, ShellProcess] = {}  # oldest first
        self._foreground: set[ShellProcess] = set()
        self._lock = threading.Lock()
        self.closed = False
        self.started = 0  # processes ever started
        self._shell: str | None = None
        with _LIVE_LOCK:
            _LIVE.add(self)

    @property
    def host(self) -> Any:
        return self._host() if self._host is not None else None

    # -- starting -------------------------------------------------------------

    def spawn(self, command: str, cwd: str | Path | None = None, *, background: bool = False) -> ShellProcess:
        """Screen ``command`` and start it (sandboxed when configured).
        Raises ``Denied`` for a refused command, ``Unavailable`` when the
        configured sandbox cannot start."""
        if self.closed:
            raise Unavailable("this session's shell is closed; open a new session")
        settings = self.settings
        screen.check(command, settings)
        if self._shell is None:  # resolved once: saves a PATH walk of execve attempts per command
            self._shell = shutil.which(settings.shell) or settings.shell
        argv = [self._shell, "-c", command]
        # a Path's text is cached on the object: the workspace's is built once, not per command
        workdir = self.workspace if cwd is None else cwd if isinstance(cwd, Path) else Path(cwd)
        if settings.sandbox == "bwrap":
            argv = sandbox.wrap(argv, settings, self.workspace, workdir, self.read_only)
        env = screen.child_environment(settings)
        with self._lock:
            id = os.urandom(4).hex()  # what secrets.token_hex(4) returns, without two calls around it
            while id in self._background:
                id = os.urandom(4).hex()
        try:
            proc = ShellProcess(
                id, command, argv, os.fspath(workdir), env, f"{self.token}:{id}",
                settings.head_bytes, settings.tail_bytes, background,
            )  # fmt: skip
        except FileNotFoundError as e:
            raise Unavailable(f"cannot start {argv[0]!r}: {e.strerror}; set [plugins.shell] shell") from None
        with self._lock:
            self.started += 1
            if background:
                self._background[id] = proc
            else:
                self._foreground.add(proc)
        if background:
            self._forget_old()
        return proc

    def finished_foreground(self, proc: ShellProcess) -> None:
        with self._lock:
            self._foreground.discard(proc)

    # -- looking up ------------------------------------------------------------

    def get(self, process_id: str) -> ShellProcess:
        proc = self._background.get(process_id)
        if proc is None:
            raise NotFound(
                f"no background process {process_id!r} in this session (unknown, or forgotten: only the "
                f"newest {self.settings.max_finished} finished ones are kept); bash_list shows them"
            )
        return proc

    def list(self) -> list[ShellProcess]:
        with self._lock:
            return list(self._background.values())

    def _forget_old(self) -> None:
        with self._lock:
            finished = [p for p in self._background.values() if p.exited]
            drop = finished[: max(0, len(finished) - self.settings.max_finished)]
            for proc in drop:
                del self._background[proc.id]
        if drop:  # their leftovers (if any) must not outlive the record
            threading.Thread(
                target=stop_trees, args=(drop, self.settings.kill_grace_s, "forgotten"), daemon=True
            ).start()

    # -- stopping --------------------------------------------------------------

    async def kill(self, process_id: str, reason: str = "bash_kill") -> dict[str, Any]:
        proc = self.get(process_id)
        return await asyncio.to_thread(stop_trees, [proc], self.settings.kill_grace_s, reason)

    async def stop(self, proc: ShellProcess, reason: str) -> dict[str, Any]:
        return await asyncio.to_thread(stop_trees, [proc], self.settings.kill_grace_s, reason)

    def stop_in_background(self, proc: ShellProcess, reason: str) -> None:
        """Stop a tree without waiting (used while a call is being cancelled)."""
        threading.Thread(
            target=stop_trees, args=([proc], self.settings.kill_grace_s, reason), daemon=True
        ).start()

    def _all(self) -> builtins.list[ShellProcess]:
        with self._lock:
            return [*self._background.values(), *self._foreground]

    async def aclose(self) -> None:
        """Stop every process this session started (grace, then SIGKILL)."""
        if self.closed:
            return
        self.closed = True
        await asyncio.to_thread(self.close_now, self.settings.kill_grace_s)

    def close_now(self, grace_s: float, reason: str = "session end") -> dict[str, Any]:
        self.closed = True
        if not self.started:
            with _LIVE_LOCK:
                _LIVE.discard(self)
            return {"terminated": 0, "killed": 0, "survivors": 0}
        result = stop_trees(self._all(), grace_s, reason, tag_prefixes=(f"{self.token}:",))
        with _LIVE_LOCK:
            _LIVE.discard(self)
        return result


async def close_managers_of(host: Any) -> None:
    with _LIVE_LOCK:
        managers = [m for m in _LIVE if m.host is host]
    await asyncio.gather(*(m.aclose() for m in managers), return_exceptions=True)


def _reap_all_at_exit() -> None:
    with _LIVE_LOCK:
        managers = list(_LIVE)
    for manager in managers:
        try:
            manager.close_now(min(manager.settings.kill_grace_s, 1.0), reason="interpreter exit")
        except Exception:
            pass


atexit.register(_reap_all_at_exit)
