"""Which operating system and which display the desktop tools work with.

``PLATFORM`` is read on every call (not at import) so tests can choose the
branch for macOS or Windows on a Linux machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from agenthost.errors import Unavailable
from agenthost_system.settings import SystemSettings

PLATFORM = sys.platform


def platform() -> str:
    """``"linux"``, ``"darwin"``, ``"win32"`` or another ``sys.platform`` value."""
    return PLATFORM


def uses_x11() -> bool:
    """Whether the screen is reached through an X display (Linux and the BSDs)."""
    return platform() not in ("darwin", "win32", "cygwin")


def platform_label() -> str:
    return {"darwin": "macOS", "win32": "Windows", "cygwin": "Windows"}.get(platform(), platform())


def x_display(settings: SystemSettings, environ: Mapping[str, str] | None = None) -> str:
    """The X display to use, or ``Unavailable`` naming why there is none."""
    env = os.environ if environ is None else environ
    if settings.display:
        return settings.display
    if env.get("DISPLAY"):
        return env["DISPLAY"]
    if env.get("WAYLAND_DISPLAY"):
        raise Unavailable(
            f"no X display: WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']} is set but DISPLAY is not; "
            "screen capture and control need X11 (XWayland): set DISPLAY or [plugins.system] display"
        )
    raise Unavailable(
        "no display: neither DISPLAY nor WAYLAND_DISPLAY is set (a headless machine?); run in a "
        'desktop session, or start Xvfb and set [plugins.system] display = ":99"'
    )


def child_env(settings: SystemSettings) -> dict[str, str]:
    """The environment for programs that talk to the desktop (xdotool, xdg-open)."""
    env = dict(os.environ)
    if uses_x11() and settings.display:
        env["DISPLAY"] = settings.display
    return env


def session_bus(environ: Mapping[str, str] | None = None) -> str | None:
    """The D-Bus session bus address, or None when this login has none."""
    env = os.environ if environ is None else environ
    if env.get("DBUS_SESSION_BUS_ADDRESS"):
        return env["DBUS_SESSION_BUS_ADDRESS"]
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and (Path(runtime) / "bus").is_socket():
        return f"unix:path={Path(runtime) / 'bus'}"
    return None
