"""The event loop's watch over foreground commands: one epoll set for all
their pipes and pidfds, and one timer for their tree snapshots."""

from __future__ import annotations

import asyncio
import select
import weakref
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenthost_shell.process import ShellProcess

SNAPSHOT_INTERVAL_S = 0.5


class LoopWatcher:
    """What one event loop watches for all its foreground commands.

    One epoll set holds every command's pipes and pidfd, and the loop reads it
    through one reader added for the loop's whole life: a command costs three
    epoll_ctl calls, not a reader added and removed (and a set made and closed)
    each time. The tree snapshots of all commands share one timer: commands
    start in time order, so their due times (start + 0.5 s, then every 0.5 s)
    queue in order, and one timer set for the earliest serves them all.

    The loop owns its watcher (through that reader) and the watcher holds the
    loop only weakly, so both go when the loop is closed and dropped.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = weakref.ref(loop)
        self.poller = select.epoll()
        self.procs: dict[int, ShellProcess] = {}  # pipe or pidfd -> its command
        self.due: deque[tuple[float, ShellProcess]] = deque()  # next snapshot, earliest first
        self.armed = False  # a timer is set for due[0]
        try:
            loop.add_reader(self.poller.fileno(), self._ready)
        except BaseException:
            self.poller.close()
            raise

    def watch(self, loop: asyncio.AbstractEventLoop, proc: ShellProcess, fds: tuple[int, ...]) -> None:
        poller, procs = self.poller, self.procs
        try:
            for fd in fds:
                try:
                    poller.register(fd, select.EPOLLIN)
                except FileExistsError:  # the number of a descriptor closed without forget()
                    poller.modify(fd, select.EPOLLIN)
                procs[fd] = proc
        except BaseException:
            self.forget(fds)
            raise
        due = loop.time() + SNAPSHOT_INTERVAL_S
        self.due.append((due, proc))
        if not self.armed:
            loop.call_at(due, self._snapshots)
            self.armed = True

    def forget(self, fds: tuple[int, ...]) -> None:
        """Take these descriptors out of the set before they are closed (a
        child that inherited one for a moment would otherwise keep it in)."""
        for fd in fds:
            if self.procs.pop(fd, None) is not None:
                try:
                    self.poller.unregister(fd)
                except OSError:
                    pass

    def _ready(self) -> None:
        procs = self.procs
        exited: list[ShellProcess] = []
        with_output: set[ShellProcess] = set()
        for fd, _ in self.poller.poll(0):
            proc = procs.get(fd)
            if proc is None:
                continue
            if fd == proc._pidfd:
                exited.append(proc)
            else:
                proc._loop_read(fd)
                with_output.add(proc)
        for proc in exited:
            proc._loop_exit(proc in with_output)

    def _snapshots(self) -> None:
        self.armed = False
        loop = self.loop()
        if loop is None or loop.is_closed():
            return
        due = self.due
        now = loop.time()
        while due and due[0][0] <= now:
            proc = due.popleft()[1]
            if not proc._exited:
                loop.run_in_executor(None, proc._remember_tree)
                due.append((now + SNAPSHOT_INTERVAL_S, proc))  # still in order: later than all queued
        if due:
            loop.call_at(due[0][0], self._snapshots)
            self.armed = True


# id(loop) -> its watcher, weakly: a closed loop's watcher goes with it
_WATCHERS: weakref.WeakValueDictionary[int, LoopWatcher] = weakref.WeakValueDictionary()


def watcher_of(loop: asyncio.AbstractEventLoop) -> LoopWatcher:
    found = _WATCHERS.get(id(loop))
    if found is None or found.loop() is not loop:  # none yet, or an old loop's id reused
        found = _WATCHERS[id(loop)] = LoopWatcher(loop)
    return found
