"""Show a file in the system's file manager.

Linux: the freedesktop ``org.freedesktop.FileManager1.ShowItems`` call over
the D-Bus session bus (``gdbus`` or ``dbus-send``), which selects the file;
else ``xdg-open`` on its folder. macOS: ``open -R``. Windows:
``explorer /select,``.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from pathlib import Path

from agenthost.errors import ToolFailure, Unavailable
from agenthost_system import environment
from agenthost_system.settings import SystemSettings

FILE_MANAGER = "org.freedesktop.FileManager1"
FILE_MANAGER_PATH = "/org/freedesktop/FileManager1"
DBUS_TIMEOUT_S = 10.0
# xdg-open may stay in the foreground as long as the program it started; past
# this, it is left running on its own and the call reports it as launched.
LAUNCH_WAIT_S = 5.0


async def reveal(target: Path, shown_as: str, settings: SystemSettings) -> str:
    plat = environment.platform()
    env = environment.child_env(settings)
    if plat == "darwin":
        opener = _require("open", "macOS's `open` command is not on PATH")
        await _checked([opener, "-R", str(target)], env, "open -R")
        return f"Revealed {shown_as} in Finder."
    if plat in ("win32", "cygwin"):
        explorer = _require("explorer", "Windows Explorer (explorer.exe) is not on PATH")
        # explorer.exe exits with 1 even when it opened the window: its code says nothing.
        await _run([explorer, f"/select,{target}"], env, DBUS_TIMEOUT_S)
        return f"Revealed {shown_as} in Explorer."
    return await _reveal_freedesktop(target, shown_as, env)


async def _reveal_freedesktop(target: Path, shown_as: str, env: dict[str, str]) -> str:
    tried: list[str] = []
    if environment.session_bus(env):
        argv = _show_items_argv(target.as_uri())
        if argv is None:
            tried.append("a D-Bus session bus exists but neither gdbus nor dbus-send is on PATH")
        else:
            code, output = await _run(argv, env, DBUS_TIMEOUT_S)
            if code == 0:
                return f"Revealed {shown_as} in the file manager ({FILE_MANAGER} over D-Bus)."
            reason = output or ("timed out" if code is None else f"exit code {code}")
            tried.append(f"{FILE_MANAGER}.ShowItems failed ({reason})")
    else:
        tried.append("no D-Bus session bus")
    xdg_open = shutil.which("xdg-open", path=env.get("PATH"))
    if xdg_open is None:
        tried.append("xdg-open is not on PATH")
        raise Unavailable(
            f"no file manager to show {shown_as}: {'; '.join(tried)}; install xdg-utils "
            "(apt-get install xdg-utils) and a file manager, or run inside a desktop session"
        )
    folder = target if target.is_dir() else target.parent
    code, output = await _run([xdg_open, str(folder)], env, LAUNCH_WAIT_S, kill_late=False)
    if code is None:
        return f"Opened the folder of {shown_as} with xdg-open (the file manager is starting)."
    if code != 0:
        tried.append(f"xdg-open exited with {code}" + (f": {output}" if output else ""))
        raise ToolFailure(f"could not show {shown_as}: {'; '.join(tried)}")
    return f"Opened the folder of {shown_as} with xdg-open."


def _show_items_argv(uri: str) -> list[str] | None:
    if gdbus := shutil.which("gdbus"):
        return [
            gdbus, "call", "--session",
            "--dest", FILE_MANAGER,
            "--object-path", FILE_MANAGER_PATH,
            "--method", f"{FILE_MANAGER}.ShowItems",
            f"['{uri}']", "",
        ]  # fmt: skip
    if dbus_send := shutil.which("dbus-send"):
        return [
            dbus_send, "--session", "--print-reply",
            f"--dest={FILE_MANAGER}", FILE_MANAGER_PATH,
            f"{FILE_MANAGER}.ShowItems",
            f"array:string:{uri}", "string:",
        ]  # fmt: skip
    return None


def _require(command: str, missing: str) -> str:
    found = shutil.which(command)
    if found is None:
        raise Unavailable(f"no file manager: {missing}")
    return found


async def _checked(argv: list[str], env: dict[str, str], label: str) -> None:
    code, output = await _run(argv, env, DBUS_TIMEOUT_S)
    if code not in (0, None):
        raise ToolFailure(f"{label} exited with {code}" + (f": {output}" if output else ""))


async def _run(
    argv: list[str], env: dict[str, str], wait_s: float, *, kill_late: bool = True
) -> tuple[int | None, str]:
    """Run ``argv`` for up to ``wait_s``: (exit code, or None if it was still
    running, output). A late program is killed unless ``kill_late`` is false.

    Output goes to a file, not a pipe: a program it launches may keep a pipe
    open long after the launcher exits.
    """
    with tempfile.TemporaryFile() as out:
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env=env,
                start_new_session=True,
            )
        except OSError as e:
            raise Unavailable(f"cannot start {Path(argv[0]).name}: {e.strerror or e}") from None
        code: int | None
        try:
            code = await asyncio.wait_for(proc.wait(), wait_s)
        except TimeoutError:
            code = None
            if kill_late:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            raise
        out.seek(0)
        text = out.read(4000).decode("utf-8", "replace").strip()
    return code, " ".join(text.split())[:300]
