"""Without servers configured, loading the mcp plugin imports only it and its settings: no client, SDK or asyncio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["mcp"])
listed = sorted(host.tools)
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_mcp"))
heavy = [m for m in ("asyncio", "pydantic", "concurrent.futures", "mcp", "httpx") if m in sys.modules]
print(json.dumps({"tools": listed, "loaded": loaded, "heavy": heavy}))
"""

DECLARING = ["agenthost_mcp", "agenthost_mcp.settings"]


def test_without_servers_nothing_else_is_imported(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["tools"] == []
    assert report["loaded"] == DECLARING
    assert report["heavy"] == []
