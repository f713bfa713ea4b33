"""Listing the browser tools imports only the modules that declare them; the
pool, sessions, discovery and page reading wait for a call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["browser"])
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_browser"))
heavy = [
    m for m in ("asyncio", "pydantic", "concurrent.futures", "psutil", "playwright", "agenthost.results")
    if m in sys.modules
]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
from agenthost_browser import pool_of
pool = pool_of(host)  # made on first use
print(json.dumps({"loaded": loaded, "heavy": heavy, "tools": len(schemas), "schemas": schemas,
                  "pool": type(pool).__name__}))
"""


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == [
        "agenthost_browser",
        "agenthost_browser.failures",
        "agenthost_browser.settings",
        "agenthost_browser.tools",
        "agenthost_browser.tools.common",
        "agenthost_browser.tools.elements",
        "agenthost_browser.tools.history",
        "agenthost_browser.tools.reading",
        "agenthost_browser.tools.tabs",
    ]
    assert report["heavy"] == []
    # every schema still builds afterwards (names in the signatures resolve)
    assert report["tools"] == 18
    assert report["schemas"]["browser_launch"] == ["headless", "viewport"]
    assert report["pool"] == "BrowserPool"
