"""Desktop control on X11 through xdotool (the actions of Anthropic's
computer-use tool). Coordinates are pixels of the session's last screenshot;
they are mapped back to screen pixels through its frame."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
from typing import TYPE_CHECKING

from agenthost.errors import InvalidArguments, ToolFailure, Unavailable
from agenthost.results import Block, JsonBlock, TextBlock
from agenthost_system import capture, environment
from agenthost_system.settings import SystemSettings

if TYPE_CHECKING:
    from agenthost.context import ToolContext

SCROLL_BUTTONS = {"up": "4", "down": "5", "left": "6", "right": "7"}
CLICK_BUTTONS = {"left_click": "1", "right_click": "3", "double_click": "1"}
MAX_TYPE_CHARS = 5_000  # at the default delay, well inside the default call timeout

# Names models write for keys, as X keysyms; anything else passes through.
KEY_ALIASES = {
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "backspace": "BackSpace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "space": "space",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "pageup": "Page_Up",
    "page_up": "Page_Up",
    "pagedown": "Page_Down",
    "page_down": "Page_Down",
    "home": "Home",
    "end": "End",
    "control": "ctrl",
    "cmd": "super",
    "command": "super",
    "win": "super",
    "windows": "super",
    "meta": "super",
    "option": "alt",
}
FUNCTION_KEY = re.compile(r"^f([1-9]|1[0-9]|2[0-4])$")


def keysyms(combo: str) -> list[str]:
    """``"ctrl+s Return"`` → ``["ctrl+s", "Return"]`` with common names made keysyms."""
    keys = []
    for chord in combo.split():
        parts = []
        for part in chord.split("+"):
            lower = part.lower()
            if lower in KEY_ALIASES:
                parts.append(KEY_ALIASES[lower])
            elif FUNCTION_KEY.match(lower):
                parts.append(lower.upper())
            else:
                parts.append(part)
        keys.append("+".join(parts))
    return keys


def find_xdotool(settings: SystemSettings) -> str:
    found = shutil.which(settings.xdotool)
    if found is None:
        raise Unavailable(
            f"xdotool not found ({settings.xdotool!r}): install it (apt-get install xdotool) "
            "or set [plugins.system] xdotool to its path"
        )
    return found


async def perform(
    ctx: ToolContext,
    settings: SystemSettings,
    action: str,
    coordinate: list[int] | None,
    start_coordinate: list[int] | None,
    text: str | None,
    scroll_direction: str | None,
    scroll_amount: int,
) -> list[Block]:
    if not environment.uses_x11():
        raise Unavailable(
            f"computer control works on X11 through xdotool; this is {environment.platform_label()}"
        )
    display = environment.x_display(settings)
    if action == "screenshot":
        return list(await asyncio.to_thread(capture.take_screenshot, ctx, settings))
    xdotool = find_xdotool(settings)
    frame = await asyncio.to_thread(capture.session_frame, ctx, settings)

    def screen(point: list[int] | None, name: str = "coordinate") -> tuple[int, int]:
        if point is None:
            raise InvalidArguments(f"{action} needs {name} [x, y] (pixels of the last screenshot)")
        return frame.to_screen(point[0], point[1])

    def move_to(point: list[int] | None) -> tuple[list[str], str]:
        if point is None:
            return [], ""
        sx, sy = screen(point)
        return ["mousemove", str(sx), str(sy)], f" at [{point[0]}, {point[1]}]"

    if action == "mouse_move":
        sx, sy = screen(coordinate)
        await _xdotool(xdotool, display, ["mousemove", str(sx), str(sy)])
        return [TextBlock(f"Moved the mouse to [{coordinate[0]}, {coordinate[1]}].")]  # type: ignore[index]
    if action in CLICK_BUTTONS:
        move, where = move_to(coordinate)
        repeat = ["--repeat", "2", "--delay", "80"] if action == "double_click" else []
        await _xdotool(xdotool, display, [*move, "click", *repeat, CLICK_BUTTONS[action]])
        return [TextBlock(f"{action.replace('_', ' ').capitalize()}{where or ' at the cursor'}.")]
    if action == "drag":
        sx, sy = screen(start_coordinate, "start_coordinate")
        ex, ey = screen(coordinate)
        mx, my = (sx + ex) // 2, (sy + ey) // 2
        await _xdotool(
            xdotool,
            display,
            ["mousemove", str(sx), str(sy), "mousedown", "1", "sleep", "0.05",
             "mousemove", str(mx), str(my), "sleep", "0.05",
             "mousemove", str(ex), str(ey), "sleep", "0.05", "mouseup", "1"],
        )  # fmt: skip
        start, end = start_coordinate, coordinate
        return [TextBlock(f"Dragged from [{start[0]}, {start[1]}] to [{end[0]}, {end[1]}].")]  # type: ignore[index]
    if action == "type":
        if not text:
            raise InvalidArguments("type needs text")
        if len(text) > MAX_TYPE_CHARS:
            raise InvalidArguments(
                f"text is {len(text):,} characters; type at most {MAX_TYPE_CHARS:,} at once"
            )
        delay = str(settings.type_delay_ms)
        timeout = 30 + len(text) * settings.type_delay_ms / 1000 * 2
        await _xdotool(xdotool, display, ["type", "--delay", delay, "--", text], timeout)
        return [TextBlock(f"Typed {len(text)} characters.")]
    if action == "key":
        if not text or not text.strip():
            raise InvalidArguments('key needs text: a key or combination such as "ctrl+s" or "Return"')
        keys = keysyms(text)
        await _xdotool(xdotool, display, ["key", "--delay", "50", "--", *keys])
        return [TextBlock(f"Pressed {' '.join(keys)}.")]
    if action == "scroll":
        if scroll_direction not in SCROLL_BUTTONS:
            raise InvalidArguments("scroll needs scroll_direction: up, down, left or right")
        move, where = move_to(coordinate)
        button = SCROLL_BUTTONS[scroll_direction]
        await _xdotool(
            xdotool, display, [*move, "click", "--repeat", str(scroll_amount), "--delay", "30", button]
        )
        return [TextBlock(f"Scrolled {scroll_direction} by {scroll_amount}{where}.")]
    if action == "cursor_position":
        output = await _xdotool(xdotool, display, ["getmouselocation", "--shell"])
        values = dict(line.split("=", 1) for line in output.splitlines() if "=" in line)
        try:
            sx, sy = int(values["X"]), int(values["Y"])
        except (KeyError, ValueError):
            raise ToolFailure(f"xdotool getmouselocation gave no position: {output.strip()!r}") from None
        x, y = frame.from_screen(sx, sy)
        inside = 0 <= x < frame.image_width and 0 <= y < frame.image_height
        note = "" if inside else " (outside the last screenshot)"
        return [
            TextBlock(f"The cursor is at [{x}, {y}]{note}."),
            JsonBlock({"x": x, "y": y, "inside_screenshot": inside}),
        ]
    raise InvalidArguments(f"unknown action {action!r}")


async def _xdotool(xdotool: str, display: str, args: list[str], timeout: float = 30.0) -> str:
    env = {**os.environ, "DISPLAY": display}
    try:
        proc = await asyncio.create_subprocess_exec(
            xdotool,
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
    except OSError as e:
        raise Unavailable(f"cannot start xdotool ({xdotool}): {e.strerror or e}") from None
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except (TimeoutError, asyncio.CancelledError) as e:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        if isinstance(e, TimeoutError):
            raise ToolFailure(f"xdotool {args[0]} did not finish in {timeout:.0f} s") from None
        raise
    message = " ".join(err.decode("utf-8", "replace").split())
    if "Can't open display" in message or "cannot open display" in message.lower():
        raise Unavailable(f"cannot open the display {display}: {message[:200]}")
    if proc.returncode != 0:
        raise ToolFailure(f"xdotool {args[0]} failed (exit {proc.returncode}): {message[:300]}")
    return out.decode("utf-8", "replace")
