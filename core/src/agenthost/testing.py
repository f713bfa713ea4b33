"""The plugin authors' test kit: fixtures for a host with chosen plugins and a
temporary workspace, and a conformance check every tool must pass.

Use it from a ``conftest.py``::

    pytest_plugins = ["agenthost.testing"]

    async def test_hello(make_host):
        host = await make_host(plugins=["hello"])
        result = await host.call("hello", {"name": "Ada"})
        assert result.ok

Tests never autoload every installed plugin: ``make_host`` loads only the
plugins named (none by default) plus in-process hook objects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from agenthost.host import Host

HostFactory = Callable[..., Awaitable[Host]]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest_asyncio.fixture
async def make_host(workspace: Path) -> AsyncIterator[HostFactory]:
    """``await make_host(plugins=[...], config={...}, hooks=[...], workspace=...)``;
    every host made is closed after the test."""
    hosts: list[Host] = []

    async def factory(
        plugins: Iterable[str] = (),
        config: dict[str, Any] | str | Path | None = None,
        hooks: Iterable[Any] = (),
        workspace_dir: Path | None = None,
    ) -> Host:
        host = Host(
            workspace=workspace_dir or workspace,
            config=config if config is not None else {},
            plugins=list(plugins),
            hooks=hooks,
        )
        hosts.append(host)
        await host.start()
        return host

    yield factory
    for host in reversed(hosts):
        await host.aclose()
