"""The browser tools (TOOLS.md, section browser)."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import weakref
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from agenthost import ImageBlock, TextBlock, ToolContext, tool
from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost_browser.manager import BrowserPool, BrowserSession, describe_error
from agenthost_browser.page_text import SIMPLIFIED_DOM, aria_snapshot, cap_text

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

_pools: weakref.WeakKeyDictionary[Any, BrowserPool] = weakref.WeakKeyDictionary()
_REF = re.compile(r"^\[?(?:ref=)?([a-z]*\d+(?:e\d+)?)\]?$")
_MODIFIERS = {
    "shift": "Shift",
    "control": "Control",
    "ctrl": "Control",
    "alt": "Alt",
    "option": "Alt",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "super": "Meta",
    "controlormeta": "ControlOrMeta",
}


class Viewport(BaseModel):
    width: Annotated[int, Field(ge=200, le=7680, description="CSS pixels")]
    height: Annotated[int, Field(ge=200, le=4320, description="CSS pixels")]


def attach_pool(host: Any, pool: BrowserPool) -> None:
    _pools[host] = pool


def detach_pool(host: Any) -> BrowserPool | None:
    return _pools.pop(host, None)


def pool_of(host: Any) -> BrowserPool | None:
    return _pools.get(host)


def _session(ctx: ToolContext) -> BrowserSession:
    pool = _pools.get(ctx.host)
    if pool is None:
        raise ToolFailure(
            "the browser plugin is not set up on this host (it was shut down); start a new host"
        )
    return ctx.state("browser", lambda: BrowserSession(pool))


async def _page(ctx: ToolContext) -> tuple[BrowserSession, Page]:
    session = _session(ctx)
    return session, await session.current()


def _reply(session: BrowserSession, text: str) -> str:
    notes = session.take_notes()
    if not notes:
        return text
    return "\n".join([*(f"Note: {n}" for n in notes), text])


async def _where(page: Page) -> str:
    try:
        title = await page.title()
    except Exception:
        title = ""
    url = page.url if len(page.url) <= 200 else page.url[:197] + "..."
    return f"{title!r} at {url}" if title else url


async def _moved(page: Page, before: str) -> str:
    """Where the page went, when an action navigated it (saves a title lookup otherwise)."""
    if page.url == before:
        return ""
    return f"; now at {await _where(page)}"


async def _settle(page: Page) -> None:
    """Let a navigation an action started reach DOMContentLoaded (bounded, never fails)."""
    try:
        await page.wait_for_load_state("domcontentloaded", timeout=3000)
    except Exception:
        pass


def _one_target(
    selector: str | None, ref: str | None, x: float | None = None, y: float | None = None
) -> None:
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


async def _locate(page: Page, selector: str | None, ref: str | None) -> tuple[Locator, str]:
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


# -- lifecycle ---------------------------------------------------------------------


@tool(level="network", open_world=True)
async def browser_launch(
    headless: bool | None = None,
    viewport: Viewport | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Start this session's browser (optional: the first browser call starts it anyway).

    A headless browser is shared by every session (each with its own cookies and
    storage); headless=false starts a separate visible browser for this session
    and needs a display. Calling again with other options restarts this session's
    browser, losing its tabs.

    :param headless: false for a visible window; default true (the configured mode)
    :param viewport: the page size in CSS pixels, e.g. {"width": 1280, "height": 720}
    """
    session = _session(ctx)
    size = (viewport.width, viewport.height) if viewport is not None else None
    try:
        text = await session.launch(headless, size)
    except ToolFailure:
        raise
    except Exception as e:
        raise describe_error(e) from None
    return _reply(session, text)


@tool(level="network", open_world=True)
async def browser_close(ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Close this session's browser tabs, cookies and storage; the next browser call starts afresh."""
    session = _session(ctx)
    if not session.running:
        return "the browser is not running in this session"
    count = await session.close()
    return f"closed this session's browser ({count} tab{'s' if count != 1 else ''}); cookies and storage are gone"


# -- navigation --------------------------------------------------------------------


@tool(level="network", open_world=True, match=("url",))
async def browser_navigate(url: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Open a URL in the current tab and wait for it to load.

    Only http(s), about: and data: URLs (file:// when configured); a bare host
    like example.com gets https://.

    :param url: the address to open
    """
    session = _session(ctx)
    url = session.pool.rules.check(url)
    page = await session.current()
    try:
        response = await page.goto(url)
    except Exception as e:
        if "ERR_BLOCKED_BY_CLIENT" in str(e):
            raise describe_error(e, f"URL {url}") from None
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        if "net::" in message:
            code = message[message.index("net::") :].split()[0]
            raise ToolFailure(
                f"could not open {url}: {code}; check the address and that the site is up"
            ) from None
        raise describe_error(e, f"URL {url}") from None
    status = f" (HTTP {response.status})" if response is not None else ""
    warn = ""
    if response is not None and response.status >= 400:
        warn = "; the server answered with an error page"
    return _reply(session, f"opened {await _where(page)}{status}{warn}")


async def _history(ctx: ToolContext, direction: Literal["back", "forward", "reload"]) -> str:
    session, page = await _page(ctx)
    before = page.url
    try:
        if direction == "back":
            response = await page.go_back()
        elif direction == "forward":
            response = await page.go_forward()
        else:
            response = await page.reload()
    except Exception as e:
        raise describe_error(e) from None
    if direction != "reload" and response is None and page.url == before:
        return _reply(
            session, f"no {'earlier' if direction == 'back' else 'later'} page in this tab; still at {before}"
        )
    verb = {"back": "went back to", "forward": "went forward to", "reload": "reloaded"}[direction]
    return _reply(session, f"{verb} {await _where(page)}")


@tool(level="network", open_world=True)
async def browser_go_back(ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Go back one page in the current tab's history."""
    return await _history(ctx, "back")


@tool(level="network", open_world=True)
async def browser_go_forward(ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Go forward one page in the current tab's history."""
    return await _history(ctx, "forward")


@tool(level="network", open_world=True)
async def browser_reload(ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Reload the current page."""
    return await _history(ctx, "reload")


# -- acting on the page --------------------------------------------------------------


@tool(level="network", open_world=True)
async def browser_click(
    selector: str | None = None,
    ref: str | None = None,
    x: float | None = None,
    y: float | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Click an element, found by a ref from browser_snapshot, a CSS selector, or x,y viewport coordinates.

    :param selector: a CSS (or Playwright) selector that matches one element
    :param ref: an element ref from the latest browser_snapshot, e.g. e12
    :param x: viewport x coordinate in CSS pixels (with y)
    :param y: viewport y coordinate in CSS pixels (with x)
    """
    _one_target(selector, ref, x, y)
    session, page = await _page(ctx)
    before = page.url
    if x is not None and y is not None:
        target = f"position ({x:g}, {y:g})"
        try:
            await page.mouse.click(x, y)
        except Exception as e:
            raise describe_error(e, target) from None
    else:
        locator, target = await _locate(page, selector, ref)
        try:
            await locator.click()
        except Exception as e:
            raise describe_error(e, target) from None
    await _settle(page)
    await session.settle_downloads(timeout=0.5)
    return _reply(session, f"clicked {target}{await _moved(page, before)}")


@tool(level="network", open_world=True)
async def browser_type(
    text: str,
    selector: str | None = None,
    ref: str | None = None,
    delay: Annotated[int | None, Field(ge=0, le=1000)] = None,
    submit: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Type text into an input, replacing what it held; submit=true presses Enter afterwards.

    :param text: the text to enter
    :param selector: a CSS selector of the field
    :param ref: the field's ref from the latest browser_snapshot, e.g. e12
    :param delay: milliseconds between keystrokes (types key by key, as a person would); default: fill at once
    :param submit: press Enter after typing (submits most forms)
    """
    _one_target(selector, ref)
    session, page = await _page(ctx)
    locator, target = await _locate(page, selector, ref)
    before = page.url
    try:
        if delay:
            await locator.fill("")
            await locator.press_sequentially(text, delay=delay)
        else:
            await locator.fill(text)
        if submit:
            await locator.press("Enter")
    except Exception as e:
        raise describe_error(e, target) from None
    if submit:
        await _settle(page)
        return _reply(
            session,
            f"typed {len(text)} characters into {target} and pressed Enter{await _moved(page, before)}",
        )
    return _reply(session, f"typed {len(text)} characters into {target}")


@tool(level="network", open_world=True)
async def browser_hover(
    selector: str | None = None,
    ref: str | None = None,
    x: float | None = None,
    y: float | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Move the mouse over an element (opens hover menus and tooltips).

    :param selector: a CSS selector that matches one element
    :param ref: an element ref from the latest browser_snapshot, e.g. e12
    :param x: viewport x coordinate in CSS pixels (with y)
    :param y: viewport y coordinate in CSS pixels (with x)
    """
    _one_target(selector, ref, x, y)
    session, page = await _page(ctx)
    if x is not None and y is not None:
        target = f"position ({x:g}, {y:g})"
        try:
            await page.mouse.move(x, y)
        except Exception as e:
            raise describe_error(e, target) from None
    else:
        locator, target = await _locate(page, selector, ref)
        try:
            await locator.hover()
        except Exception as e:
            raise describe_error(e, target) from None
    return _reply(session, f"hovering over {target}")


@tool(level="network", open_world=True)
async def browser_press_key(key: str, modifiers: list[str] | None = None, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Press a key in the focused element, e.g. Enter, Tab, Escape, ArrowDown, PageDown, a.

    :param key: a key name (Enter, Tab, Escape, Backspace, ArrowUp, F5, a, ...)
    :param modifiers: keys held down meanwhile: Shift, Control, Alt, Meta (ControlOrMeta for the OS's shortcut key)
    """
    held: list[str] = []
    for name in modifiers or []:
        normal = _MODIFIERS.get(name.strip().lower())
        if normal is None:
            raise InvalidArguments(
                f"unknown modifier {name!r}; use Shift, Control, Alt, Meta or ControlOrMeta"
            )
        held.append(normal)
    combo = "+".join([*held, key])
    session, page = await _page(ctx)
    before = page.url
    try:
        # a locator's press waits for a navigation it starts (a form submitted by
        # Enter); the bare keyboard does not
        focused = page.locator("*:focus")
        if await focused.count() == 1:
            await focused.press(combo)
        else:
            await page.keyboard.press(combo)
    except Exception as e:
        message = str(e)
        if "Unknown key" in message:
            raise InvalidArguments(
                f"unknown key {key!r}; use names like Enter, Tab, Escape, ArrowDown, PageDown or one character"
            ) from None
        raise describe_error(e, f"key {combo}") from None
    await _settle(page)
    return _reply(session, f"pressed {combo}{await _moved(page, before)}")


@tool(level="network", open_world=True)
async def browser_scroll(
    direction: Literal["up", "down", "to_top", "to_bottom"],
    amount: Annotated[int, Field(ge=1, le=100000)] = 500,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Scroll the page up or down by some pixels, or to its top or bottom.

    :param direction: up, down, to_top or to_bottom
    :param amount: pixels for up/down
    """
    session, page = await _page(ctx)
    script = {
        "up": "(a) => window.scrollBy(0, -a)",
        "down": "(a) => window.scrollBy(0, a)",
        "to_top": "() => window.scrollTo(0, 0)",
        "to_bottom": "() => window.scrollTo(0, document.documentElement.scrollHeight)",
    }[direction]
    try:
        await page.evaluate(script, amount)
        where = await page.evaluate(
            "() => [Math.round(window.scrollY), document.documentElement.scrollHeight, window.innerHeight]"
        )
    except Exception as e:
        raise describe_error(e) from None
    top, height, view = where
    bottom = " (at the bottom)" if top + view >= height - 1 else ""
    return _reply(
        session,
        f"scrolled {direction.replace('_', ' ')}: now at y={top} of {height} (viewport {view}){bottom}",
    )


# -- reading the page ------------------------------------------------------------------


@tool(level="network", read_only=True, open_world=True)
async def browser_snapshot(
    selector: str | None = None,
    max_depth: Annotated[int | None, Field(ge=1, le=100)] = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """The page's accessibility tree (roles, names, states), each element with [ref=eN].

    Pass a ref to browser_click, browser_type or browser_hover to act on that
    element. Refs hold until the next snapshot or page change. Prefer this to
    browser_get_dom and screenshots for finding what to act on.

    :param selector: only the part of the page under this CSS selector
    :param max_depth: how many levels of the tree to show
    """
    session, page = await _page(ctx)
    try:
        tree, where = await asyncio.gather(aria_snapshot(page, selector, max_depth), _where(page))
    except ToolFailure:
        raise
    except Exception as e:
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    limit = session.pool.settings.max_snapshot_chars
    body = cap_text(tree, limit, "max_snapshot_chars", "pass selector or max_depth to see a part")
    return _reply(session, f"Page: {where}\n{body}")


@tool(level="network", read_only=True, open_world=True)
async def browser_get_dom(
    selector: str | None = None,
    max_depth: Annotated[int, Field(ge=1, le=50)] = 5,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """A simplified DOM (tags, ids, classes, key attributes, own text), one element a line.

    :param selector: start at this element (default: body)
    :param max_depth: levels below the start to show
    """
    session, page = await _page(ctx)
    try:
        dom = await page.evaluate(SIMPLIFIED_DOM, {"sel": selector, "maxDepth": max_depth})
    except Exception as e:
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    if dom is None:
        raise NotFound(
            f"selector {selector!r} matches nothing on {page.url}; take browser_snapshot to see the page"
        )
    limit = session.pool.settings.max_dom_chars
    return _reply(session, cap_text(dom, limit, "max_dom_chars", "pass selector or a smaller max_depth"))


@tool(level="network", read_only=True, open_world=True)
async def browser_get_state(ctx: ToolContext = None) -> dict[str, Any]:  # type: ignore[assignment]
    """The browser's state: current URL, title, load state, history length, tabs."""
    session = _session(ctx)
    if not session.running:
        return {"running": False, "notes": session.take_notes()}
    page = await session.current()
    try:
        ready, history = await page.evaluate("() => [document.readyState, history.length]")
    except Exception:
        ready, history = "unknown", None
    tabs = []
    for i, tab in enumerate(session.pages()):
        try:
            title = await tab.title()
        except Exception:
            title = ""
        tabs.append({"index": i, "url": tab.url, "title": title, "current": tab is page})
    browser = session.browser
    return {
        "running": True,
        "url": page.url,
        "title": await page.title(),
        "load_state": ready,
        "history_length": history,
        "tabs": tabs,
        "browser": {
            "version": browser.version if browser else None,
            "headless": session.options.headless,
            "own_process": session.own_browser is not None,
            "viewport": {"width": session.options.viewport[0], "height": session.options.viewport[1]},
        },
        "notes": session.take_notes(),
    }


@tool(level="network", open_world=True, path_args=("path",))
async def browser_screenshot(
    path: str | None = None,
    selector: str | None = None,
    full_page: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> Any:
    """A PNG of the viewport, the whole page, or one element; returned as an image, or saved under the workspace.

    :param path: save here (inside the workspace) instead of returning the image
    :param selector: only this element
    :param full_page: the whole scrollable page instead of the viewport
    """
    target = ctx.resolve_path(path, write=True) if path else None
    session, page = await _page(ctx)
    try:
        if selector:
            locator = page.locator(selector)
            if await locator.count() == 0:
                raise NotFound(
                    f"selector {selector!r} matches nothing; take browser_snapshot to see the page"
                )
            data = await locator.first.screenshot()
        else:
            data = await page.screenshot(full_page=full_page)
    except ToolFailure:
        raise
    except Exception as e:
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    width, height = _png_size(data)
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
        return _reply(
            session, f"saved a {width}x{height} screenshot to {ctx.relative(target)} ({len(data):,} bytes)"
        )
    limit = ctx.config.host.max_image_bytes
    mime = "image/png"
    if len(data) > limit and not selector:
        data = await page.screenshot(full_page=full_page, type="jpeg", quality=60)
        mime = "image/jpeg"
    notes = session.take_notes()
    caption = f"screenshot of {await _where(page)} ({width}x{height})"
    blocks: list[Any] = [TextBlock("\n".join([*(f"Note: {n}" for n in notes), caption]))]
    blocks.append(ImageBlock(data=base64.b64encode(data).decode("ascii"), mime_type=mime))
    return blocks


def _png_size(data: bytes) -> tuple[int, int]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return 0, 0


@tool(level="network", destructive=True, open_world=True)
async def browser_evaluate(script: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Run JavaScript in the page and return its result as JSON.

    An expression (document.title), a function (() => ...), or statements
    with return (const n = 1; return n + 1). Promises are awaited.

    :param script: the JavaScript to run
    """
    session, page = await _page(ctx)
    try:
        try:
            value = await page.evaluate(script)
        except Exception as e:
            if "Illegal return statement" not in str(e):
                raise
            value = await page.evaluate(f"async () => {{\n{script}\n}}")
    except Exception as e:
        message = str(e)
        first = message.split("\n")[0]
        if first.startswith("Page.evaluate: "):
            raise ToolFailure(f"the script threw: {first.removeprefix('Page.evaluate: ')}") from None
        raise describe_error(e) from None
    rendered = "undefined" if value is None else json.dumps(value, ensure_ascii=False, indent=1, default=str)
    limit = session.pool.settings.max_evaluate_chars
    return _reply(
        session, cap_text(rendered, limit, "max_evaluate_chars", "return less (a slice or a count)")
    )


@tool(level="network", read_only=True, open_world=True, timeout_s=150)
async def browser_wait_for(
    selector: str | None = None,
    condition: str | None = None,
    text: str | None = None,
    timeout: Annotated[int, Field(ge=0, le=120000)] = 10000,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Wait until an element is visible, a text appears, or a JavaScript condition is true.

    :param selector: wait for an element matching this CSS selector to be visible
    :param condition: wait for this JavaScript expression to be truthy, e.g. document.querySelectorAll('li').length > 3
    :param text: wait for this text to be visible on the page
    :param timeout: milliseconds to wait at most
    """
    given = [n for n, v in (("selector", selector), ("condition", condition), ("text", text)) if v]
    if len(given) != 1:
        raise InvalidArguments(
            f"give exactly one of selector, condition or text (got {' and '.join(given) or 'none'})"
        )
    session, page = await _page(ctx)
    try:
        if selector:
            await page.locator(selector).first.wait_for(state="visible", timeout=timeout)
            what = f"selector {selector!r} is visible"
        elif text:
            await page.get_by_text(text).first.wait_for(state="visible", timeout=timeout)
            what = f"text {text!r} is visible"
        else:
            await page.wait_for_function(condition or "true", timeout=timeout)
            what = "the condition is true"
    except Exception as e:
        if type(e).__name__ == "TimeoutError":
            target = f"selector {selector!r}" if selector else f"text {text!r}" if text else "the condition"
            raise ToolFailure(
                f"{target} did not {'hold' if condition else 'appear'} within {timeout} ms; "
                "take browser_snapshot to see the page, or wait longer",
                type="timeout",
            ) from None
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    return _reply(session, f"{what} on {page.url}")


@tool(level="network", open_world=True, match=("url",))
async def browser_tabs(
    action: Literal["list", "new", "select", "close"],
    index: int | None = None,
    url: str | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """List, open, switch to or close this session's tabs.

    :param action: list, new (optionally at url), select (by index), close (by index, default the current tab)
    :param index: the tab's number from the list (0-based)
    :param url: for new: the address to open
    """
    session = _session(ctx)
    if action == "new":
        checked = session.pool.rules.check(url) if url else None
        await session.current()
        assert session.context is not None
        page = await session.context.new_page()
        session.page = page
        if checked:
            try:
                await page.goto(checked)
            except Exception as e:
                raise describe_error(e, f"URL {checked}") from None
        return _reply(
            session,
            f"opened tab {session.pages().index(page)}: {await _where(page)}\n" + await _tab_list(session),
        )
    current = await session.current()
    pages = session.pages()
    if action == "list":
        return _reply(session, await _tab_list(session))
    if action == "select":
        if index is None:
            raise InvalidArguments("select needs index; browser_tabs list shows the tabs")
        page = _tab(pages, index)
        session.page = page
        await page.bring_to_front()
        return _reply(session, f"switched to tab {index}: {await _where(page)}")
    page = _tab(pages, index) if index is not None else current
    closed = pages.index(page)
    await page.close()
    remaining = session.pages()
    if not remaining:
        assert session.context is not None
        session.page = await session.context.new_page()
    elif session.page is page or session.page not in remaining:
        session.page = remaining[min(closed, len(remaining) - 1)]
    return _reply(session, f"closed tab {closed}\n" + await _tab_list(session))


def _tab(pages: list[Page], index: int) -> Page:
    if not 0 <= index < len(pages):
        raise NotFound(
            f"no tab {index}: there are {len(pages)} (0 to {len(pages) - 1}); browser_tabs list shows them"
        )
    return pages[index]


async def _tab_list(session: BrowserSession) -> str:
    lines = []
    for i, tab in enumerate(session.pages()):
        mark = "*" if tab is session.page else " "
        lines.append(f"{mark} {i}: {await _where(tab)}")
    return "Tabs (* current):\n" + "\n".join(lines)


ALL_TOOLS = (
    browser_launch,
    browser_navigate,
    browser_click,
    browser_type,
    browser_scroll,
    browser_hover,
    browser_press_key,
    browser_screenshot,
    browser_get_dom,
    browser_evaluate,
    browser_wait_for,
    browser_go_back,
    browser_go_forward,
    browser_reload,
    browser_get_state,
    browser_snapshot,
    browser_tabs,
    browser_close,
)
