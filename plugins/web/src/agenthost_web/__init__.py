"""Web tools for agenthost: ``web_fetch`` behind the SSRF guard with readable
extraction, and ``web_search`` on pluggable backends (Brave Search API, SearXNG).

Config (``[plugins.web]`` in agenthost.toml; every key optional)::

    [plugins.web]
    max_bytes = 10000000          # body cap while streaming, after decompression
    timeout_s = 30                # one fetch, redirects and body included
    concurrency = 4               # urls fetched at once
    searxng_url = "http://localhost:8888"   # a SearXNG instance with json in search.formats
    brave_api_key = "..."         # or the BRAVE_API_KEY environment variable
    search_backend = "brave"      # when several are configured

    [net]
    allow = ["intranet.example", "10.1.0.0/16"]   # let the guard through to these
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from agenthost import hookimpl
from agenthost_web.fetch import web_fetch
from agenthost_web.search import choose_backend, configured_backends, make_web_search
from agenthost_web.settings import WebSettings

__all__ = ["WebSettings", "web_fetch"]

SEARCH_FIX = (
    'set BRAVE_API_KEY (https://brave.com/search/api/), or add [plugins.web] searxng_url = "http://localhost:8888" '
    "(a SearXNG instance with json in search.formats) to agenthost.toml"
)


@hookimpl
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section("web", WebSettings)
    register(web_fetch)
    backends = host.plugins.collect("agenthost_search_backends", config=config)
    if not backends:
        return  # web_search only exists when it can work
    try:
        backend = choose_backend(backends, settings.search_backend)
    except Exception as e:
        register.problem(str(e))
        backend = backends[0]
    register(make_web_search(backend))


@hookimpl
def agenthost_search_backends(config: Any) -> list[Any]:
    return configured_backends(config.section("web", WebSettings))


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    settings = config.section("web", WebSettings)
    rows: list[dict[str, Any]] = []
    names = [b.name for b in configured_backends(settings)]
    rows.append(
        {
            "name": "web_search backend",
            "ok": bool(names),
            "detail": (
                f"configured: {', '.join(names)}"
                + (" (BRAVE_API_KEY from the environment)" if os.environ.get("BRAVE_API_KEY") else "")
                if names
                else "none configured, so web_search is not offered"
            ),
            "fix": "" if names else SEARCH_FIX,
        }
    )
    for module, package, role in (
        ("trafilatura", "trafilatura", "HTML extraction"),
        ("readability", "readability-lxml", "HTML extraction fallback"),
        ("markdownify", "markdownify", "markdown output of the fallback"),
        ("pypdf", "pypdf", "PDF text"),
    ):
        found = importlib.util.find_spec(module) is not None
        rows.append(
            {
                "name": f"web_fetch: {package}",
                "ok": found,
                "detail": role if found else f"{role} is missing",
                "fix": "" if found else f"pip install {package}",
            }
        )
    return rows
