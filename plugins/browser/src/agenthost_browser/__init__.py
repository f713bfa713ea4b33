"""Browser tools for agenthost: a real Chromium through Playwright, with stealth and element refs.

The browser starts on the first browser call. One Chromium is shared by the
host's sessions, each in its own browser context; the host's shutdown closes
it. Config lives in ``[plugins.browser]`` (``BrowserSettings``).
"""

from __future__ import annotations

import functools
import importlib.util
from typing import TYPE_CHECKING, Any

from agenthost import hookimpl
from agenthost_browser.settings import BrowserSettings
from agenthost_browser.tools import ALL_TOOLS, attach_pool, detach_pool, pool_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from agenthost.net import NetGuard
    from agenthost_browser.manager import BrowserPool

__all__ = ["ALL_TOOLS", "BrowserSettings", "pool_of"]


def _new_pool(
    settings: BrowserSettings, resolve_path: Callable[..., Path], guard: NetGuard | None
) -> BrowserPool:
    # imported when a tool first needs the pool: listing tools must not pay for it
    from agenthost_browser.manager import BrowserPool

    return BrowserPool(settings, resolve_path, guard)


@hookimpl
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section("browser", BrowserSettings)
    guard = None
    if settings.ssrf_guard:
        from agenthost.net import NetGuard  # deferred: listing tools must not pay for it

        guard = NetGuard.from_config(config)
    # the pool is made on first use; the maker holds no reference to the host
    attach_pool(host, functools.partial(_new_pool, settings, host.workspace.resolve, guard))
    for browser_tool in ALL_TOOLS:
        register(browser_tool)


@hookimpl
async def agenthost_host_shutdown(host: Any) -> None:
    pool = detach_pool(host)
    if pool is not None:
        await pool.aclose()


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    settings = config.section("browser", BrowserSettings)
    rows: list[dict[str, Any]] = []
    playwright_ok = importlib.util.find_spec("playwright") is not None
    rows.append(
        {
            "name": "browser: playwright",
            "ok": playwright_ok,
            "detail": "Playwright is installed" if playwright_ok else "Playwright is not installed",
            "fix": "" if playwright_ok else 'pip install "agenthost[browser]"',
        }
    )
    from agenthost_browser.discovery import BrowserNotFound, find_browser

    try:
        binary = find_browser(settings)
        rows.append({"name": "browser: chromium", "ok": True, "detail": binary.describe(), "fix": ""})
    except BrowserNotFound as e:
        rows.append(
            {
                "name": "browser: chromium",
                "ok": False,
                "detail": str(e),
                "fix": "playwright install chromium  (or: apt-get install chromium)",
            }
        )
    if settings.stealth:
        stealth_ok = importlib.util.find_spec("playwright_stealth") is not None
        rows.append(
            {
                "name": "browser: stealth",
                "ok": stealth_ok,
                "detail": "playwright-stealth is installed"
                if stealth_ok
                else "playwright-stealth is missing",
                "fix": ""
                if stealth_ok
                else "pip install playwright-stealth  (or stealth = false in [plugins.browser])",
            }
        )
    return rows
