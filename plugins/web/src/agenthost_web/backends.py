"""The search backends ``web_search`` ships: the Brave Search API and SearXNG.

Their endpoints are configured by the user and therefore trusted: they are not
behind the SSRF guard.
"""

from __future__ import annotations

from typing import Any

from agenthost.errors import ToolFailure
from agenthost_web.search import MAX_COUNT


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
