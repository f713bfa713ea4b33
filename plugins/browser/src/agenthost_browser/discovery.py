"""Finding a Chromium without downloading one.

Order: ``executable_path`` or ``channel`` from config, Playwright's own
Chromium (``playwright install chromium``), then a system Chromium or Chrome
on PATH or in the usual install locations.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from agenthost_browser.settings import BrowserSettings

HOW_TO_GET_ONE = (
    "no Chromium found: run `playwright install chromium`, or install the OS package "
    "(`apt-get install chromium` on Debian/Ubuntu), or set executable_path in [plugins.browser]"
)

_SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
_SYSTEM_PATHS = {
    "linux": (
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/lib/chromium/chromium",
        "/snap/bin/chromium",
        "/usr/bin/google-chrome",
        "/opt/google/chrome/chrome",
    ),
    "darwin": (
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
    ),
    "win32": (
        r"C:\Program Files\Google\Chrome\Application\chrome.exe",
        r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
        r"C:\Program Files\Chromium\Application\chrome.exe",
    ),
}
_PLAYWRIGHT_GLOBS = (
    "chromium-*/chrome-linux*/chrome",
    "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
    "chromium-*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chromium-*/chrome-win*/chrome.exe",
    "chromium_headless_shell-*/chrome-*/headless_shell",
    "chromium_headless_shell-*/chrome-*/chrome-headless-shell",
    "chromium_headless_shell-*/chrome-*/headless_shell.exe",
)


@dataclass(frozen=True)
class BrowserBinary:
    """What to launch: a path or a Playwright channel, and where it came from."""

    source: str  # "config", "playwright", "system"
    executable_path: str | None = None
    channel: str | None = None

    def describe(self) -> str:
        what = self.executable_path or f"channel {self.channel}"
        return f"{what} ({self.source})"


class BrowserNotFound(Exception):
    """No browser to launch; the message says how to get one."""


def playwright_browsers_dir() -> Path:
    env = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if env and env != "0":
        return Path(env).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ms-playwright"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home())) / "ms-playwright"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ms-playwright"


def _playwright_chromium() -> str | None:
    root = playwright_browsers_dir()
    if not root.is_dir():
        return None
    import glob

    for pattern in _PLAYWRIGHT_GLOBS:  # full Chromium before the headless shell
        found = sorted(glob.glob(str(root / pattern)), reverse=True)  # newest revision first
        for path in found:
            if os.access(path, os.X_OK):
                return path
    return None


def _system_chromium() -> str | None:
    for name in _SYSTEM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    platform = "linux" if sys.platform.startswith("linux") else sys.platform
    for path in _SYSTEM_PATHS.get(platform, ()):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def find_browser(settings: BrowserSettings) -> BrowserBinary:
    """The browser to launch, or ``BrowserNotFound`` saying how to get one."""
    if settings.executable_path:
        path = os.path.expanduser(settings.executable_path)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BrowserNotFound(
                f"executable_path {settings.executable_path!r} in [plugins.browser] is not an "
                "executable file; fix the path, or remove it to use the Chromium found on this machine"
            )
        return BrowserBinary("config", executable_path=path)
    if settings.channel:
        return BrowserBinary("config", channel=settings.channel)
    if found := _playwright_chromium():
        return BrowserBinary("playwright", executable_path=found)
    if found := _system_chromium():
        return BrowserBinary("system", executable_path=found)
    raise BrowserNotFound(HOW_TO_GET_ONE)
