"""The browser's lifecycle and tabs: browser_launch, browser_close, browser_tabs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from agenthost import Param, ToolContext, tool
from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost_browser.failures import describe_error
from agenthost_browser.tools.common import page_label, reply, session_of

if TYPE_CHECKING:
    from playwright.async_api import Page

    from agenthost_browser.session import BrowserSession


@dataclass
class Viewport:
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}  # unknown keys are errors

    width: Annotated[int, Param(ge=200, le=7680, description="CSS pixels")]
    height: Annotated[int, Param(ge=200, le=4320, description="CSS pixels")]


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
    session = session_of(ctx)
    size = (viewport.width, viewport.height) if viewport is not None else None
    try:
        text = await session.launch(headless, size)
    except ToolFailure:
        raise
    except Exception as e:
        raise describe_error(e) from None
    return reply(session, text)


@tool(level="network", open_world=True)
async def browser_close(ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Close this session's browser tabs, cookies and storage; the next browser call starts afresh."""
    session = session_of(ctx)
    if not session.running:
        return "the browser is not running in this session"
    count = await session.close()
    return f"closed this session's browser ({count} tab{'s' if count != 1 else ''}); cookies and storage are gone"


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
    session = session_of(ctx)
    if action == "new":
        checked = await session.pool.rules.check_open(url) if url else None
        await session.current()
        assert session.context is not None
        page = await session.context.new_page()
        session.page = page
        if checked:
            mark = len(session.refusals)
            try:
                await page.goto(checked)
            except Exception as e:
                session.raise_if_refused(mark, None)
                raise describe_error(e, f"URL {checked}") from None
            session.raise_if_refused(mark, page.url)
        return reply(
            session,
            f"opened tab {session.pages().index(page)}: {await page_label(page)}\n"
            + await _tab_list(session),
        )
    current = await session.current()
    pages = session.pages()
    if action == "list":
        return reply(session, await _tab_list(session))
    if action == "select":
        if index is None:
            raise InvalidArguments("select needs index; browser_tabs list shows the tabs")
        page = _tab(pages, index)
        session.page = page
        await page.bring_to_front()
        return reply(session, f"switched to tab {index}: {await page_label(page)}")
    page = _tab(pages, index) if index is not None else current
    closed = pages.index(page)
    await page.close()
    remaining = session.pages()
    if not remaining:
        assert session.context is not None
        session.page = await session.context.new_page()
    elif session.page is page or session.page not in remaining:
        session.page = remaining[min(closed, len(remaining) - 1)]
    return reply(session, f"closed tab {closed}\n" + await _tab_list(session))


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
        lines.append(f"{mark} {i}: {await page_label(tab)}")
    return "Tabs (* current):\n" + "\n".join(lines)
