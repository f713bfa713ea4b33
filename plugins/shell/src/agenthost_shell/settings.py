"""The ``[plugins.shell]`` table."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from agenthost.config import Section


class ShellSettings(Section):
    shell: str = "bash"
    """The shell that runs each command as ``<shell> -c <command>``."""
    head_bytes: int = Field(20_000, ge=0)
    """Per stream: the first bytes of output kept (since the last read)."""
    tail_bytes: int = Field(20_000, ge=1024)
    """Per stream: the newest bytes kept; what lies between head and tail is dropped and counted."""
    max_finished: int = Field(30, ge=0)
    """Finished background processes remembered; older ones are forgotten."""
    kill_grace_s: float = Field(2.0, ge=0, le=60)
    """Seconds between SIGTERM and SIGKILL when a process tree is stopped."""
    env_passthrough: list[str] = Field(default_factory=list)
    """Secret-looking variables (``*_KEY``, ``*_TOKEN``...) that children may still see (names or globs)."""
    builtin_screen: bool = True
    """Screen commands with the built-in danger patterns."""
    deny_patterns: list[str] = Field(default_factory=list)
    """Extra regular expressions; a command matching one is refused."""
    allow_patterns: list[str] = Field(default_factory=list)
    """When set, every simple command of a command line must match one of these (``re.match``)."""
    sandbox: Literal["none", "bwrap"] = "none"
    """``bwrap`` runs every command under bubblewrap; the tools refuse to run if it is missing."""
    bwrap: str = "bwrap"
    """The bubblewrap executable (name on PATH or a path)."""
    sandbox_network: bool = False
    """Let sandboxed commands use the network."""
    sandbox_writable: list[str] = Field(default_factory=list)
    """Extra folders sandboxed commands may write (besides the workspace and a private /tmp)."""

    @field_validator("deny_patterns", "allow_patterns")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as e:
                raise ValueError(f"invalid regular expression {pattern!r}: {e}") from None
        return patterns
