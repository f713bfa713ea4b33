"""Listing the fs tools imports only the modules that declare them; the first call imports the rest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["fs"])
listed = sorted(host.tools)
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_fs"))
heavy = [m for m in ("asyncio", "pydantic", "concurrent.futures") if m in sys.modules]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
print(json.dumps({"tools": listed, "loaded": loaded, "heavy": heavy, "schemas": schemas}))
"""

DECLARING = [
    "agenthost_fs",
    "agenthost_fs.finding",
    "agenthost_fs.grep",
    "agenthost_fs.managing",
    "agenthost_fs.reading",
    "agenthost_fs.settings",
    "agenthost_fs.writing",
]


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(report["tools"]) == 11
    assert report["loaded"] == DECLARING
    assert report["heavy"] == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert report["schemas"]["edit"] == ["edits", "new_str", "old_str", "path", "replace_all"]
