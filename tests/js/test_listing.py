"""Listing the js tools imports only the plugin and its settings: no engine, script code or asyncio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["js"])
listed = sorted(host.tools)
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_js"))
heavy = [m for m in ("asyncio", "pydantic", "concurrent.futures", "quickjs", "ctypes") if m in sys.modules]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
print(json.dumps({"tools": listed, "loaded": loaded, "heavy": heavy, "schemas": schemas}))
"""

DECLARING = ["agenthost_js", "agenthost_js.settings"]


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["tools"] == ["create_tool", "delete_tool", "list_tools"]
    assert report["loaded"] == DECLARING
    assert report["heavy"] == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert report["schemas"]["delete_tool"] == ["name"]
