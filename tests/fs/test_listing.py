"""Listing the fs tools imports only the modules that declare them; the first call imports the rest."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["fs"], tmp_path)
    assert len(listing.tools) == 11
    assert listing.loaded("agenthost_fs") == [
        "agenthost_fs",
        "agenthost_fs.finding",
        "agenthost_fs.grep",
        "agenthost_fs.managing",
        "agenthost_fs.reading",
        "agenthost_fs.settings",
        "agenthost_fs.writing",
    ]
    assert listing.imported() == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert listing.schemas["edit"] == ["edits", "new_str", "old_str", "path", "replace_all"]
