"""The ``[plugins.shell]`` table."""

from __future__ import annotations

import re
from dataclasses import field
from typing import Annotated, Literal

from agenthost import Param
from agenthost.config import Section


def _compiles(patterns: list[str]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as e:
            raise ValueError(f"invalid regular expression {pattern!r}: {e}") from None


class ShellSettings(Section):
    shell: str = "bash"
    """The shell that runs each command as ``<shell> -c <command>``."""
    head_bytes: Annotated[int, Param(ge=0)] = 20_000
    """Per stream: the first bytes of output kept (since the last read)."""
    tail_bytes: Annotated[int, Param(ge=1024)] = 20_000
    """Per stream: the newest bytes kept; what lies between head and tail is dropped and counted."""
    max_finished: Annotated[int, Param(ge=0)] = 30
    """Finished background processes remembered; older ones are forgotten."""
    kill_grace_s: Annotated[float, Param(ge=0, le=60)] = 2.0
    """Seconds between SIGTERM and SIGKILL when a process tree is stopped."""
    env_passthrough: list[str] = field(default_factory=list)
    """Secret-looking variables (``*_KEY``, ``*_TOKEN``...) that children may still see (names or globs)."""
    builtin_screen: bool = True
    """Screen commands with the built-in danger patterns."""
    deny_patterns: Annotated[list[str], Param(check=_compiles)] = field(default_factory=list)
    """Extra regular expressions; a command matching one is refused."""
    allow_patterns: Annotated[list[str], Param(check=_compiles)] = field(default_factory=list)
    """When set, every simple command of a command line must match one of these (``re.match``)."""
    sandbox: Literal["none", "bwrap"] = "none"
    """``bwrap`` runs every command under bubblewrap; the tools refuse to run if it is missing."""
    bwrap: str = "bwrap"
    """The bubblewrap executable (name on PATH or a path)."""
    sandbox_network: bool = False
    """Let sandboxed commands use the network."""
    sandbox_writable: list[str] = field(default_factory=list)
    """Extra folders sandboxed commands may write (besides the workspace and a private /tmp)."""
