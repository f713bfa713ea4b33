"""Moving through pages: browser_navigate, back, forward and reload."""

from __future__ import annotations

from typing import Literal

from agenthost import ToolContext, tool
from agenthost.errors import ToolFailure
from agenthost_browser.failures import describe_error
from agenthost_browser.tools.common import page_label, page_of, reply, session_of


@tool(level="network", open_world=True, match=("url",))
async def browser_navigate(url: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Open a URL in the current tab and wait for it to load.

    Only http(s), about: and data: URLs (file:// when configured); a bare host
    like example.com gets https://.

    :param url: the address to open
    """
    session = session_of(ctx)
    url = await session.pool.rules.check_open(url)
    page = await session.current()
    mark = len(session.refusals)
    try:
        response = await page.goto(url)
    except Exception as e:
        session.raise_if_refused(mark, None)  # a redirect the SSRF guard stopped
        if "ERR_BLOCKED_BY_CLIENT" in str(e):
            raise describe_error(e, f"URL {url}") from None
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        if "net::" in message:
            code = message[message.index("net::") :].split()[0]
            raise ToolFailure(
                f"could not open {url}: {code}; check the address and that the site is up"
            ) from None
        raise describe_error(e, f"URL {url}") from None
    session.raise_if_refused(mark, page.url)
    status = f" (HTTP {response.status})" if response is not None else ""
    warn = ""
    if response is not None and response.status >= 400:
        warn = "; the server answered with an error page"
    return reply(session, f"opened {await page_label(page)}{status}{warn}")


async def _history(ctx: ToolContext, direction: Literal["back", "forward", "reload"]) -> str:
    session, page = await page_of(ctx)
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
        return reply(
            session, f"no {'earlier' if direction == 'back' else 'later'} page in this tab; still at {before}"
        )
    verb = {"back": "went back to", "forward": "went forward to", "reload": "reloaded"}[direction]
    return reply(session, f"{verb} {await page_label(page)}")


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
