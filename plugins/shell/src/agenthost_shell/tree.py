"""Finding and stopping whole process trees of shell commands.

A tree is found through the shells' process groups and sessions, the
descendants their readers remembered (children that called ``setsid`` and
were orphaned), and the ``AGENTHOST_SHELL_TAG`` every child carries in its
environment. Stopping is SIGTERM, a grace period, then SIGKILL for what is
left and for anything forked meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psutil

    from agenthost_shell.process import ShellProcess

TAG_VAR = "AGENTHOST_SHELL_TAG"


def alive_pid(pid: int, created: float) -> bool:
    """Whether ``pid`` is still the process created at ``created``, and not a zombie."""
    import psutil

    try:
        proc = psutil.Process(pid)
        return proc.create_time() == created and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _alive(proc: psutil.Process) -> bool:
    import psutil

    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def find_tree(shells: Iterable[ShellProcess], tag_prefixes: Iterable[str] = ()) -> list[psutil.Process]:
    """Every live process that belongs to these shells' trees, the shells
    themselves excluded: members of their process groups and sessions,
    descendants (of the shells and of remembered descendants), and anything
    whose environment carries one of the tags."""
    import psutil

    shells = list(shells)
    prefixes = tuple(tag_prefixes) + tuple(s.tag for s in shells)
    live_shells = {s.pid for s in shells if not s.exited}
    groups = {s.pid for s in shells}
    remembered = {pid: t for s in shells for pid, t in list(s.remembered.items())}
    me = os.getpid()
    parents: dict[int, int] = {}
    procs: dict[int, psutil.Process] = {}
    found: set[int] = set()
    for proc in psutil.process_iter(["ppid"]):
        pid = proc.pid
        if pid == me or pid in live_shells:
            parents[pid] = proc.info["ppid"] or 0
            continue
        procs[pid] = proc
        parents[pid] = proc.info["ppid"] or 0
        try:
            if os.getpgid(pid) in groups or os.getsid(pid) in groups:
                found.add(pid)
                continue
        except OSError:
            continue
        if pid in remembered:
            with contextlib.suppress(psutil.Error):
                if proc.create_time() == remembered[pid]:
                    found.add(pid)
                    continue
        if prefixes:
            try:
                tag = proc.environ().get(TAG_VAR, "")
            except psutil.Error:
                continue
            if tag and tag.startswith(prefixes):
                found.add(pid)
    # descendants of the shells and of everything found
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    stack = list(found | live_shells)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found and child in procs:
                found.add(child)
                stack.append(child)
    return [procs[pid] for pid in found if _alive(procs[pid])]


def _signal(shells: list[ShellProcess], procs: Iterable[psutil.Process], sig: int) -> None:
    import psutil

    for shell in shells:
        if not shell.exited:
            with contextlib.suppress(OSError):
                os.killpg(shell.pid, sig)
    for proc in procs:
        with contextlib.suppress(psutil.Error, OSError):
            proc.send_signal(sig)
            if sig == signal.SIGTERM:
                proc.send_signal(signal.SIGCONT)  # a stopped process cannot act on SIGTERM


def stop_trees(
    shells: Iterable[ShellProcess],
    grace_s: float,
    reason: str,
    tag_prefixes: Iterable[str] = (),
) -> dict[str, Any]:
    """SIGTERM every process of these trees, SIGKILL what is left after
    ``grace_s``, and repeat for anything forked meanwhile. Blocking: call it
    in a thread. Returns counts of what was stopped."""
    shells = list(shells)
    prefixes = tuple(tag_prefixes)
    for shell in shells:
        if not shell.check_exit() and shell.stopped_by is None:
            shell.stopped_by = reason
    targets = find_tree(shells, prefixes)
    running = [s for s in shells if not s.check_exit()]
    if not targets and not running:
        return {"terminated": 0, "killed": 0, "survivors": 0}
    seen = {p.pid for p in targets}
    _signal(shells, targets, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in targets) and all(s.check_exit() for s in running):
            break
        time.sleep(0.02)
    terminated = sum(1 for p in targets if not _alive(p)) + sum(1 for s in running if s.exited)
    killed = 0
    left = 0
    for attempt in range(20):
        survivors = [p for p in targets if _alive(p)]
        fresh = [p for p in find_tree(shells, prefixes) if p.pid not in seen]
        seen.update(p.pid for p in fresh)
        survivors += fresh
        if not survivors and all(s.check_exit() for s in shells):
            break
        if attempt == 19:
            left = len(survivors)
            break
        _signal(shells, survivors, signal.SIGKILL)
        killed += len(survivors) + sum(1 for s in shells if not s.exited)
        targets = survivors
        end = time.monotonic() + 2.0
        while time.monotonic() < end and (
            any(_alive(p) for p in survivors) or not all(s.check_exit() for s in shells)
        ):
            time.sleep(0.01)
    end = time.monotonic() + 2.0
    while time.monotonic() < end and not all(s.check_exit() for s in shells):
        time.sleep(0.01)
    return {"terminated": terminated, "killed": killed, "survivors": left}
