"""Discovery survives bad plugins; selection by argument, environment and config."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthost import Host, hookimpl, tool

TEST_PLUGINS = ["sample", "broken", "raising", "zdup"]


def infos(host: Host) -> dict[str, dict]:
    return {i.name: i.to_dict() for i in host.plugin_infos}


def test_broken_plugins_are_recorded_and_the_rest_work(fixture_site: Path, workspace: Path) -> None:
    host = Host(workspace, config={}, plugins=TEST_PLUGINS)
    found = infos(host)
    assert found["sample"]["status"] == "loaded"
    assert found["sample"]["distribution"] == "agenthost_sample_test"
    assert found["sample"]["version"] == "0.1.0"
    assert sorted(found["sample"]["tools"]) == ["add", "greet"]

    assert found["broken"]["status"] == "failed"
    assert "frobnicate" in found["broken"]["error"]
    assert found["broken"]["error"].startswith("failed to import: ImportError")

    assert found["raising"]["status"] == "failed"
    assert "license server" in found["raising"]["error"]
    assert "half_done" not in host.tools  # a failed plugin's tools are withdrawn

    assert found["zdup"]["status"] == "failed"
    assert "'greet'" in found["zdup"]["error"] and "'sample'" in found["zdup"]["error"]
    assert host.tools["greet"].plugin == "sample"
    assert sorted(host.tools) == ["add", "greet"]


async def test_tools_of_a_healthy_plugin_run_beside_broken_ones(fixture_site: Path, make_host) -> None:
    host = await make_host(plugins=TEST_PLUGINS)
    result = await host.call("greet", {"name": "Ada"})
    assert result.ok and result.text == "Hello, Ada!"


def test_environment_selects_and_blocks(
    fixture_site: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTHOST_PLUGINS", "sample,broken")
    monkeypatch.setenv("AGENTHOST_DISABLE_PLUGINS", "broken")
    host = Host(workspace, config={})
    assert sorted(infos(host)) == ["sample"]


def test_argument_wins_over_environment(fixture_site: Path, workspace: Path, monkeypatch) -> None:
    monkeypatch.setenv("AGENTHOST_PLUGINS", "broken")
    host = Host(workspace, config={}, plugins=["sample"])
    assert sorted(infos(host)) == ["sample"]


def test_config_load_and_disable(fixture_site: Path, workspace: Path) -> None:
    host = Host(workspace, config={"host": {"load": ["sample", "zdup"], "disable": ["zdup"]}})
    assert sorted(infos(host)) == ["sample"]


def test_unknown_plugin_name_is_reported(fixture_site: Path, workspace: Path) -> None:
    host = Host(workspace, config={}, plugins=["sample", "nosuch"])
    record = infos(host)["nosuch"]
    assert record["status"] == "failed"
    assert "no installed plugin is named 'nosuch'" in record["error"]


def test_in_process_hooks_register_tools(workspace: Path) -> None:
    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    class App:
        @hookimpl
        def agenthost_register_tools(self, register):
            register(ping)

    host = Host(workspace, config={}, plugins=[], hooks=[App()])
    assert list(host.tools) == ["ping"]


def test_core_alone_has_no_tools(workspace: Path) -> None:
    assert len(Host(workspace, config={}, plugins=[]).tools) == 0


async def test_runtime_tools_are_announced(make_host) -> None:
    changes: list[tuple[list[str], list[str]]] = []

    class Listener:
        @hookimpl
        def agenthost_tools_changed(self, added, removed):
            changes.append((added, removed))

    host = await make_host(hooks=[Listener()])

    @tool
    def late() -> str:
        """Added at run time."""
        return "here"

    host.add_tool(late, plugin="runtime")
    assert (await host.call("late")).text == "here"
    assert host.remove_tool("late")
    assert not host.remove_tool("late")
    assert changes == [(["late"], []), ([], ["late"])]
    assert (await host.call("late")).error.type == "unknown_tool"


def test_lifecycle_hook_failure_does_not_stop_others(workspace: Path) -> None:
    import asyncio

    seen: list[str] = []

    class Bad:
        @hookimpl
        def agenthost_session_end(self, session):
            raise RuntimeError("boom")

    class Good:
        @hookimpl
        def agenthost_session_end(self, session):
            seen.append(session.id)

    async def main() -> None:
        host = Host(workspace, config={}, plugins=[], hooks=[Good(), Bad()])
        async with host, host.session("s1"):
            pass

    asyncio.run(main())
    assert seen == ["s1"]


async def test_deferred_tools_load_on_first_listing_or_unknown_name(make_host) -> None:
    loads: list[str] = []

    @tool
    def now() -> str:
        """Registered at once."""
        return "now"

    @tool
    def later() -> str:
        """Registered by the deferred loader."""
        return "later"

    class Lazy:
        @hookimpl
        def agenthost_register_tools(self, register):
            register(now)

            def load(reg):
                loads.append("loaded")
                reg(later)
                reg.problem("one server did not start")

            register.deferred(load)

    host = await make_host(hooks=[Lazy()])
    assert (await host.call("now")).text == "now"
    assert loads == []  # a call of a known tool never runs the loader
    assert (await host.call("later")).text == "later"
    assert loads == ["loaded"]
    assert sorted(host.tools) == ["later", "now"]
    info = next(i for i in host.plugin_infos if i.tools)
    assert sorted(info.tools) == ["later", "now"] and info.problems == ["one server did not start"]
    assert loads == ["loaded"]


def test_deferred_loader_failure_is_a_problem(workspace) -> None:
    class Broken:
        @hookimpl
        def agenthost_register_tools(self, register):
            register.deferred(lambda reg: 1 / 0)

    host = Host(workspace, config={}, plugins=[], hooks=[Broken()])
    assert list(host.tools) == []
    (info,) = host.plugin_infos
    assert info.status == "loaded" and info.problems == [
        "loading tools failed: ZeroDivisionError: division by zero"
    ]
