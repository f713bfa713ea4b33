"""``web_search`` and the choice of its backend.

A backend is any object with a ``name`` and an async ``search(query, count)``
returning a list of results, each a dict (or object) with ``title``, ``url``
and ``snippet`` (``published`` optional). Plugins add backends through the
``agenthost_search_backends(config)`` hook. The two this plugin ships (Brave
Search API, SearXNG) are in ``backends``, imported only when one is configured.
"""

from __future__ import annotations

import os
from typing import Annotated, Any
from urllib.parse import urlsplit

from agenthost import InvalidArguments, Param, Tool, ToolFailure, Unavailable, tool
from agenthost_web.settings import WebSettings

MAX_COUNT = 20


def configured_backends(settings: WebSettings) -> list[Any]:
    key = settings.brave_api_key or os.environ.get("BRAVE_API_KEY")
    if not key and not settings.searxng_url:
        return []
    from agenthost_web.backends import BraveSearch, SearxngSearch  # only when one is configured

    backends: list[Any] = []
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
