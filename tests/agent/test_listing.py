"""Listing the agent tools imports only the modules that declare them: no memory store, SQLite or asyncio."""

from __future__ import annotations

from pathlib import Path

from agenthost.testing import list_fresh


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    listing = list_fresh(["agent"], tmp_path)
    assert listing.tools == ["ask_user", "memory", "skill", "todo_write"]
    assert listing.loaded("agenthost_agent") == [
        "agenthost_agent",
        "agenthost_agent.ask",
        "agenthost_agent.memory_tool",
        "agenthost_agent.settings",
        "agenthost_agent.skills",
        "agenthost_agent.todo",
    ]
    assert listing.imported() == listing.imported("sqlite3", "yaml") == []
    # the schemas still build afterwards (names in the signatures resolve)
    assert listing.schemas["todo_write"] == ["todos"]
    assert "action" in listing.schemas["memory"]
