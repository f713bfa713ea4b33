"""Reading the page: snapshot, simplified DOM, state, screenshot, JavaScript, waiting.

What only a call needs (asyncio, ``page_text``, the result blocks) is imported
in the tool that uses it: listing tools must not pay for it.
"""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any

from agenthost import Param, ToolContext, tool
from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost_browser.failures import describe_error
from agenthost_browser.tools.common import page_label, page_of, reply, session_of


@tool(level="network", read_only=True, open_world=True)
async def browser_snapshot(
    selector: str | None = None,
    max_depth: Annotated[int | None, Param(ge=1, le=100)] = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """The page's accessibility tree (roles, names, states), each element with [ref=eN].

    Pass a ref to browser_click, browser_type or browser_hover to act on that
    element. Refs hold until the next snapshot or page change. Prefer this to
    browser_get_dom and screenshots for finding what to act on.

    :param selector: only the part of the page under this CSS selector
    :param max_depth: how many levels of the tree to show
    """
    import asyncio

    from agenthost_browser.page_text import aria_snapshot, cap_text

    session, page = await page_of(ctx)
    try:
        tree, where = await asyncio.gather(aria_snapshot(page, selector, max_depth), page_label(page))
    except ToolFailure:
        raise
    except Exception as e:
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    limit = session.pool.settings.max_snapshot_chars
    body = cap_text(tree, limit, "max_snapshot_chars", "pass selector or max_depth to see a part")
    return reply(session, f"Page: {where}\n{body}")


@tool(level="network", read_only=True, open_world=True)
async def browser_get_dom(
    selector: str | None = None,
    max_depth: Annotated[int, Param(ge=1, le=50)] = 5,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """A simplified DOM (tags, ids, classes, key attributes, own text), one element a line.

    :param selector: start at this element (default: body)
    :param max_depth: levels below the start to show
    """
    from agenthost_browser.page_text import SIMPLIFIED_DOM, cap_text

    session, page = await page_of(ctx)
    try:
        dom = await page.evaluate(SIMPLIFIED_DOM, {"sel": selector, "maxDepth": max_depth})
    except Exception as e:
        raise describe_error(e, f"selector {selector!r}" if selector else None) from None
    if dom is None:
        raise NotFound(
            f"selector {selector!r} matches nothing on {page.url}; take browser_snapshot to see the page"
        )
    limit = session.pool.settings.max_dom_chars
    return reply(session, cap_text(dom, limit, "max_dom_chars", "pass selector or a smaller max_depth"))


@tool(level="network", read_only=True, open_world=True)
async def browser_get_state(ctx: ToolContext = None) -> dict[str, Any]:  # type: ignore[assignment]
    """The browser's state: current URL, title, load state, history length, tabs."""
    session = session_of(ctx)
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
    session, page = await page_of(ctx)
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
        return reply(
            session, f"saved a {width}x{height} screenshot to {ctx.relative(target)} ({len(data):,} bytes)"
        )
    limit = ctx.config.host.max_image_bytes
    mime = "image/png"
    if len(data) > limit and not selector:
        data = await page.screenshot(full_page=full_page, type="jpeg", quality=60)
        mime = "image/jpeg"
    from agenthost.results import ImageBlock, TextBlock

    notes = session.take_notes()
    caption = f"screenshot of {await page_label(page)} ({width}x{height})"
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
    session, page = await page_of(ctx)
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
    from agenthost_browser.page_text import cap_text

    rendered = "undefined" if value is None else json.dumps(value, ensure_ascii=False, indent=1, default=str)
    limit = session.pool.settings.max_evaluate_chars
    return reply(session, cap_text(rendered, limit, "max_evaluate_chars", "return less (a slice or a count)"))


@tool(level="network", read_only=True, open_world=True, timeout_s=150)
async def browser_wait_for(
    selector: str | None = None,
    condition: str | None = None,
    text: str | None = None,
    timeout: Annotated[int, Param(ge=0, le=120000)] = 10000,
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
    session, page = await page_of(ctx)
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
    return reply(session, f"{what} on {page.url}")
