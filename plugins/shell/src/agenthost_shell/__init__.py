"""Shell tools for agenthost: bash with background processes, process-tree
reaping, a danger screen and an optional bubblewrap sandbox.

Listing the tools imports only their declarations and the settings; the
process machinery (and asyncio) loads with the first command.
"""

from __future__ import annotations

from typing import Any

from agenthost import hookimpl
from agenthost_shell.settings import ShellSettings
from agenthost_shell.tools import bash, bash_kill, bash_list, bash_output

__all__ = ["ProcessManager", "ShellSettings", "bash", "bash_kill", "bash_list", "bash_output"]


def __getattr__(name: str) -> Any:
    if name == "ProcessManager":  # loaded on first use, like everything that runs commands
        from agenthost_shell.manager import ProcessManager

        return ProcessManager
    raise AttributeError(f"module 'agenthost_shell' has no attribute {name!r}")


@hookimpl
def agenthost_register_tools(register: Any, config: Any) -> None:
    config.section("shell", ShellSettings)  # a bad [plugins.shell] table fails here, naming the key
    for item in (bash, bash_output, bash_kill, bash_list):
        register(item)


@hookimpl
def agenthost_run_command(command: str, cwd: str | None, timeout_s: float | None, session: Any) -> Any:
    from agenthost_shell.running import run_command

    return run_command(command, cwd, timeout_s, session)


@hookimpl
async def agenthost_host_shutdown(host: Any) -> None:
    from agenthost_shell.manager import close_managers_of

    await close_managers_of(host)


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    from agenthost_shell.sandbox import doctor_rows

    return doctor_rows(config.section("shell", ShellSettings))
