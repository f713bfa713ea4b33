"""``shell.*``: commands through the shell plugin's ``run_command`` service."""

from __future__ import annotations

import time
from typing import Any

from agenthost.errors import InvalidArguments, NotFound, Unavailable
from agenthost_js.hostapi_bridge import ApiBase, text_arg


class ShellApi(ApiBase):
    """The ``shell.*`` ops."""

    def op_shell_exec(self, command: Any) -> dict[str, Any]:
        return self._shell(command, None, None, "shell.exec")

    def op_shell_execWithTimeout(self, command: Any, timeout: Any) -> dict[str, Any]:
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
            raise InvalidArguments("shell.execWithTimeout: timeout must be a positive number of seconds")
        return self._shell(command, None, float(timeout), "shell.execWithTimeout")

    def op_shell_execInDir(self, command: Any, directory: Any) -> dict[str, Any]:
        return self._shell(command, directory, None, "shell.execInDir")

    def op_shell_pipe(self, commands: Any) -> dict[str, Any]:
        if not isinstance(commands, list) or not commands or not all(isinstance(c, str) for c in commands):
            raise InvalidArguments("shell.pipe: pass a non-empty array of command strings")
        return self._shell(" | ".join(commands), None, None, "shell.pipe")

    def _shell(self, command: Any, directory: Any, timeout: float | None, op: str) -> dict[str, Any]:
        text = text_arg(command, "command")
        ctx = self.ctx
        cwd = self._path(directory, "directory") if directory is not None else ctx.workspace
        if not cwd.is_dir():
            raise NotFound(f"{op}: {directory!r} is not a folder")
        limit = min(timeout or self.settings.permissions.exec_timeout, max(self.run.remaining(), 0.001))

        async def run_command() -> dict[str, Any]:
            started = time.perf_counter()
            answer = await ctx.host.service(
                "run_command", command=text, cwd=str(cwd), timeout_s=limit, session=ctx.session
            )
            if answer is None:
                raise Unavailable(
                    f"{op} needs the shell plugin (agenthost-shell), which is not loaded; "
                    "install it with: pip install agenthost-shell"
                )
            exit_code = answer.get("exit_code")
            timed_out = bool(answer.get("timed_out"))
            return {
                "stdout": answer.get("stdout", ""),
                "stderr": answer.get("stderr", ""),
                "exit_code": exit_code,
                "success": exit_code == 0 and not timed_out,
                "timed_out": timed_out,
                "duration": round(time.perf_counter() - started, 3),
            }

        return self._wait(run_command(), op)  # type: ignore[no-any-return]
