"""The ``[plugins.fs]`` table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from agenthost import Param
from agenthost.config import Section

if TYPE_CHECKING:
    from agenthost import ToolContext


class FsSettings(Section):
    max_lines: Annotated[int, Param(ge=1)] = 2000  # read_file lines per call
    max_line_chars: Annotated[int, Param(ge=10)] = 2000  # longer lines are cut
    glob_limit: Annotated[int, Param(ge=1)] = 100  # glob results per call
    grep_engine: Literal["auto", "rg", "python"] = "auto"  # auto: rg when on PATH
    list_limit: Annotated[int, Param(ge=1)] = 1000  # list_dir entries per call


def settings(ctx: ToolContext) -> FsSettings:
    """This host's settings (the config validates them once)."""
    return ctx.config.section("fs", FsSettings)
