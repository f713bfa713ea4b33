"""Listing tools (``agenthost tools``) must not import what only running them needs.

Issue #7: start-up is measured against the bare entry-point scan, so every
plugin defers its heavy imports (browsers, HTTP clients, parsers, databases,
the JS engine) into the functions that use them. A fresh interpreter loads a
Host with every installed plugin, lists the tools and reports which of those
modules got imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = (
    "playwright",
    "mcp",
    "jsonschema",
    "fastjsonschema",
    "httpx",
    "trafilatura",
    "lxml",
    "pypdf",
    "charset_normalizer",
    "quickjs",
    "_quickjs",
    "ctypes",
    "PIL",
    "mss",
    "psutil",
    "pathspec",
    "yaml",
    "sqlite3",
    "urllib.request",
    "http.client",
    "agenthost.net",
    "agenthost.netclient",
    "agenthost.netguard",
)

_PROBE = """
import importlib.metadata, json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], config={})
for t in host.tools.values():  # what `agenthost tools` prints
    (t.name, t.level, t.plugin, t.description, t.annotations)
installed = sorted(ep.name for ep in importlib.metadata.entry_points(group="agenthost"))
heavy = json.loads(sys.argv[2])
print(json.dumps({
    "loaded": sorted(i.name for i in host.plugin_infos if i.status == "loaded"),
    "tools": len(host.tools),
    "installed": installed,
    "imported": [m for m in heavy if m in sys.modules],
}))
"""


def test_listing_tools_imports_no_heavy_module(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # every installed plugin really loaded (else the check proves nothing)
    assert report["installed"], "no agenthost plugins installed"
    assert report["loaded"] == report["installed"], report
    assert report["tools"] > 0
    assert report["imported"] == [], f"listing tools imported {report['imported']}"
