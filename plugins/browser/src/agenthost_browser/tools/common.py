"""What every browser tool shares: the pool of a host, the session of a call,
replies with notes, and finding the element a call names."""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING, Any, Literal

from agenthost import ToolContext
from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost_browser.failures import describe_error

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.async_api import Locator, Page

    from agenthost_browser.manager import BrowserPool
    from agenthost_browser.session import BrowserSession

# A host's pool is made on first use from the function registration left, so
# listing tools never imports the browser machinery.
_makers: weakref.WeakKeyDictionary[Any, Callable[[], BrowserPool]] = weakref.WeakKeyDictionary()
_pools: weakref.WeakKeyDictionary[Any, BrowserPool] = weakref.WeakKeyDictionary()
_REF = re.compile(r"^\[?(?:ref=)?([a-z]*\d+(?:e\d+)?)\]?$")


def attach_pool(host: Any, make: Callable[[], BrowserPool]) -> None:
    """Give ``host`` a pool, made by ``make`` when a tool (or ``pool_of``) first needs it."""
    _pools.pop(host, None)
    _makers[host] = make


def detach_pool(host: Any) -> BrowserPool | None:
    """Take the host's pool away: the pool if it was ever made, else None."""
    _makers.pop(host, None)
    return _pools.pop(host, None)


def pool_of(host: Any) -> BrowserPool | None:
    pool = _pools.get(host)
    if pool is None and (make := _makers.pop(host, None)) is not None:
        pool = _pools[host] = make()
    return pool


def session_of(ctx: ToolContext) -> BrowserSession:
    pool = pool_of(ctx.host)
    if pool is None:
        raise ToolFailure(
            "the browser plugin is not set up on this host (it was shut down); start a new host"
        )
    from agenthost_browser.session import BrowserSession

    return ctx.state("browser", lambda: BrowserSession(pool))


async def page_of(ctx: ToolContext) -> tuple[BrowserSession, Page]:
    session = session_of(ctx)
    return session, await session.current()


def reply(session: BrowserSession, text: str) -> str:
    notes = session.take_notes()
    if not notes:
        return text
    return "\n".join([*(f"Note: {n}" for n in notes), text])


async def page_label(page: Page) -> str:
    try:
        title = await page.title()
    except Exception:
        title = ""
    url = page.url if len(page.url) <= 200 else page.url[:197] + "..."
    return f"{title!r} at {url}" if title else url


async def moved(page: Page, before: str) -> str:
    """Where the page went, when an action navigated it (saves a title lookup otherwise)."""
    if page.url == before:
        return ""
    return f"; now at {await page_label(page)}"


async def settle(page: Page) -> None:
    """Let a navigation an action started reach DOMContentLoaded (bounded, never fails)."""
    try:
        await page.wait_for_load_state("domcontentloaded", timeout=3000)
    except Exception:
        pass


def one_target(selector: str | None, ref: str | None, x: float | None = None, y: float | None = None) -> None:
    given = [name for name, v in (("selector", selector), ("ref", ref)) if v]
    if (x is None) != (y is None):
        raise InvalidArguments("give both x and y for a position, or a selector or ref instead")
    if x is not None:
        given.append("x,y")
    if len(given) != 1:
        what = "none" if not given else " and ".join(given)
        raise InvalidArguments(
            f"give exactly one of selector, ref{' or x,y' if x is not None or y is not None else ''} "
            f"(got {what}); take browser_snapshot for refs"
        )


async def locate(page: Page, selector: str | None, ref: str | None) -> tuple[Locator, str]:
    if ref:
        m = _REF.match(ref.strip())
        if not m:
            raise InvalidArguments(
                f"ref {ref!r} is not a snapshot ref (like e12); take browser_snapshot for refs"
            )
        ref = m.group(1)
        locator = page.locator(f"aria-ref={ref}")
        try:
            count = await locator.count()
        except Exception:
            count = 0
        if count == 0:
            raise NotFound(
                f"ref {ref} is not on the page any more (refs come from the latest browser_snapshot of this "
                "tab); take browser_snapshot again and use a fresh ref"
            )
        return locator, f"ref {ref}"
    assert selector is not None
    return page.locator(selector), f"selector {selector!r}"


async def act_on(
    page: Page,
    action: Literal["click", "hover"],
    selector: str | None,
    ref: str | None,
    x: float | None,
    y: float | None,
) -> str:
    """Click or hover at x,y or on the element a selector or ref names; what was acted on."""
    if x is not None and y is not None:
        target = f"position ({x:g}, {y:g})"
        try:
            if action == "click":
                await page.mouse.click(x, y)
            else:
                await page.mouse.move(x, y)
        except Exception as e:
            raise describe_error(e, target) from None
        return target
    locator, target = await locate(page, selector, ref)
    try:
        if action == "click":
            await locator.click()
        else:
            await locator.hover()
    except Exception as e:
        raise describe_error(e, target) from None
    return target
