"""Listing the system tools imports only the modules that declare them; capture,
desktop control, reveal and sysinfo wait for a call."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["system"], tmp_path)
    assert listing.loaded("agenthost_system") == [
        "agenthost_system",
        "agenthost_system.environment",
        "agenthost_system.settings",
    ]
    assert listing.imported() == listing.imported("psutil", "mss", "PIL") == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert listing.schemas == {
        "computer": ["action", "coordinate", "scroll_amount", "scroll_direction", "start_coordinate", "text"],
        "open_in_folder": ["path"],
        "screenshot": ["monitor", "path", "region"],
        "system_info": [],
    }
