"""The ``[plugins.web]`` table."""

from __future__ import annotations

from typing import Annotated

from agenthost import Param
from agenthost.config import Section

BRAVE_URL = "https://api.search.brave.com/res/v1/web/search"


class WebSettings(Section):
    """Limits for web_fetch and the search backends' settings.

    ``search_backend`` picks a backend by name when several are configured
    (default: the first configured, Brave before SearXNG).
    """

    max_bytes: Annotated[int, Param(gt=0)] = 10_000_000  # body cap, after decompression
    timeout_s: Annotated[float, Param(gt=0)] = 30.0  # one fetch, redirects and body included
    concurrency: Annotated[int, Param(ge=1, le=16)] = 4  # urls fetched at once
    user_agent: str = "Mozilla/5.0 (compatible; agenthost-web/0.1; +https://pypi.org/project/agenthost/)"
    cache_ttl_s: Annotated[float, Param(ge=0)] = 600.0  # pages kept per session for start_index paging
    search_backend: str | None = None
    search_timeout_s: Annotated[float, Param(gt=0)] = 15.0
    brave_api_key: str | None = None  # else BRAVE_API_KEY
    brave_url: str = BRAVE_URL
    searxng_url: str | None = None  # e.g. http://localhost:8888 (JSON format enabled)
