"""Without servers configured, loading the mcp plugin imports only it and its settings: no client, SDK or asyncio."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_without_servers_nothing_else_is_imported(tmp_path: Path) -> None:
    listing = list_fresh(["mcp"], tmp_path)
    assert listing.tools == []
    assert listing.loaded("agenthost_mcp") == ["agenthost_mcp", "agenthost_mcp.settings"]
    assert listing.imported() == listing.imported("mcp", "httpx") == []
