"""Listing tools (``agenthost tools``) must not import what only running them needs.

Issue #7: start-up is measured against the bare entry-point scan, so the core
and every plugin defer their heavy imports (asyncio, pydantic, browsers, HTTP
clients, parsers, databases, the JS engine) into the functions that use them.
A fresh interpreter loads a Host with every installed plugin, lists the tools
and reports which of those modules got imported.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from agenthost.testing import HEAVY_FOR_LISTING, list_fresh

HEAVY = (
    *HEAVY_FOR_LISTING,
    "pydantic_core",
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
    "ssl",
    "tomllib",
    "uuid",
    "urllib.request",
    "http.client",
    "agenthost.executor",
    "agenthost.net",
    "agenthost.netclient",
    "agenthost.netguard",
)


def test_listing_tools_imports_no_heavy_module(tmp_path: Path) -> None:
    installed = sorted({ep.name for ep in importlib.metadata.entry_points(group="agenthost")})
    assert installed, "no agenthost plugins installed"
    listing = list_fresh(installed, tmp_path)
    assert listing.failed == {}  # every installed plugin really loaded (else the check proves nothing)
    assert len(listing.tools) > 40
    assert listing.imported(*HEAVY) == [], f"listing tools imported {listing.imported(*HEAVY)}"
