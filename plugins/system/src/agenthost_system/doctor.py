"""``agenthost doctor`` rows: is there a display, xdotool, a file manager?"""

from __future__ import annotations

import shutil
from typing import Any

from agenthost.errors import ToolFailure
from agenthost_system import capture, environment
from agenthost_system.settings import SystemSettings

XVFB_FIX = 'run in a desktop session, or start `Xvfb :99 &` and set [plugins.system] display = ":99"'


def rows(settings: SystemSettings) -> list[dict[str, Any]]:
    return [_display(settings), _xdotool(settings), _file_manager()]


def _display(settings: SystemSettings) -> dict[str, Any]:
    row: dict[str, Any] = {"name": "system: display", "ok": False, "detail": "", "fix": ""}
    try:
        mons = capture.monitors(settings)
    except ToolFailure as e:
        row.update(detail=e.message, fix=XVFB_FIX if environment.uses_x11() else "")
        return row
    where = environment.x_display(settings) if environment.uses_x11() else environment.platform_label()
    whole = mons[0]
    row.update(ok=True, detail=f"{where}: {whole['width']}x{whole['height']}, {len(mons) - 1} monitor(s)")
    return row


def _xdotool(settings: SystemSettings) -> dict[str, Any]:
    row: dict[str, Any] = {"name": "system: xdotool (computer)", "ok": False, "detail": "", "fix": ""}
    if not environment.uses_x11():
        row["detail"] = f"computer control needs X11; not available on {environment.platform_label()}"
        return row
    found = shutil.which(settings.xdotool)
    if found:
        row.update(ok=True, detail=found)
    else:
        row.update(detail=f"{settings.xdotool!r} not on PATH", fix="apt-get install xdotool")
    return row


def _file_manager() -> dict[str, Any]:
    row: dict[str, Any] = {
        "name": "system: file manager (open_in_folder)",
        "ok": True,
        "detail": "",
        "fix": "",
    }
    plat = environment.platform()
    if plat == "darwin":
        found = shutil.which("open")
        row.update(ok=bool(found), detail=found or "`open` not on PATH")
    elif plat in ("win32", "cygwin"):
        found = shutil.which("explorer")
        row.update(ok=bool(found), detail=found or "explorer.exe not on PATH")
    else:
        bus = environment.session_bus()
        dbus_tool = shutil.which("gdbus") or shutil.which("dbus-send")
        xdg_open = shutil.which("xdg-open")
        if bus and dbus_tool:
            row["detail"] = f"org.freedesktop.FileManager1 over D-Bus ({dbus_tool})"
        elif xdg_open:
            row["detail"] = f"xdg-open ({xdg_open})" + ("" if bus else "; no D-Bus session bus")
        else:
            row.update(
                ok=False,
                detail="no D-Bus session bus and no xdg-open",
                fix="apt-get install xdg-utils",
            )
    return row
