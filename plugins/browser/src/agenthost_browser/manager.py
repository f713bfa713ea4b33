"""Browser processes: the Playwright driver and the Chromium processes of one host.

One ``BrowserPool`` per host owns the Playwright driver and one shared
Chromium, started on first use, and every Chromium process it launched, so the
host's shutdown leaves none behind. Sessions (``session.py``) take browser
contexts from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost.errors import Unavailable
from agenthost_browser.discovery import BrowserBinary, BrowserNotFound, find_browser
from agenthost_browser.failures import first_line
from agenthost_browser.navigation import NavigationRules
from agenthost_browser.settings import BrowserSettings

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

    from agenthost.net import NetGuard

log = logging.getLogger("agenthost.browser")

LAUNCH_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
)


def has_display() -> bool:
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _browser_pids() -> set[int]:
    """Chromium main processes among this process's descendants."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is a dependency
        return set()
    pids: set[int] = set()
    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return pids
    for child in children:
        try:
            cmdline = child.cmdline()
        except psutil.Error:
            continue
        if "--remote-debugging-pipe" in cmdline and not any(a.startswith("--type=") for a in cmdline):
            pids.add(child.pid)
    return pids


_claimed: set[int] = set()  # browser pids some pool in this process owns


def _kill_trees(pids: set[int]) -> None:
    """Kill what is left of these browsers (their helpers included)."""
    try:
        import psutil
    except ImportError:  # pragma: no cover
        return
    procs: list[Any] = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            procs.extend([proc, *proc.children(recursive=True)])
        except psutil.Error:
            continue
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(procs, timeout=3)


class BrowserPool:
    """The Playwright driver and the shared Chromium of one host."""

    def __init__(
        self,
        settings: BrowserSettings,
        resolve_path: Callable[..., Path],
        guard: NetGuard | None = None,
    ) -> None:
        self.settings = settings
        self.resolve_path = resolve_path
        self.guard = guard  # the SSRF guard every session's traffic passes, when on
        self.rules = NavigationRules(settings, resolve_path, guard)
        self._playwright: Playwright | None = None
        self._driver: Any = None
        self._shared: Browser | None = None
        self._shared_started = False
        self._lock: asyncio.Lock | None = None
        self._pids: dict[int, set[int]] = {}  # id(browser) -> main pids
        self.closed = False
        self.binary: BrowserBinary | None = None

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def find(self) -> BrowserBinary:
        if self.binary is None:
            try:
                self.binary = find_browser(self.settings)
            except BrowserNotFound as e:
                raise Unavailable(str(e)) from None
        return self.binary

    async def _driver_started(self) -> Playwright:
        if self._playwright is None:
            try:
                from playwright.async_api import async_playwright
            except ImportError:
                raise Unavailable(
                    'the browser tools need Playwright: pip install "agenthost[browser]"'
                ) from None
            manager: Any = async_playwright()
            if self.settings.stealth:
                try:
                    from playwright_stealth import Stealth
                except ImportError:
                    raise Unavailable(
                        "stealth is on but playwright-stealth is missing: pip install playwright-stealth, "
                        "or set stealth = false in [plugins.browser]"
                    ) from None
                manager = Stealth().use_async(manager)
            self._driver = manager
            self._playwright = await manager.start()
        return self._playwright

    async def launch(self, headless: bool) -> Browser:
        """A new Chromium process (the caller owns it)."""
        if self.closed:
            raise Unavailable("the host is shutting down; the browser cannot start")
        binary = self.find()
        if not headless and not has_display():
            raise Unavailable(
                "a visible (headless=false) browser needs a display and none is set (DISPLAY is empty); "
                "run under Xvfb (e.g. `xvfb-run agenthost ...`) or launch with headless=true"
            )
        playwright = await self._driver_started()
        args = [*LAUNCH_FLAGS, *self.settings.args]
        before = _browser_pids()
        try:
            browser = await playwright.chromium.launch(
                executable_path=binary.executable_path,
                channel=binary.channel,
                headless=headless,
                args=args,
            )
        except Exception as e:
            raise Unavailable(
                f"Chromium at {binary.describe()} did not start: {first_line(e)}; "
                "check that it runs (`chromium --headless --version`) or set executable_path in [plugins.browser]"
            ) from None
        pids = _browser_pids() - before - _claimed
        _claimed.update(pids)
        self._pids[id(browser)] = pids
        return browser

    async def shared(self) -> tuple[Browser, str | None]:
        """The shared browser, started or restarted as needed, and a note when it was restarted."""
        async with self._get_lock():
            note = None
            if self._shared is not None and not self._shared.is_connected():
                self.forget(self._shared)
                self._shared = None
                note = "the shared browser had stopped (crashed or was closed); started a new one"
            if self._shared is None:
                self._shared = await self.launch(self.settings.headless)
                self._shared_started = True
            return self._shared, note

    def pids_of(self, browser: Browser) -> set[int]:
        return set(self._pids.get(id(browser), set()))

    def forget(self, browser: Browser) -> None:
        pids = self._pids.pop(id(browser), set())
        _kill_trees({p for p in pids if _alive(p)})
        _claimed.difference_update(pids)

    async def close_browser(self, browser: Browser) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(browser.close(), timeout=10)
        self.forget(browser)

    async def aclose(self) -> None:
        """Close every browser and the driver; kill any Chromium left over."""
        self.closed = True
        if self._shared is not None:
            await self.close_browser(self._shared)
            self._shared = None
        if self._driver is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._driver.__aexit__(None, None, None), timeout=10)
            self._driver = self._playwright = None
        leftover = set().union(*self._pids.values()) if self._pids else set()
        _kill_trees({p for p in leftover if _alive(p)})
        _claimed.difference_update(leftover)
        self._pids.clear()


def _alive(pid: int) -> bool:
    try:
        import psutil

        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except Exception:
        return False
