"""Acting on the page: click, type, hover (by selector, ref or x,y), keys and scrolling."""

from __future__ import annotations

from typing import Annotated, Literal

from agenthost import Param, ToolContext, tool
from agenthost.errors import InvalidArguments
from agenthost_browser.failures import describe_error
from agenthost_browser.tools.common import act_on, locate, moved, one_target, page_of, reply, settle

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
    one_target(selector, ref, x, y)
    session, page = await page_of(ctx)
    before = page.url
    target = await act_on(page, "click", selector, ref, x, y)
    await settle(page)
    await session.settle_downloads(timeout=0.5)
    return reply(session, f"clicked {target}{await moved(page, before)}")


@tool(level="network", open_world=True)
async def browser_type(
    text: str,
    selector: str | None = None,
    ref: str | None = None,
    delay: Annotated[int | None, Param(ge=0, le=1000)] = None,
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
    one_target(selector, ref)
    session, page = await page_of(ctx)
    locator, target = await locate(page, selector, ref)
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
        await settle(page)
        return reply(
            session,
            f"typed {len(text)} characters into {target} and pressed Enter{await moved(page, before)}",
        )
    return reply(session, f"typed {len(text)} characters into {target}")


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
    one_target(selector, ref, x, y)
    session, page = await page_of(ctx)
    target = await act_on(page, "hover", selector, ref, x, y)
    return reply(session, f"hovering over {target}")


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
    session, page = await page_of(ctx)
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
    await settle(page)
    return reply(session, f"pressed {combo}{await moved(page, before)}")


@tool(level="network", open_world=True)
async def browser_scroll(
    direction: Literal["up", "down", "to_top", "to_bottom"],
    amount: Annotated[int, Param(ge=1, le=100000)] = 500,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Scroll the page up or down by some pixels, or to its top or bottom.

    :param direction: up, down, to_top or to_bottom
    :param amount: pixels for up/down
    """
    session, page = await page_of(ctx)
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
    return reply(
        session,
        f"scrolled {direction.replace('_', ' ')}: now at y={top} of {height} (viewport {view}){bottom}",
    )
