"""Listing the system tools imports only the modules that declare them; capture,
desktop control, reveal and sysinfo wait for a call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["system"])
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_system"))
heavy = [
    m for m in ("asyncio", "pydantic", "concurrent.futures", "psutil", "mss", "PIL", "agenthost.results")
    if m in sys.modules
]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
print(json.dumps({"loaded": loaded, "heavy": heavy, "schemas": schemas}))
"""


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == [
        "agenthost_system",
        "agenthost_system.environment",
        "agenthost_system.settings",
    ]
    assert report["heavy"] == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert report["schemas"] == {
        "computer": ["action", "coordinate", "scroll_amount", "scroll_direction", "start_coordinate", "text"],
        "open_in_folder": ["path"],
        "screenshot": ["monitor", "path", "region"],
        "system_info": [],
    }
