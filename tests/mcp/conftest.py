"""Fixtures for the MCP tests: the ``mcptest`` plugin made discoverable to
``agenthost serve`` subprocesses, and helpers to start them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PYTHONPATH on which the entry point ``mcptest`` names tests/mcp/mcptest_plugin.py."""
    folder = tmp_path_factory.mktemp("entry-points")
    info = folder / "agenthost_mcptest-0.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: agenthost-mcptest\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text("[agenthost]\nmcptest = mcptest_plugin\n")
    return os.pathsep.join([str(folder), str(HERE)])


@pytest.fixture
def server_env(plugin_path: str) -> Iterator[dict[str, str]]:
    """Environment for a served subprocess: the test plugin, nothing else autoloaded."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTHOST_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [plugin_path, env.get("PYTHONPATH")]))
    env["AGENTHOST_PLUGINS"] = "mcptest"
    yield env


@pytest.fixture
def serve_args() -> list[str]:
    """The ``agenthost`` command (the venv's script) as argv."""
    script = Path(sys.executable).with_name("agenthost")
    return [str(script)] if script.exists() else [sys.executable, "-m", "agenthost.cli"]
