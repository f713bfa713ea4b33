"""Running commands for the shell tools: the session's process manager, a
foreground run to its end, and the text a finished command answers with.

Imported on the first call (it brings in asyncio and the process machinery);
listing the tools only needs ``tools``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost.errors import NotFound, ToolFailure
from agenthost_shell.manager import ProcessManager
from agenthost_shell.process import ShellProcess
from agenthost_shell.settings import ShellSettings
from agenthost_shell.tools import DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS

if TYPE_CHECKING:
    from agenthost.context import ToolContext
    from agenthost.host import Session

STATE_KEY = "shell"


def manager_for(session: Session) -> ProcessManager:
    host = session.host

    def make() -> ProcessManager:
        return ProcessManager(
            host.config.section("shell", ShellSettings), host.workspace.root, host, host.workspace.protected
        )

    return session.state(STATE_KEY, make)


@dataclass
class Outcome:
    proc: ShellProcess
    stdout: str
    stderr: str
    timed_out: bool
    leftovers: int

    @property
    def exit_code(self) -> int | None:
        return self.proc.exit_code


async def run_foreground(manager: ProcessManager, command: str, cwd: Path, timeout_s: float) -> Outcome:
    """Run ``command`` to its end (or ``timeout_s``), then stop whatever it
    left behind. Cancellation stops the tree too."""
    proc = manager.spawn(command, cwd, background=False)
    leftovers = 0
    try:
        finished = await proc.wait(timeout_s)
        if not finished:
            await manager.stop(proc, "timeout")
        elif proc.has_leftovers():
            stats = await manager.stop(proc, "left behind")
            leftovers = stats["terminated"] + stats["killed"]
    except BaseException:
        manager.stop_in_background(proc, "cancelled")
        raise
    finally:
        manager.finished_foreground(proc)
    return Outcome(
        proc, proc.stdout.drain(final=True), proc.stderr.drain(final=True), not finished, leftovers
    )


def working_dir_of(ctx: ToolContext, working_dir: str | None) -> Path:
    if not working_dir:
        return ctx.workspace
    path = ctx.resolve_path(working_dir)
    if not path.is_dir():
        raise NotFound(
            f"working_dir {working_dir!r} is not a folder in the workspace; create it or pick another"
        )
    return path


def format_outcome(outcome: Outcome) -> str:
    parts = []
    if outcome.stdout:
        parts.append(outcome.stdout.rstrip("\n"))
    if outcome.stderr:
        parts.append("[stderr]\n" + outcome.stderr.rstrip("\n"))
    if not parts:
        parts.append("(no output)")
    proc = outcome.proc
    parts.append(f"[{proc.describe_exit()}, {proc.duration_s:.2f} s]")
    if outcome.leftovers:
        parts.append(
            f"[{outcome.leftovers} process(es) it left running were stopped; "
            "start long-running commands with background=true]"
        )
    return "\n".join(parts)


def keep_matching(text: str, pattern: re.Pattern[str]) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(ln for ln in lines if pattern.search(ln) or (ln.startswith("[... ") and "omitted" in ln))


async def run_command(
    command: str, cwd: str | None, timeout_s: float | None, session: Session | None
) -> dict[str, Any]:
    """The ``agenthost_run_command`` service: the same screen, sandbox and
    reaping as ``bash``; raises ``Denied``/``OutsideWorkspace``/``Unavailable``."""
    if session is None:
        raise ToolFailure("run_command needs the calling session (pass session=ctx.session)")
    host = session.host
    workdir = host.workspace.resolve(cwd or ".")
    if not workdir.is_dir():
        raise NotFound(f"cwd {cwd!r} is not a folder in the workspace")
    limit = min(
        timeout_s if timeout_s and timeout_s > 0 else DEFAULT_TIMEOUT_MS / 1000, MAX_TIMEOUT_MS / 1000
    )
    outcome = await run_foreground(manager_for(session), command, workdir, limit)
    return {
        "stdout": outcome.stdout,
        "stderr": outcome.stderr,
        "exit_code": outcome.exit_code,
        "timed_out": outcome.timed_out,
    }
