"""Listing the js tools imports only the plugin and its settings: no engine, script code or asyncio."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["js"], tmp_path)
    assert listing.tools == ["create_tool", "delete_tool", "list_tools"]
    assert listing.loaded("agenthost_js") == ["agenthost_js", "agenthost_js.settings"]
    assert listing.imported() == listing.imported("quickjs", "ctypes") == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert listing.schemas["delete_tool"] == ["name"]
