"""``web_fetch``: pages as readable text or markdown, through the SSRF guard.

Only the declaration lives here; the fetching machinery (``pages``) is imported
on the first call, so listing tools does not pay for it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from agenthost import InvalidArguments, Param, ToolContext, tool

MAX_URLS = 10


@tool(level="network", open_world=True, match=("url", "urls"))
async def web_fetch(
    url: str | None = None,
    urls: Annotated[list[str] | None, Param(min_length=1, max_length=MAX_URLS)] = None,
    extractMode: Literal["text", "markdown", "raw"] = "text",
    maxChars: Annotated[int, Param(ge=100, le=1_000_000)] = 50_000,
    start_index: Annotated[int, Param(ge=0)] = 0,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> Any:
    """Fetch a web page (or several) and return its readable content as text or markdown.

    HTML is reduced to the article (navigation, ads and boilerplate removed); JSON and
    plain text come back as they are, PDFs as their text, images as images. Long pages
    come in parts of maxChars characters: the result says which start_index gives the
    next part. Only public http(s) addresses can be reached.

    :param url: the http:// or https:// URL to fetch (give url or urls).
    :param urls: several URLs to fetch at once (up to 10); each gets its own section.
    :param extractMode: "text" (default) readable text; "markdown" keeps headings, links and
        lists; "raw" returns the body unchanged (HTML source, JSON as sent).
    :param maxChars: at most this many characters per URL in this call.
    :param start_index: the character to start at, to read on where a previous call stopped.
    """
    if (url is None) == (urls is None):
        raise InvalidArguments("give either url (one page) or urls (a list of pages), not both or neither")
    from agenthost_web.pages import fetch_pages

    return await fetch_pages(ctx, url, urls, extractMode, maxChars, start_index)
