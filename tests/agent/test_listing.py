"""Listing the agent tools imports only the modules that declare them: no memory store, SQLite or asyncio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["agent"])
listed = sorted(host.tools)
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_agent"))
heavy = [m for m in ("asyncio", "pydantic", "sqlite3", "concurrent.futures", "yaml") if m in sys.modules]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
print(json.dumps({"tools": listed, "loaded": loaded, "heavy": heavy, "schemas": schemas}))
"""


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["tools"] == ["ask_user", "memory", "skill", "todo_write"]
    assert report["loaded"] == [
        "agenthost_agent",
        "agenthost_agent.ask",
        "agenthost_agent.memory_tool",
        "agenthost_agent.settings",
        "agenthost_agent.skills",
        "agenthost_agent.todo",
    ]
    assert report["heavy"] == []
    # the schemas still build afterwards (names in the signatures resolve)
    assert report["schemas"]["todo_write"] == ["todos"]
    assert "action" in report["schemas"]["memory"]
