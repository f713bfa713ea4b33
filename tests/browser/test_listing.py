"""Listing the browser tools imports only the modules that declare them; the
pool, sessions, discovery and page reading wait for a call."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["browser"], tmp_path)
    assert listing.loaded("agenthost_browser") == [
        "agenthost_browser",
        "agenthost_browser.failures",
        "agenthost_browser.settings",
        "agenthost_browser.tools",
        "agenthost_browser.tools.common",
        "agenthost_browser.tools.elements",
        "agenthost_browser.tools.history",
        "agenthost_browser.tools.reading",
        "agenthost_browser.tools.tabs",
    ]
    assert listing.imported() == listing.imported("psutil", "playwright") == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert len(listing.tools) == 18
    assert listing.schemas["browser_launch"] == ["headless", "viewport"]


async def test_the_pool_is_made_on_first_use(workspace: Path) -> None:
    from agenthost import Host
    from agenthost_browser import pool_of

    async with Host(workspace, plugins=["browser"]) as host:
        assert type(pool_of(host)).__name__ == "BrowserPool"
        assert pool_of(host) is pool_of(host)
