from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import agenthost_fs
from agenthost.config import Config

from .conftest import write


def test_doctor_reports_rg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config.load(tmp_path, {})
    if shutil.which("rg") is None:
        pytest.skip(reason="rg (ripgrep) not on PATH")
    [row] = agenthost_fs.agenthost_doctor(config)
    assert row["ok"] is True and row["name"] == "fs: ripgrep" and shutil.which("rg") in row["detail"]
    monkeypatch.setenv("PATH", str(tmp_path))
    [row] = agenthost_fs.agenthost_doctor(config)
    assert row["ok"] is False and row["fix"] == "apt-get install ripgrep"


async def test_without_rg_grep_uses_python(make_host, workspace: Path, tmp_path: Path, monkeypatch) -> None:
    write(workspace, "a.txt", "needle\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    host = await make_host(plugins=["fs"])
    result = await host.call("grep", {"pattern": "needle", "output_mode": "content"})
    assert result.ok and result.text == "a.txt:1:needle"
    forced = await make_host(plugins=["fs"], config={"plugins": {"fs": {"grep_engine": "rg"}}})
    result = await forced.call("grep", {"pattern": "needle"})
    assert result.error and result.error.type == "unavailable" and "apt-get install ripgrep" in result.text


async def test_bad_settings_name_the_key(make_host) -> None:
    host = await make_host(plugins=["fs"], config={"plugins": {"fs": {"max_lines": 0}}})
    assert "read_file" not in host.tools
    info = {p.name: p for p in host.plugin_infos}["fs"]
    assert "plugins.fs.max_lines" in (info.error or "")
