"""Listing the shell tools imports only their declarations and settings: no
process manager, sandbox or asyncio until a command runs."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["shell"], tmp_path)
    assert listing.tools == ["bash", "bash_kill", "bash_list", "bash_output"]
    assert listing.loaded("agenthost_shell") == [
        "agenthost_shell",
        "agenthost_shell.settings",
        "agenthost_shell.tools",
    ]
    assert listing.imported() == listing.imported("psutil") == []
    # the schemas still build afterwards (names in the signatures resolve)
    assert listing.schemas["bash"] == ["background", "command", "description", "timeout_ms", "working_dir"]
