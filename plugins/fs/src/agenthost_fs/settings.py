"""The ``[plugins.fs]`` table."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agenthost import ToolContext
from agenthost.config import Config, Section


class FsSettings(Section):
    max_lines: int = Field(2000, ge=1)  # read_file lines per call
    max_line_chars: int = Field(2000, ge=10)  # longer lines are cut
    glob_limit: int = Field(100, ge=1)  # glob results per call
    grep_engine: Literal["auto", "rg", "python"] = "auto"  # auto: rg when on PATH
    list_limit: int = Field(1000, ge=1)  # list_dir entries per call


_cache: dict[int, tuple[Config, FsSettings]] = {}


def settings(ctx: ToolContext) -> FsSettings:
    """This host's settings (validated once per config)."""
    config = ctx.config
    hit = _cache.get(id(config))
    if hit is None or hit[0] is not config:
        hit = (config, config.section("fs", FsSettings))
        _cache[id(config)] = hit
    return hit[1]
