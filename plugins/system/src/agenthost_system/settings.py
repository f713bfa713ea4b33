"""The ``[plugins.system]`` table."""

from __future__ import annotations

from typing import Annotated

from agenthost import Param
from agenthost.config import Section


class SystemSettings(Section):
    display: str | None = None
    """X display for screenshot and computer (``":0"``); default: ``$DISPLAY``."""
    max_width: Annotated[int, Param(ge=16)] = 1280
    """Screenshots wider than this are scaled down before the model sees them."""
    max_height: Annotated[int, Param(ge=16)] = 800
    """Screenshots taller than this are scaled down before the model sees them."""
    screenshot_dir: str = "screenshots"
    """Where screenshots are saved when no ``path`` is given (relative to the workspace)."""
    xdotool: str = "xdotool"
    """The xdotool command (a name on PATH or a full path)."""
    type_delay_ms: Annotated[int, Param(ge=0, le=1000)] = 12
    """Delay between typed characters."""
    top_processes: Annotated[int, Param(ge=0, le=100)] = 10
    """How many of the busiest processes system_info lists."""
