"""Every tool of every plugin in this repository passes the plugin authors'
conformance check (agenthost.testing.check_conformance)."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from agenthost.testing import check_conformance

PLUGINS = sorted(ep.name for ep in entry_points(group="agenthost") if ep.value.startswith("agenthost_"))


def test_the_repository_plugins_are_installed() -> None:
    assert set(PLUGINS) >= {"fs", "shell", "browser", "system", "web", "agent", "js", "mcp"}


@pytest.mark.parametrize("plugin", PLUGINS)
async def test_every_tool_conforms(plugin: str, make_host) -> None:
    host = await make_host(plugins=[plugin])
    info = next(i for i in host.plugin_infos if i.name == plugin)
    assert info.status == "loaded", info.error
    problems = {name: await check_conformance(host, name, run_examples=False) for name in sorted(host.tools)}
    assert {name: p for name, p in problems.items() if p} == {}
