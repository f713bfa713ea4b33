"""``web_search`` and its backends (Brave Search API, SearXNG).

A backend is any object with a ``name`` and an async ``search(query, count)``
returning a list of results, each a dict (or object) with ``title``, ``url``
and ``snippet`` (``published`` optional). Plugins add backends through the
``agenthost_search_backends(config)`` hook. Backend endpoints are configured by
the user and therefore trusted: they are not behind the SSRF guard.
"""

from __future__ import annotations

import os
from typing import Annotated, Any
from urllib.parse import urlsplit

from agenthost import InvalidArguments, Param, Tool, ToolFailure, Unavailable, tool
from agenthost_web.settings import WebSettings

MAX_COUNT = 20


class SearchError(ToolFailure):
    """A backend failed; the message says what to change."""


def _get_json(response: Any, backend: str) -> Any:
    try:
        return response.json()
    except ValueError:
        raise SearchError(
            f"{backend} answered HTTP {response.status_code} with something other than JSON; "
            "check the backend's URL in agenthost.toml"
        ) from None


async def _request(
    backend: str, url: str, params: dict[str, Any], headers: dict[str, str], timeout: float
) -> Any:
    import httpx

    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=True) as client:
            return await client.get(url, params=params, headers=headers)
    except httpx.TimeoutException:
        raise SearchError(f"{backend} did not answer within {timeout:g}s; try again in a moment") from None
    except httpx.HTTPError as e:
        raise SearchError(
            f"{backend} could not be reached at {url} ({type(e).__name__}: {e}); "
            "check that it is running and its URL in agenthost.toml"
        ) from None


class BraveSearch:
    """The Brave Search API (``/res/v1/web/search``)."""

    name = "brave"

    def __init__(self, api_key: str, url: str, timeout_s: float = 15.0) -> None:
        self.api_key, self.url, self.timeout_s = api_key, url, timeout_s

    async def search(self, query: str, count: int) -> list[dict[str, Any]]:
        response = await _request(
            "Brave Search",
            self.url,
            {"q": query, "count": min(count, MAX_COUNT)},
            {"Accept": "application/json", "X-Subscription-Token": self.api_key},
            self.timeout_s,
        )
        status = response.status_code
        if status in (401, 403):
            raise SearchError(
                f"Brave Search refused the API key (HTTP {status}); check BRAVE_API_KEY or "
                "[plugins.web] brave_api_key"
            )
        if status == 429:
            raise SearchError("Brave Search rate limit reached (HTTP 429); wait a second and search again")
        if status >= 400:
            data = (
                _get_json(response, "Brave Search")
                if "json" in response.headers.get("content-type", "")
                else {}
            )
            detail = (data.get("error") or {}).get("detail") if isinstance(data, dict) else None
            raise SearchError(
                f"Brave Search answered HTTP {status}"
                + (f": {detail}" if detail else "")
                + "; rephrase the query"
            )
        data = _get_json(response, "Brave Search")
        results = ((data.get("web") or {}).get("results")) or []
        return [
            {
                "title": item.get("title") or item.get("url", ""),
                "url": item.get("url", ""),
                "snippet": _plain(item.get("description") or ""),
                "published": item.get("age") or item.get("page_age"),
            }
            for item in results
            if item.get("url")
        ]


class SearxngSearch:
    """A SearXNG instance's JSON API (``/search?format=json``; ``json`` must be in its search.formats)."""

    name = "searxng"

    def __init__(self, base_url: str, timeout_s: float = 15.0) -> None:
        self.base_url, self.timeout_s = base_url.rstrip("/"), timeout_s

    async def search(self, query: str, count: int) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        for page in (1, 2, 3):  # SearXNG has no count: read pages until there are enough
            response = await _request(
                "SearXNG",
                f"{self.base_url}/search",
                {"q": query, "format": "json", "pageno": page},
                {"Accept": "application/json"},
                self.timeout_s,
            )
            if response.status_code == 403:
                raise SearchError(
                    "SearXNG refused format=json (HTTP 403); add json to search.formats in its settings.yml"
                )
            if response.status_code >= 400:
                raise SearchError(
                    f"SearXNG answered HTTP {response.status_code}; check [plugins.web] searxng_url and the instance's log"
                )
            results = _get_json(response, "SearXNG").get("results") or []
            fresh = [r for r in results if r.get("url") and r["url"] not in seen]
            for item in fresh:
                seen.add(item["url"])
                found.append(
                    {
                        "title": item.get("title") or item["url"],
                        "url": item["url"],
                        "snippet": item.get("content") or "",
                        "published": item.get("publishedDate"),
                    }
                )
            if len(found) >= count or not fresh:
                break
        return found[:count]


def _plain(text: str) -> str:
    """Brave marks matches with <strong>; models read plain text."""
    import html
    import re

    return html.unescape(re.sub(r"</?strong>", "", text))


def configured_backends(settings: WebSettings) -> list[Any]:
    backends: list[Any] = []
    key = settings.brave_api_key or os.environ.get("BRAVE_API_KEY")
    if key:
        backends.append(BraveSearch(key, settings.brave_url, settings.search_timeout_s))
    if settings.searxng_url:
        backends.append(SearxngSearch(settings.searxng_url, settings.search_timeout_s))
    return backends


def domain_of(text: str) -> str:
    text = text.strip().lower()
    host = urlsplit(text if "//" in text else f"//{text}").hostname or ""
    return host.removeprefix("www.").rstrip(".")


def in_domains(url: str, domains: list[str]) -> bool:
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return any(host == d or host.endswith("." + d) for d in domains)


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def make_web_search(backend: Any) -> Tool:
    """The ``web_search`` tool bound to one backend."""

    @tool(level="network", open_world=True, match=("query",))
    async def web_search(
        query: str,
        count: Annotated[int, Param(ge=1, le=MAX_COUNT)] = 5,
        allowed_domains: list[str] | None = None,
        blocked_domains: list[str] | None = None,
    ) -> str:
        """Search the web and return titles, URLs and snippets of the top results.

        Use web_fetch on a result's URL to read the page itself.

        :param query: what to search for.
        :param count: how many results to return (1-20, default 5).
        :param allowed_domains: only return results from these domains (subdomains included).
        :param blocked_domains: never return results from these domains (subdomains included).
        """
        if not query.strip():
            raise InvalidArguments("query is empty; say what to search for")
        allowed = [d for d in map(domain_of, allowed_domains or []) if d]
        blocked = [d for d in map(domain_of, blocked_domains or []) if d]
        if allowed and blocked and set(allowed) <= set(blocked):
            raise InvalidArguments("every allowed domain is also blocked; drop one of the two lists")
        asked = query
        if len(allowed) == 1:
            asked = f"{query} site:{allowed[0]}"
        wanted = MAX_COUNT if (allowed or blocked) else count
        try:
            raw = await backend.search(asked, wanted)
        except ToolFailure:
            raise
        except Exception as e:
            raise ToolFailure(
                f"search backend {backend.name} failed ({type(e).__name__}: {e}); try again later"
            ) from None
        results = []
        for item in raw or []:
            url = _field(item, "url") or ""
            if not url.startswith(("http://", "https://")):
                continue
            if allowed and not in_domains(url, allowed):
                continue
            if blocked and in_domains(url, blocked):
                continue
            results.append(item)
            if len(results) >= count:
                break
        if not results:
            hint = "fewer or other words" + (", or fewer domain limits" if allowed or blocked else "")
            return f"No results for {query!r} (via {backend.name}); try {hint}."
        lines = [f"Results for {query!r} (via {backend.name}):", ""]
        for number, item in enumerate(results, 1):
            lines.append(f"{number}. {_field(item, 'title') or _field(item, 'url')}")
            lines.append(f"   {_field(item, 'url')}")
            if published := _field(item, "published"):
                lines.append(f"   Published: {published}")
            if snippet := " ".join(str(_field(item, "snippet") or "").split()):
                lines.append(f"   {snippet}")
        return "\n".join(lines)

    return web_search


def choose_backend(backends: list[Any], wanted: str | None) -> Any:
    if wanted:
        for backend in backends:
            if getattr(backend, "name", None) == wanted:
                return backend
        names = ", ".join(getattr(b, "name", "?") for b in backends) or "none"
        raise Unavailable(
            f"[plugins.web] search_backend = {wanted!r} is not configured (configured: {names}); "
            "configure it or remove search_backend"
        )
    return backends[0]
