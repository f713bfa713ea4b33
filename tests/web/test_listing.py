"""Listing the web tools imports only the modules that declare them; the
fetching machinery and the search backends wait for a call (or a configured backend)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=["web"], config=json.loads(sys.argv[2]))
for t in host.tools.values():
    (t.name, t.level, t.plugin, t.description, t.annotations)
loaded = sorted(m for m in sys.modules if m.startswith("agenthost_web"))
heavy = [m for m in ("asyncio", "pydantic", "concurrent.futures", "httpx", "agenthost.results") if m in sys.modules]
schemas = {t.name: sorted(t.input_schema["properties"]) for t in host.tools.values()}
print(json.dumps({"loaded": loaded, "heavy": heavy, "schemas": schemas}))
"""


def _list(tmp_path: Path, config: dict[str, Any]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "BRAVE_API_KEY"}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path), json.dumps(config)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_listing_imports_only_the_declaring_modules(tmp_path: Path) -> None:
    report = _list(tmp_path, {})
    assert report["loaded"] == [
        "agenthost_web",
        "agenthost_web.fetch",
        "agenthost_web.search",
        "agenthost_web.settings",
    ]
    assert report["heavy"] == []
    # the schema still builds afterwards (names in the signature resolve)
    assert report["schemas"] == {"web_fetch": ["extractMode", "maxChars", "start_index", "url", "urls"]}


def test_a_configured_backend_loads_the_backends_but_no_client(tmp_path: Path) -> None:
    report = _list(tmp_path, {"plugins": {"web": {"searxng_url": "http://127.0.0.1:9"}}})
    assert "agenthost_web.backends" in report["loaded"]
    assert "agenthost_web.pages" not in report["loaded"]
    # a given [plugins.web] table is validated by pydantic (core's rule); nothing else heavy
    assert report["heavy"] == ["pydantic"]
    assert report["schemas"]["web_search"] == ["allowed_domains", "blocked_domains", "count", "query"]
