"""What ``web_fetch`` does once called: fetch through the session's guarded
client (pages cached per session for paging), turn each body into a ``Page``,
and render the part asked for."""

from __future__ import annotations

import asyncio
import base64
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost.results import ImageBlock, TextBlock
from agenthost_web.extract import (
    Page,
    decode,
    extract_html,
    is_text_type,
    pdf_text,
    render_json,
    sniff_type,
)
from agenthost_web.settings import WebSettings

if TYPE_CHECKING:
    from agenthost.context import ToolContext
    from agenthost.net import FetchResponse, GuardedClient

IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
ACCEPT = (
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.8"
)


@dataclass
class Fetched:
    """One URL's outcome, before paging."""

    url: str
    final_url: str
    content_type: str
    page: Page | None = None
    image: tuple[str, str] | None = None  # (base64, mime type)
    size: int = 0
    truncated_bytes: int = 0  # the cap, when the body was cut


class PageCache:
    """Extracted pages per session, so paging with start_index does not fetch again."""

    def __init__(self, ttl_s: float, size: int = 32) -> None:
        self.ttl_s, self.size = ttl_s, size
        self.items: OrderedDict[tuple[str, str], tuple[float, Fetched]] = OrderedDict()

    def get(self, key: tuple[str, str]) -> Fetched | None:
        item = self.items.get(key)
        if item is None or time.monotonic() - item[0] > self.ttl_s:
            self.items.pop(key, None)
            return None
        self.items.move_to_end(key)
        return item[1]

    def put(self, key: tuple[str, str], value: Fetched) -> None:
        if self.ttl_s <= 0:
            return
        self.items[key] = (time.monotonic(), value)
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


def settings_of(ctx: ToolContext) -> WebSettings:
    return ctx.config.section("web", WebSettings)


def client_of(ctx: ToolContext, settings: WebSettings) -> GuardedClient:
    """One guarded client per session (keep-alive across calls; closed with the session)."""
    from agenthost.net import guarded_client  # deferred: listing tools must not pay for it

    return ctx.state(
        "web.client",
        lambda: guarded_client(
            ctx.config,
            timeout=settings.timeout_s,
            headers={"user-agent": settings.user_agent, "accept": ACCEPT},
        ),
    )


async def fetch_pages(
    ctx: ToolContext, url: str | None, urls: list[str] | None, mode: str, max_chars: int, start: int
) -> list[Any]:
    """One URL's blocks, or a section per URL (failures included) for several."""
    settings = settings_of(ctx)
    client = client_of(ctx, settings)
    cache = ctx.state("web.pages", lambda: PageCache(settings.cache_ttl_s))
    if url is not None:
        fetched = await _fetch_one(url, mode, client, cache, settings)
        return _render(fetched, mode, max_chars, start, single=True)
    assert urls is not None
    gate = asyncio.Semaphore(settings.concurrency)

    async def one(target: str) -> tuple[bool, list[Any]]:
        try:
            async with gate:
                fetched = await _fetch_one(target, mode, client, cache, settings)
            return True, _render(fetched, mode, max_chars, start, single=False)
        except ToolFailure as e:
            return False, [TextBlock(f"URL: {target}\nError ({e.type}): {e.message}")]

    outcomes = await asyncio.gather(*(one(u) for u in urls))
    if not any(ok for ok, _ in outcomes):
        first = outcomes[0][1][0].text.split(": ", 2)[-1]
        raise ToolFailure(f"none of the {len(urls)} URLs could be fetched; the first: {first}")
    blocks: list[Any] = []
    for number, (_, section) in enumerate(outcomes):
        if number:
            blocks.append(TextBlock("\n" + "=" * 40 + "\n"))
        blocks.extend(section)
    return blocks


async def _fetch_one(
    url: str, mode: str, client: GuardedClient, cache: PageCache, settings: WebSettings
) -> Fetched:
    key = (url, mode)
    cached = cache.get(key)
    if cached is not None:
        return cached
    response = await client.fetch(url, max_bytes=settings.max_bytes, timeout=settings.timeout_s)
    _raise_for_status(response, url)
    fetched = await asyncio.to_thread(_convert, url, response, mode, settings.max_bytes)
    cache.put(key, fetched)
    return fetched


def _raise_for_status(response: FetchResponse, url: str) -> None:
    status = response.status
    if status < 400:
        if status >= 300:
            raise ToolFailure(
                f"HTTP {status} from {url} with no usable Location header; try the URL in a browser"
            )
        return
    where = f"HTTP {status} {response.reason} from {response.url}"
    if status in (404, 410):
        raise NotFound(f"{where}; check the address, or search for the page")
    if status in (401, 403, 407):
        raise ToolFailure(f"{where}: the page needs a login or refuses automated clients; try another source")
    if status == 429:
        raise ToolFailure(f"{where}: rate limited; wait a while before trying again, or try another source")
    if status >= 500:
        raise ToolFailure(f"{where}: the server failed; try again later or another source")
    raise ToolFailure(f"{where}; check the URL and its query parameters")


def _convert(url: str, response: FetchResponse, mode: str, cap: int) -> Fetched:
    body = response.content
    content_type = sniff_type(response.content_type, body, response.url)
    fetched = Fetched(
        url=url,
        final_url=response.url,
        content_type=content_type,
        size=len(body),
        truncated_bytes=cap if response.truncated else 0,
    )
    if content_type in IMAGE_TYPES:
        if response.truncated:
            raise ToolFailure(
                f"the image at {url} is larger than the {cap:,}-byte cap; "
                "raise [plugins.web] max_bytes or find a smaller version"
            )
        fetched.image = (base64.b64encode(body).decode("ascii"), content_type)
        return fetched
    if content_type == "application/pdf":
        if response.truncated:
            raise ToolFailure(
                f"the PDF at {url} is larger than the {cap:,}-byte cap and cannot be read in part; "
                "raise [plugins.web] max_bytes"
            )
        try:
            fetched.page = pdf_text(body)
        except Exception as e:
            raise ToolFailure(
                f"the PDF at {url} could not be read ({e}); try another copy of the document"
            ) from None
        return fetched
    if not is_text_type(content_type):
        raise ToolFailure(
            f"unsupported content type {content_type or 'unknown'} at {url}; "
            "web_fetch reads HTML, text, JSON, XML, PDF and images"
        )
    text = decode(body, response.charset, content_type)
    if mode == "raw":
        fetched.page = Page(text=text, kind="raw", extractor="none")
    elif content_type in ("text/html", "application/xhtml+xml"):
        fetched.page = extract_html(text, mode, response.url)  # type: ignore[arg-type]
    elif "json" in content_type:
        fetched.page = Page(text=render_json(text), kind="json")
    else:
        fetched.page = Page(text=text, kind="text")
    return fetched


def _render(fetched: Fetched, mode: str, max_chars: int, start: int, single: bool) -> list[Any]:
    header = [f"URL: {fetched.final_url}"]
    if fetched.final_url != fetched.url:
        header.append(f"Redirected from: {fetched.url}")
    if fetched.image is not None:
        data, mime = fetched.image
        header.append(f"Content-Type: {mime} ({fetched.size:,} bytes)")
        return [TextBlock("\n".join(header)), ImageBlock(data=data, mime_type=mime)]
    page = fetched.page
    assert page is not None
    if page.title:
        header.append(f"Title: {page.title}")
    how = f" ({mode} via {page.extractor})" if page.kind == "html" else ""
    header.append(f"Content-Type: {fetched.content_type}{how}")
    if fetched.truncated_bytes:
        header.append(
            f"Note: the body was larger than {fetched.truncated_bytes:,} bytes; only that much was read"
        )
    total = len(page.text)
    if start >= total and total:
        message = f"start_index {start} is past the end: {fetched.final_url} has {total:,} characters"
        if single:
            raise InvalidArguments(f"{message}; use a start_index below {total}")
        return [TextBlock("\n".join([*header, "", f"[{message}]"]))]
    part = page.text[start : start + max_chars]
    end = start + len(part)
    lines = [*header, ""]
    lines.append(part if part else "[the page has no readable text; try extractMode raw to see the source]")
    if end < total:
        lines.append(
            f"\n[Showing characters {start:,}-{end:,} of {total:,}. "
            f"Call web_fetch again with start_index={end} to read on.]"
        )
    elif start:
        lines.append(f"\n[Showing characters {start:,}-{end:,} of {total:,}: the end of the page.]")
    return [TextBlock("\n".join(lines))]
