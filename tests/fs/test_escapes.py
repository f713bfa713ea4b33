"""Every escape from the workspace, tried through every path-taking tool; and
names that only look odd (`..foo`, `a..b`, spaces, unicode) must work."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import write

REFUSED = {"outside_workspace", "invalid_arguments", "denied"}


@pytest.fixture
def layout(tmp_path: Path, workspace: Path) -> dict[str, Any]:
    outside = tmp_path / "outside"
    write(outside, "secret.txt", "secret data\n")
    evil = Path(str(workspace) + "-evil")  # a sibling that shares the prefix
    write(evil, "x.txt", "secret evil\n")
    write(workspace, "inside.txt", "secret inside\n")
    os.symlink(outside / "secret.txt", workspace / "link_out")
    os.symlink(outside, workspace / "dir_out")
    os.symlink(outside / "new.txt", workspace / "dangling_out")
    return {"outside": outside, "evil": evil}


def escapes(workspace: Path, outside: Path, evil: Path) -> list[str]:
    return [
        "../outside/secret.txt",
        "../outside",
        "sub/../../outside/secret.txt",
        str(outside / "secret.txt"),
        str(outside),
        "/etc/passwd",
        f"../{evil.name}/x.txt",
        str(evil / "x.txt"),
        str(evil),
        "link_out",
        "dir_out",
        "dir_out/secret.txt",
        "dir_out/new_file.txt",
        "dangling_out",
        "in\0side.txt",
    ]


def _calls(path: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("read_file", {"path": path}),
        ("write_file", {"path": path, "content": "pwned"}),
        ("edit", {"path": path, "old_str": "secret", "new_str": "pwned"}),
        ("glob", {"pattern": "*", "path": path}),
        ("grep", {"pattern": "secret", "path": path}),
        ("list_dir", {"path": path}),
        ("file_stat", {"path": path}),
        ("file_delete", {"path": path, "recursive": True}),
        ("file_move", {"source": path, "destination": "moved_here"}),
        ("file_move", {"source": "inside.txt", "destination": path, "overwrite": True}),
        ("file_copy", {"source": path, "destination": "copied_here"}),
        ("file_copy", {"source": "inside.txt", "destination": path, "overwrite": True}),
        ("file_search", {"path": path}),
    ]


def _snapshot(*roots: Path) -> dict[str, str]:
    seen = {}
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in files:
                p = os.path.join(folder, name)
                seen[p] = hashlib.sha256(Path(p).read_bytes()).hexdigest()
    return seen


async def test_every_escape_through_every_tool(call, workspace: Path, layout: dict[str, Any]) -> None:
    outside, evil = layout["outside"], layout["evil"]
    before = _snapshot(outside, evil)
    failures = []
    for path in escapes(workspace, outside, evil):
        for name, args in _calls(path):
            result = await call(name, **args)
            if result.ok or result.error is None or result.error.type not in REFUSED:
                failures.append(f"{name}({args}) -> {result.ok} {result.error}")
            elif "secret data" in result.text or "secret evil" in result.text:
                failures.append(f"{name}({args}) leaked: {result.text[:100]}")
    assert not failures, "\n".join(failures)
    assert _snapshot(outside, evil) == before
    assert not (outside / "new.txt").exists()
    assert (workspace / "inside.txt").read_text() == "secret inside\n"
    assert not (workspace / "moved_here").exists() and not (workspace / "copied_here").exists()


async def test_glob_patterns_cannot_escape(call, workspace: Path, layout: dict[str, Any]) -> None:
    for pattern in ("../outside/*", str(layout["outside"]) + "/*", "../*/secret.txt", "dir_out/*"):
        result = await call("glob", pattern=pattern)
        assert "secret.txt" not in result.text, pattern


async def test_searches_do_not_follow_links_out(call, workspace: Path, layout: dict[str, Any]) -> None:
    result = await call("grep", pattern="secret", output_mode="content")
    assert result.ok and "secret data" not in result.text and "inside.txt:1:secret inside" in result.text
    result = await call("glob", pattern="**/*")
    assert "secret.txt" not in result.text
    result = await call("file_search", path=".", pattern="secret*")
    assert result.text.startswith("Nothing")


LEGIT = ["..foo", "a..b", "with space.txt", "ünïcødé ✓.txt", "dir..x/..inner"]


@pytest.mark.parametrize("name", LEGIT)
async def test_odd_but_legit_names_work(call, workspace: Path, name: str) -> None:
    assert (await call("write_file", path=name, content="hello\n")).ok
    assert (workspace / name).read_text() == "hello\n"
    read = await call("read_file", path=name)
    assert read.ok and read.text.startswith("     1\thello")
    assert (await call("edit", path=name, old_str="hello", new_str="howdy")).ok
    stat = await call("file_stat", path=name)
    assert stat.ok and stat.data["size"] == 6
    grep = await call("grep", pattern="howdy", path=name, output_mode="content")
    assert grep.ok and grep.text.endswith(":1:howdy")
    found = await call("grep", pattern="howdy")
    assert name in found.text.splitlines()
    glob = await call("glob", pattern="**/*")
    assert name in glob.text.splitlines()
    listing = await call("list_dir", path=os.path.dirname(name) or ".")
    assert any(row.startswith(f"[FILE] {os.path.basename(name)} ") for row in listing.text.splitlines())
    search = await call("file_search", path=".", pattern=os.path.basename(name))
    assert search.ok and name in search.text
    assert (await call("file_copy", source=name, destination=name + ".copy")).ok
    assert (await call("file_move", source=name + ".copy", destination="moved/" + os.path.basename(name))).ok
    assert (workspace / "moved" / os.path.basename(name)).read_text() == "howdy\n"
    assert (await call("file_delete", path=name)).ok
    assert not (workspace / name).exists()
