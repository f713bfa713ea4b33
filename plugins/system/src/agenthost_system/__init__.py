"""Desktop tools for agenthost: screenshot, open_in_folder, computer control, system_info.

This module only declares the tools: each imports its implementation (capture,
desktop, reveal, sysinfo) on its first call, so listing tools does not pay for
them.
"""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from agenthost import NotFound, Param, hookimpl, tool
from agenthost_system import environment
from agenthost_system.settings import SystemSettings

if TYPE_CHECKING:
    from agenthost import ToolContext
    from agenthost.results import Block

Coordinate = Annotated[list[int], Param(min_length=2, max_length=2)]
Action = Literal[
    "mouse_move",
    "left_click",
    "right_click",
    "double_click",
    "drag",
    "type",
    "key",
    "scroll",
    "cursor_position",
    "screenshot",
]
ScrollDirection = Literal["up", "down", "left", "right"]


@dataclass
class Region:
    """A rectangle in screen pixels, relative to the chosen monitor."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}  # unknown keys are errors
    x: Annotated[int, Param(ge=0)]
    y: Annotated[int, Param(ge=0)]
    width: Annotated[int, Param(ge=1)]
    height: Annotated[int, Param(ge=1)]


def _settings(ctx: ToolContext) -> SystemSettings:
    return ctx.config.section("system", SystemSettings)


@tool(level="execute", read_only=True, path_args=("path",))
def screenshot(
    path: str | None = None,
    monitor: Annotated[int, Param(ge=0)] | None = None,
    region: Region | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> list[Block]:
    """Capture the desktop (whole screen, one monitor, or a region) as a PNG.

    The full-resolution PNG is saved in the workspace; the image returned is
    scaled down to the configured maximum and the text states the scale. The
    `computer` tool takes coordinates in the pixels of the last screenshot.

    :param path: where to save the PNG in the workspace (default: screenshots/screenshot-<time>.png)
    :param monitor: 0 = every monitor together (default), 1, 2... = one monitor
    :param region: only this rectangle, in screen pixels relative to the monitor
    """
    from agenthost_system import capture

    area = asdict(region) if region is not None else None
    return list(capture.take_screenshot(ctx, _settings(ctx), path, monitor, area))


@tool(level="execute", read_only=True, path_args=("path",))
async def open_in_folder(path: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Reveal a file or folder in the system file manager (Files, Finder, Explorer).

    :param path: the file or folder, inside the workspace
    """
    target = ctx.resolve_path(path)
    if not target.exists():
        raise NotFound(f"{path} does not exist; check the path with a file listing")
    from agenthost_system import reveal

    return await reveal.reveal(target, ctx.relative(target) or ".", _settings(ctx))


@tool(level="execute", destructive=True, open_world=True)
async def computer(
    action: Action,
    coordinate: Coordinate | None = None,
    start_coordinate: Coordinate | None = None,
    text: str | None = None,
    scroll_direction: ScrollDirection | None = None,
    scroll_amount: Annotated[int, Param(ge=1, le=50)] = 3,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> list[Block]:
    """Control the desktop's mouse and keyboard (X11, through xdotool).

    Coordinates are pixels of this session's last screenshot (take one first
    with action "screenshot"); they are mapped back to the screen with that
    screenshot's scale.

    :param action: mouse_move, left_click, right_click, double_click, drag, type, key, scroll, cursor_position or screenshot
    :param coordinate: [x, y] target (mouse_move, drag end; optional for clicks and scroll)
    :param start_coordinate: [x, y] where a drag starts
    :param text: text to type, or keys for key: "ctrl+s", "Return", "alt+Tab"
    :param scroll_direction: up, down, left or right
    :param scroll_amount: scroll wheel clicks
    """
    from agenthost_system import desktop

    return await desktop.perform(
        ctx, _settings(ctx), action, coordinate, start_coordinate, text, scroll_direction, scroll_amount
    )


@tool(level="read")
async def system_info(ctx: ToolContext = None) -> list[Block]:  # type: ignore[assignment]
    """Report the OS, CPU, memory, disks and the busiest processes of this machine."""
    import asyncio

    from agenthost.results import JsonBlock, TextBlock
    from agenthost_system import sysinfo

    info = await asyncio.to_thread(sysinfo.collect, _settings(ctx))
    return [TextBlock(sysinfo.summary(info)), JsonBlock(info)]


@hookimpl
def agenthost_register_tools(register: Any, config: Any) -> None:
    settings = config.section("system", SystemSettings)
    for t in (screenshot, open_in_folder, computer, system_info):
        register(t)
    if environment.uses_x11() and shutil.which(settings.xdotool) is None:
        register.problem(f"computer: xdotool not found ({settings.xdotool!r}); apt-get install xdotool")


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    from agenthost_system.doctor import rows

    return rows(config.section("system", SystemSettings))
