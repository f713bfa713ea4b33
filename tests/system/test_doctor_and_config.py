"""agenthost doctor rows, registration and the [plugins.system] table."""

from __future__ import annotations

import pytest

import agenthost_system
from agenthost.config import Config
from agenthost.errors import ConfigError
from agenthost_system import environment


def doctor(workspace, system: dict | None = None) -> dict[str, dict]:
    config = Config.load(workspace, {"plugins": {"system": system or {}}})
    rows = agenthost_system.agenthost_doctor(config)
    for row in rows:
        assert set(row) == {"name", "ok", "detail", "fix"}
    return {row["name"]: row for row in rows}


def test_doctor_sees_a_running_display_and_xdotool(workspace, xvfb, xdotool):
    rows = doctor(workspace, {"display": xvfb})
    display = rows["system: display"]
    assert display["ok"] and f"{xvfb}: 640x480" in display["detail"]
    assert rows["system: xdotool (computer)"] == {
        "name": "system: xdotool (computer)",
        "ok": True,
        "detail": xdotool,
        "fix": "",
    }


def test_doctor_says_how_to_get_a_display_and_xdotool(workspace, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    rows = doctor(workspace, {"xdotool": "no-such-xdotool"})
    display = rows["system: display"]
    assert not display["ok"] and "neither DISPLAY nor WAYLAND_DISPLAY" in display["detail"]
    assert "Xvfb" in display["fix"]
    tool = rows["system: xdotool (computer)"]
    assert not tool["ok"] and tool["fix"] == "apt-get install xdotool"


def test_doctor_file_manager_row(workspace, monkeypatch, tmp_path):
    monkeypatch.setattr(environment, "PLATFORM", "linux")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    row = doctor(workspace)["system: file manager (open_in_folder)"]
    assert not row["ok"] and row["fix"] == "apt-get install xdg-utils"
    xdg = tmp_path / "xdg-open"
    xdg.write_text("#!/bin/sh\n")
    xdg.chmod(0o755)
    row = doctor(workspace)["system: file manager (open_in_folder)"]
    assert row["ok"] and str(xdg) in row["detail"]


async def test_tools_levels_and_hints(make_host):
    host = await make_host(plugins=["system"])
    levels = {
        name: host.tools[name].level for name in ("screenshot", "open_in_folder", "computer", "system_info")
    }
    assert levels == {
        "screenshot": "execute",
        "open_in_folder": "execute",
        "computer": "execute",
        "system_info": "read",
    }
    assert host.tools["computer"].annotations["destructiveHint"] is True
    assert host.tools["system_info"].annotations["readOnlyHint"] is True
    schema = host.tools["computer"].input_schema
    assert schema["properties"]["action"]["enum"][-1] == "screenshot"
    assert schema["required"] == ["action"]


async def test_unknown_keys_in_the_table_are_errors_naming_the_key(make_host):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"colour": "blue"}}})
    info = next(p for p in host.plugin_infos if p.name == "system")
    assert info.status == "failed" and "plugins.system.colour: unknown key" in (info.error or "")
    assert "screenshot" not in host.tools
    with pytest.raises(ConfigError, match=r"plugins\.system\.max_width"):
        Config.load(host.workspace.root, {"plugins": {"system": {"max_width": 2}}}).section(
            "system", agenthost_system.settings.SystemSettings
        )
