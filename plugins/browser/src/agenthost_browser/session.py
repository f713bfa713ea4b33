"""One session's browser context: its tabs, downloads, dialogs and notes.

Each session gets a ``BrowserSession``: its own browser context (cookies and
storage never cross sessions), its tabs, and its own Chromium only when
``browser_launch`` asks for a mode the shared one does not have. Crashed
renderers and dead browsers are replaced on the next call, which says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agenthost.errors import Denied, Unavailable
from agenthost_browser.failures import first_line
from agenthost_browser.guard_proxy import GuardProxy
from agenthost_browser.manager import BrowserPool, has_display

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Dialog, Download, Page


@dataclass(frozen=True)
class LaunchOptions:
    headless: bool
    viewport: tuple[int, int]


class BrowserSession:
    """One session's browser context, tabs and notes for the model."""

    def __init__(self, pool: BrowserPool) -> None:
        self.pool = pool
        settings = pool.settings
        self.options = LaunchOptions(settings.headless, (settings.viewport_width, settings.viewport_height))
        self.own_browser: Browser | None = None  # when this session needs its own process
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self.notes: list[str] = []
        self._crashed: set[int] = set()
        self._downloads: set[asyncio.Task[None]] = set()
        self._lock: asyncio.Lock | None = None
        self._proxy: GuardProxy | None = None  # the SSRF guard's proxy, when ssrf_guard is on
        self.refusals: list[tuple[str, str]] = []  # (url, reason) the guard refused
        self.closed = False

    # -- starting -----------------------------------------------------------------

    @property
    def browser(self) -> Browser | None:
        return self.context.browser if self.context is not None else None

    @property
    def running(self) -> bool:
        return self.context is not None

    async def launch(self, headless: bool | None, viewport: tuple[int, int] | None) -> str:
        """Start (or restart with other options) this session's browser context."""
        options = LaunchOptions(
            self.options.headless if headless is None else headless,
            viewport or self.options.viewport,
        )
        if not options.headless and not has_display():
            raise Unavailable(
                "a visible (headless=false) browser needs a display and none is set (DISPLAY is empty); "
                "run under Xvfb (e.g. `xvfb-run agenthost ...`) or launch with headless=true"
            )
        async with self._get_lock():
            restarted = self.context is not None and options != self.options
            if restarted:
                await self._close_context()
            self.options = options
            if self.context is None:
                await self._start()
            browser = self.browser
            assert browser is not None
            mode = "headless" if options.headless else "visible"
            which = "its own browser" if self.own_browser is not None else "the shared browser"
            width, height = options.viewport
            what = "restarted with new options" if restarted else "ready"
            stealth = "on" if self.pool.settings.stealth else "off"
            return (
                f"browser {what}: Chromium {browser.version} ({mode}, {which} for this session), "
                f"viewport {width}x{height}, stealth {stealth}"
            )

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def _start(self) -> None:
        if self.closed:
            raise Unavailable("this session's browser was closed with the session")
        needs_own = self.options.headless != self.pool.settings.headless
        if needs_own:
            if self.own_browser is None or not self.own_browser.is_connected():
                if self.own_browser is not None:
                    self.pool.forget(self.own_browser)
                    self.notes.append("this session's browser had stopped; started a new one")
                self.own_browser = await self.pool.launch(self.options.headless)
            browser = self.own_browser
        else:
            browser, note = await self.pool.shared()
            if note and not any("had stopped" in n for n in self.notes):
                self.notes.append(note)
        settings = self.pool.settings
        width, height = self.options.viewport
        kwargs: dict[str, Any] = {
            "viewport": {"width": width, "height": height},
            "accept_downloads": True,
        }
        if settings.user_agent:
            kwargs["user_agent"] = settings.user_agent
        if settings.locale:
            kwargs["locale"] = settings.locale
        if self.pool.guard is not None:
            if self._proxy is None:
                self._proxy = GuardProxy(self.pool.guard, self._on_refused)
            # "<-loopback>": loopback addresses go through the proxy too
            kwargs["proxy"] = {"server": await self._proxy.start(), "bypass": "<-loopback>"}
        context = await browser.new_context(**kwargs)
        context.set_default_timeout(settings.action_timeout_ms)
        context.set_default_navigation_timeout(settings.navigation_timeout_ms)
        if self.pool.rules.filters_requests:
            await context.route("**/*", self._route)
        context.on("page", self._watch_page)
        self.context = context
        self.page = await context.new_page()

    def _on_refused(self, url: str, reason: str) -> None:
        self.refusals = [*self.refusals[-49:], (url, reason)]
        note = f"the SSRF guard refused a request to {url[:200]}: {reason}"
        if note not in self.notes:
            self.notes.append(note)

    def raise_if_refused(self, mark: int, url: str | None) -> None:
        """Raise ``Denied`` when the guard refused ``url`` (any URL when None) since
        ``mark`` (``len(self.refusals)`` before a navigation)."""
        for refused, reason in self.refusals[mark:]:
            if url is None or refused == url or (refused.startswith("https://") and _origin(url) == refused):
                self.notes = [n for n in self.notes if reason not in n]
                raise Denied(f"the SSRF guard refused {refused[:200]}: {reason}")

    async def _route(self, route: Any) -> None:
        reason = self.pool.rules.refusal(route.request.url)
        if reason:
            if route.request.is_navigation_request():
                self.notes.append(f"navigation refused: {reason}")
            await route.abort("blockedbyclient")
        else:
            await route.continue_()

    def _watch_page(self, page: Page) -> None:
        page.on("crash", lambda p: self._crashed.add(id(p)))
        page.on("download", self._on_download)
        page.on("dialog", self._on_dialog)
        page.on("popup", self._on_popup)

    def _on_popup(self, popup: Page) -> None:
        self.notes.append(
            f"the page opened a new tab (tab {self._index(popup)}); browser_tabs select switches to it"
        )

    async def _on_dialog(self, dialog: Dialog) -> None:
        # noted before answering: the action that raised the dialog returns right after
        self.notes.append(
            f"the page showed a {dialog.type} dialog ({dialog.message[:200]!r}); it was accepted"
        )
        with contextlib.suppress(Exception):
            if dialog.type == "prompt":
                await dialog.accept(dialog.default_value)
            else:
                await dialog.accept()

    def _on_download(self, download: Download) -> None:
        task = asyncio.ensure_future(self._save_download(download))
        self._downloads.add(task)
        task.add_done_callback(self._downloads.discard)

    async def _save_download(self, download: Download) -> None:
        name = Path(download.suggested_filename).name or "download"
        try:
            folder = self.pool.resolve_path(self.pool.settings.downloads_dir, write=True)
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / name
            stem, suffix = target.stem, target.suffix
            n = 1
            while target.exists():
                target = folder / f"{stem}-{n}{suffix}"
                n += 1
            await download.save_as(target)
            size = target.stat().st_size
            rel = os.path.relpath(target, self.pool.resolve_path("."))
            self.notes.append(f"downloaded {download.url} to {rel} ({size:,} bytes)")
        except Exception as e:
            self.notes.append(f"a download of {download.url} failed: {first_line(e)}")

    async def settle_downloads(self, timeout: float = 5.0) -> None:
        if self._downloads:
            await asyncio.wait(set(self._downloads), timeout=timeout)

    # -- the current page ---------------------------------------------------------

    async def current(self) -> Page:
        """The current tab, starting the browser or replacing a dead one first."""
        async with self._get_lock():
            if self.context is not None:
                browser = self.context.browser
                if browser is not None and not browser.is_connected():
                    self.context = None
                    self.page = None
                    self._crashed.clear()
                    lost = "started a new one; this session's tabs, cookies and storage were lost"
                    if self.own_browser is not None:
                        self.pool.forget(self.own_browser)
                        self.own_browser = None
                    self.notes.append(f"the browser had stopped (crashed or was closed); {lost}")
            if self.context is None:
                await self._start()
                assert self.page is not None
                return self.page
            assert self.context is not None
            page = self.page
            if page is not None and id(page) in self._crashed:
                url = page.url
                self._crashed.discard(id(page))
                with contextlib.suppress(Exception):
                    await page.close()
                fresh = await self.context.new_page()
                self.page = fresh
                self.notes.append(
                    f"the tab's renderer had crashed at {url}; opened a fresh tab in its place "
                    "(navigate again to continue)"
                )
                return fresh
            if page is None or page.is_closed():
                pages = [p for p in self.context.pages if not p.is_closed()]
                page = pages[-1] if pages else await self.context.new_page()
                if self.page is not None:
                    self.notes.append(f"the current tab had closed; switched to {page.url}")
                self.page = page
            return page

    def pages(self) -> list[Page]:
        return [p for p in self.context.pages if not p.is_closed()] if self.context is not None else []

    def _index(self, page: Page) -> int:
        pages = self.pages()
        return pages.index(page) if page in pages else -1

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    # -- ending -------------------------------------------------------------------

    async def _close_context(self) -> None:
        context, self.context, self.page = self.context, None, None
        self._crashed.clear()
        if context is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(context.close(), timeout=10)
        if self.own_browser is not None:
            await self.pool.close_browser(self.own_browser)
            self.own_browser = None

    async def close(self) -> int:
        """Close the context (and own browser); the next call starts afresh."""
        async with self._get_lock():
            count = len(self.pages())
            for task in list(self._downloads):
                task.cancel()
            await self._close_context()
            return count

    async def aclose(self) -> None:
        await self.close()
        self.closed = True
        if self._proxy is not None:
            await self._proxy.aclose()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    port = f":{parts.port}" if parts.port and parts.port != 443 else ""
    return f"{parts.scheme}://{parts.hostname}{port}"
