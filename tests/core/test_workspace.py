"""Workspace confinement: a corpus of escapes that must fail, and names that must work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthost.errors import Denied, InvalidArguments, OutsideWorkspace
from agenthost.workspace import Workspace


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Workspace, Path]:
    ws = tmp_path / "ws"
    ws.mkdir()
    evil = tmp_path / "ws-evil"
    evil.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    os.symlink(outside / "secret.txt", ws / "link-to-secret")
    os.symlink(outside, ws / "linked-dir")
    os.symlink(tmp_path / "outside" / "not-yet", ws / "dangling")
    (ws / "sub").mkdir()
    os.symlink(ws / "sub", ws / "inner-link")
    state = ws / ".agenthost"
    return Workspace(ws, protected=(ws / "agenthost.toml", state)), tmp_path


ESCAPES = [
    "../x",
    "../../etc/passwd",
    "sub/../../x",
    "/etc/passwd",
    "{tmp}/outside/secret.txt",
    "{tmp}/ws-evil/file",
    "../ws-evil/file",
    "link-to-secret",
    "linked-dir/secret.txt",
    "linked-dir/new-file.txt",
    "dangling",
    "linked-dir",
]


@pytest.mark.parametrize("path", ESCAPES)
@pytest.mark.parametrize("write", [False, True])
def test_escapes_are_refused(layout, path: str, write: bool) -> None:
    ws, tmp = layout
    with pytest.raises(OutsideWorkspace) as info:
        ws.resolve(path.format(tmp=tmp), write=write)
    assert "outside the workspace" in str(info.value)


def test_nul_bytes_are_refused(layout) -> None:
    ws, _ = layout
    with pytest.raises(InvalidArguments):
        ws.resolve("a\0b")


LEGIT = [
    "..foo",
    "a..b",
    "with space.txt",
    "ünïcödé/文件.txt",
    "sub/../sub/x",
    ".",
    "",
    "inner-link/x",
    "...",
    "x/...",
]


@pytest.mark.parametrize("path", LEGIT)
def test_legitimate_names_resolve_inside(layout, path: str) -> None:
    ws, _ = layout
    real = ws.resolve(path, write=True)
    assert real == ws.root or str(real).startswith(str(ws.root) + os.sep)


def test_absolute_paths_inside_are_allowed(layout) -> None:
    ws, _ = layout
    assert ws.resolve(str(ws.root / "sub" / "f")) == ws.root / "sub" / "f"


@pytest.mark.parametrize(
    "path", ["agenthost.toml", ".agenthost/audit/x.jsonl", ".agenthost", "sub/../agenthost.toml"]
)
def test_config_and_state_are_read_only(layout, path: str) -> None:
    ws, _ = layout
    ws.resolve(path)  # reading is fine
    with pytest.raises(Denied):
        ws.resolve(path, write=True)


def test_unrestricted_workspace_allows_outside(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "a" if (tmp_path / "a").mkdir() is None else tmp_path, restrict=False)
    assert ws.resolve("/etc/hostname") == Path("/etc/hostname").resolve()


async def test_tools_see_refusals_as_structured_errors(make_host, workspace: Path) -> None:
    from .tools_for_tests import TestTools

    host = await make_host(hooks=[TestTools()])
    result = await host.call("where", {"path": "../x"})
    assert result.error.type == "outside_workspace"
    result = await host.call("write_note", {"path": "agenthost.toml", "content": "[policy]"})
    assert result.error.type == "denied" and not (workspace / "agenthost.toml").exists()
    assert (await host.call("where", {"path": "a..b"})).text == "a..b"
