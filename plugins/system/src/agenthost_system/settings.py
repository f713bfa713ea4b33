"""The ``[plugins.system]`` table."""

from __future__ import annotations

from pydantic import Field

from agenthost.config import Section


class SystemSettings(Section):
    display: str | None = None
    """X display for screenshot and computer (``":0"``); default: ``$DISPLAY``."""
    max_width: int = Field(1280, ge=16)
    """Screenshots wider than this are scaled down before the model sees them."""
    max_height: int = Field(800, ge=16)
    """Screenshots taller than this are scaled down before the model sees them."""
    screenshot_dir: str = "screenshots"
    """Where screenshots are saved when no ``path`` is given (relative to the workspace)."""
    xdotool: str = "xdotool"
    """The xdotool command (a name on PATH or a full path)."""
    type_delay_ms: int = Field(12, ge=0, le=1000)
    """Delay between typed characters."""
    top_processes: int = Field(10, ge=0, le=100)
    """How many of the busiest processes system_info lists."""
