"""Listing the web tools imports only the modules that declare them; the
fetching machinery and the search backends wait for a call (or a configured backend)."""

from __future__ import annotations

import os
from pathlib import Path

from agenthost.testing import list_fresh

ENV = {k: v for k, v in os.environ.items() if k != "BRAVE_API_KEY"}


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["web"], tmp_path, env=ENV)
    assert listing.loaded("agenthost_web") == [
        "agenthost_web",
        "agenthost_web.fetch",
        "agenthost_web.search",
        "agenthost_web.settings",
    ]
    assert listing.imported() == listing.imported("httpx") == []
    # the schema still builds afterwards (names in the signature resolve)
    assert listing.schemas == {"web_fetch": ["extractMode", "maxChars", "start_index", "url", "urls"]}


def test_a_configured_backend_loads_the_backends_but_no_client(tmp_path: Path) -> None:
    listing = list_fresh(["web"], tmp_path, {"plugins": {"web": {"searxng_url": "http://127.0.0.1:9"}}}, ENV)
    assert "agenthost_web.backends" in listing.modules
    assert "agenthost_web.pages" not in listing.modules
    # a given [plugins.web] table is validated by pydantic (core's rule); nothing else heavy
    assert listing.imported() == ["pydantic"]
    assert listing.schemas["web_search"] == ["allowed_domains", "blocked_domains", "count", "query"]
