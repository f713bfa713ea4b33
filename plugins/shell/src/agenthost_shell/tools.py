"""The shell tools: bash, bash_output, bash_kill, bash_list.

Only their declarations live here; what runs them (``running``: asyncio, the
process manager) is imported on the first call, so listing tools stays cheap.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any

from agenthost import Param, tool
from agenthost.errors import InvalidArguments, ToolFailure

if TYPE_CHECKING:
    from agenthost.context import ToolContext

MAX_TIMEOUT_MS = 600_000
DEFAULT_TIMEOUT_MS = 120_000
DEFAULT_BLOCK_MS = 30_000


@tool(
    level="execute",
    command_arg="command",
    destructive=True,
    open_world=True,
    timeout_s=MAX_TIMEOUT_MS / 1000 + 60,
)
async def bash(
    command: str,
    timeout_ms: Annotated[int, Param(ge=1, le=MAX_TIMEOUT_MS)] = DEFAULT_TIMEOUT_MS,
    background: bool = False,
    working_dir: str | None = None,
    description: str | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> Any:
    """Run a bash command in the workspace and return its stdout, stderr, exit code and duration.

    Long output keeps its head and tail with a marker of what was left out. On timeout the
    whole process tree is killed. With background=true the command keeps running and this
    returns a process_id at once: read its output with bash_output, stop it with bash_kill.

    :param command: the command line (pipes, &&, redirections... are fine)
    :param timeout_ms: time limit in milliseconds for a foreground command (default 120000, max 600000)
    :param background: start it in the background and return a process_id (for servers, watchers, long builds)
    :param working_dir: folder to run in, relative to the workspace (default: the workspace)
    :param description: a few words saying what the command does (for logs and approvals)
    """
    from agenthost.results import JsonBlock, TextBlock
    from agenthost_shell.running import format_outcome, manager_for, run_foreground, working_dir_of

    cwd = working_dir_of(ctx, working_dir)
    manager = manager_for(ctx.session)
    if background:
        proc = manager.spawn(command, cwd, background=True)
        return [
            TextBlock(
                f"process_id: {proc.id}\nstarted in the background (pid {proc.pid}); "
                "read its output with bash_output, stop it with bash_kill"
            ),
            JsonBlock({"process_id": proc.id, "status": "running", "command": command}),
        ]
    outcome = await run_foreground(manager, command, cwd, timeout_ms / 1000)
    if outcome.timed_out:
        output = format_outcome(outcome)
        raise ToolFailure(
            f"bash: the command did not finish within {timeout_ms / 1000:g} s and its process tree was "
            "killed; give it a longer timeout_ms or run it with background=true. Output before the kill:\n"
            + output[-4000:],
            type="timeout",
        )
    return format_outcome(outcome)


@tool(level="read", timeout_s=MAX_TIMEOUT_MS / 1000 + 60)
async def bash_output(
    process_id: str,
    block: bool = False,
    timeout_ms: Annotated[int, Param(ge=0, le=MAX_TIMEOUT_MS)] | None = None,
    filter: str | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Read what a background process wrote since the last bash_output call, with its status and exit code.

    :param process_id: the id bash(background=true) returned
    :param block: wait until the process exits (at most timeout_ms) before reading
    :param timeout_ms: how long block may wait, in milliseconds (default 30000)
    :param filter: a regular expression; only lines matching it are shown (the others are consumed too)
    """
    import asyncio

    from agenthost_shell.running import keep_matching, manager_for

    pattern = None
    if filter:
        try:
            pattern = re.compile(filter)
        except re.error as e:
            raise InvalidArguments(f"filter {filter!r} is not a valid regular expression: {e}") from None
    proc = manager_for(ctx.session).get(process_id)
    if block and not proc.exited:
        await proc.wait((timeout_ms if timeout_ms is not None else DEFAULT_BLOCK_MS) / 1000)
    if proc.exited:
        await asyncio.sleep(0)  # let a just-finished reader hand over its last bytes
    out, err = proc.stdout.drain(), proc.stderr.drain()
    if pattern is not None:
        out, err = keep_matching(out, pattern), keep_matching(err, pattern)
    head = f"status: {proc.status}"
    head += f" ({proc.describe_exit()})" if proc.exited else f" (pid {proc.pid})"
    head += f", {proc.duration_s:.1f} s"
    parts = [head]
    if out:
        parts.append("[stdout]\n" + out.rstrip("\n"))
    if err:
        parts.append("[stderr]\n" + err.rstrip("\n"))
    if not out and not err:
        parts.append("(no new output" + (" matching the filter)" if pattern else ")"))
    return "\n".join(parts)


@tool(level="execute", destructive=True)
async def bash_kill(process_id: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Stop a background process and its whole process tree (SIGTERM, then SIGKILL after a grace period).

    :param process_id: the id bash(background=true) returned
    """
    from agenthost_shell.running import manager_for

    manager = manager_for(ctx.session)
    proc = manager.get(process_id)
    was_running = not proc.exited
    stats = await manager.kill(process_id)
    stopped = stats["terminated"] + stats["killed"]
    if not was_running and not stopped:
        return f"process {process_id} had already ended ({proc.describe_exit()}); nothing to stop"
    how = "SIGKILL after the grace period" if stats["killed"] else "SIGTERM"
    text = f"process {process_id} stopped ({proc.describe_exit()}); {stopped} process(es) in its tree ended by {how}"
    if stats["survivors"]:
        text += f"; {stats['survivors']} could not be stopped"
    return text


@tool(level="read")
async def bash_list(ctx: ToolContext = None) -> list[dict[str, Any]]:  # type: ignore[assignment]
    """List this session's background processes with their status, command and age."""
    import time

    from agenthost_shell.running import manager_for

    now = time.time()
    return [
        {
            "process_id": p.id,
            "status": p.status,
            "exit_code": p.exit_code,
            "command": p.command,
            "pid": p.pid,
            "age_s": round(now - p.started_at, 1),
        }
        for p in manager_for(ctx.session).list()
    ]
