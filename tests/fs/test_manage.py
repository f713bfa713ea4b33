"""list_dir, file_stat, file_delete, file_move, file_copy, including seed 000's cases."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import write

# -- seed 000, Task 1: list_dir


async def test_list_dir_basic(call, workspace: Path) -> None:
    write(workspace, "hello.txt", "world")
    write(workspace, "data.json", "{}")
    (workspace / "subdir").mkdir()
    result = await call("list_dir", path=".")
    assert result.ok
    assert result.text.splitlines() == [
        ".: 3 entries",
        "[FILE] data.json (2 B)",
        "[FILE] hello.txt (5 B)",
        "[DIR]  subdir",
    ]


async def test_list_dir_empty(call, workspace: Path) -> None:
    (workspace / "e").mkdir()
    result = await call("list_dir", path="e")
    assert result.ok and "empty folder" in result.text


async def test_list_dir_not_found(call) -> None:
    result = await call("list_dir", path="nonexistent/dir")
    assert result.error and result.error.type == "not_found"


async def test_list_dir_recursive_depth(call, workspace: Path) -> None:
    write(workspace, "a/b/c/deep.txt", "x")
    write(workspace, "a/top.txt", "xy")
    result = await call("list_dir", path="a", recursive=True, max_depth=2)
    assert result.ok
    rows = result.text.splitlines()[1:]
    assert rows == ["[DIR]  b", "[DIR]  b/c", "[FILE] top.txt (2 B)"]
    result = await call("list_dir", path="a", recursive=True)
    assert "[FILE] b/c/deep.txt (1 B)" in result.text


# -- seed 000, Task 2: file_stat


async def test_file_stat_file(call, workspace: Path) -> None:
    write(workspace, "test.txt", "hello world")
    result = await call("file_stat", path="test.txt")
    assert result.ok
    data = result.data
    assert data["type"] == "file" and data["size"] == 11 and data["mime_type"] == "text/plain"
    assert data["read_only"] is False and data["permissions"].startswith("rw")


async def test_file_stat_dir(call, workspace: Path) -> None:
    result = await call("file_stat", path=".")
    assert result.ok and result.data["type"] == "directory"


async def test_file_stat_symlink_and_png(call, workspace: Path) -> None:
    write(workspace, "img.bin", b"\x89PNG\r\n\x1a\n" + b"\0" * 20)
    os.symlink("img.bin", workspace / "link")
    result = await call("file_stat", path="link")
    assert result.data["type"] == "symlink" and result.data["target"] == "img.bin"
    assert result.data["mime_type"] == "image/png"


async def test_file_stat_not_found(call) -> None:
    result = await call("file_stat", path="nonexistent")
    assert result.error and result.error.type == "not_found"


# -- seed 000, Task 3: file_delete


async def test_delete_file(call, workspace: Path) -> None:
    path = write(workspace, "delete_me.txt", "bye")
    result = await call("file_delete", path="delete_me.txt")
    assert result.ok and not path.exists() and "Deleted" in result.text


async def test_delete_empty_dir(call, workspace: Path) -> None:
    (workspace / "empty_dir").mkdir()
    result = await call("file_delete", path="empty_dir")
    assert result.ok and not (workspace / "empty_dir").exists()


async def test_delete_nonempty_dir_blocked(call, workspace: Path) -> None:
    write(workspace, "nonempty/file.txt", "content")
    result = await call("file_delete", path="nonempty", recursive=False)
    assert result.error and "recursive" in result.text
    assert (workspace / "nonempty/file.txt").exists()


async def test_delete_recursive(call, workspace: Path) -> None:
    write(workspace, "nonempty/file.txt", "content")
    result = await call("file_delete", path="nonempty", recursive=True)
    assert result.ok and not (workspace / "nonempty").exists() and "1 files" in result.text


async def test_delete_not_found(call) -> None:
    result = await call("file_delete", path="nonexistent/file")
    assert result.error and result.error.type == "not_found"


@pytest.mark.parametrize("root", [".", "", "./", "sub/.."])
async def test_delete_never_the_root(call, workspace: Path, root: str) -> None:
    write(workspace, "sub/keep.txt", "x")
    result = await call("file_delete", path=root, recursive=True)
    assert result.error and result.error.type == "denied"
    assert (workspace / "sub/keep.txt").exists()


async def test_delete_symlink_leaves_target(call, workspace: Path) -> None:
    target = write(workspace, "real/data.txt", "keep")
    os.symlink("real", workspace / "alias")
    result = await call("file_delete", path="alias", recursive=True)
    assert result.ok and "symlink" in result.text
    assert target.read_text() == "keep" and not os.path.lexists(workspace / "alias")


# -- seed 000, Task 4: file_move


async def test_move_file(call, workspace: Path) -> None:
    write(workspace, "old.txt", "content")
    result = await call("file_move", source="old.txt", destination="new.txt")
    assert result.ok
    assert not (workspace / "old.txt").exists() and (workspace / "new.txt").read_text() == "content"


async def test_move_dir(call, workspace: Path) -> None:
    write(workspace, "old_dir/file.txt", "data")
    result = await call("file_move", source="old_dir", destination="x/new_dir")
    assert result.ok
    assert not (workspace / "old_dir").exists() and (workspace / "x/new_dir/file.txt").exists()


async def test_move_source_not_found(call) -> None:
    result = await call("file_move", source="nonexistent", destination="somewhere")
    assert result.error and result.error.type == "not_found"


async def test_move_refuses_overwrite_unless_asked(call, workspace: Path) -> None:
    write(workspace, "a.txt", "A")
    write(workspace, "b.txt", "B")
    result = await call("file_move", source="a.txt", destination="b.txt")
    assert result.error and "overwrite" in result.text
    assert (workspace / "b.txt").read_text() == "B"
    result = await call("file_move", source="a.txt", destination="b.txt", overwrite=True)
    assert result.ok and (workspace / "b.txt").read_text() == "A" and not (workspace / "a.txt").exists()


async def test_move_folder_into_itself(call, workspace: Path) -> None:
    write(workspace, "d/f.txt", "x")
    result = await call("file_move", source="d", destination="d/inner")
    assert result.error and result.error.type == "invalid_arguments"


def _other_filesystem(workspace: Path) -> Path | None:
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and os.stat(shm).st_dev != os.stat(workspace).st_dev:
        return shm
    return None


async def test_move_and_copy_across_file_systems(make_host, workspace: Path, tmp_path: Path) -> None:
    other = _other_filesystem(workspace)
    if other is None:
        pytest.skip(reason="no writable /dev/shm on another file system")
    host = await make_host(plugins=["fs"], config={"host": {"restrict_to_workspace": False}})
    write(workspace, "tree/a.txt", "A")
    write(workspace, "tree/sub/b.txt", "B")
    dest = other / f"agenthost-fs-{os.getpid()}-{tmp_path.name}"
    try:
        result = await host.call("file_move", {"source": "tree", "destination": str(dest)})
        assert result.ok, result.text
        assert (dest / "sub/b.txt").read_text() == "B" and not (workspace / "tree").exists()
        result = await host.call("file_copy", {"source": str(dest), "destination": "back"})
        assert result.ok and "2 files" in result.text
        assert (workspace / "back/sub/b.txt").read_text() == "B"
    finally:
        import shutil

        shutil.rmtree(dest, ignore_errors=True)


# -- seed 000, Task 5: file_copy


async def test_copy_file(call, workspace: Path) -> None:
    write(workspace, "src.txt", "content")
    result = await call("file_copy", source="src.txt", destination="dst.txt")
    assert result.ok
    assert (workspace / "src.txt").exists() and (workspace / "dst.txt").read_text() == "content"


async def test_copy_dir_recursive(call, workspace: Path) -> None:
    write(workspace, "src_dir/a.txt", "aaa")
    write(workspace, "src_dir/sub/b.txt", "bbb")
    result = await call("file_copy", source="src_dir", destination="dst_dir")
    assert result.ok and "2 files" in result.text
    assert (workspace / "dst_dir/a.txt").exists() and (workspace / "dst_dir/sub/b.txt").exists()


async def test_copy_refuses_overwrite_unless_asked(call, workspace: Path) -> None:
    write(workspace, "a.txt", "A")
    write(workspace, "b.txt", "B")
    result = await call("file_copy", source="a.txt", destination="b.txt")
    assert result.error and (workspace / "b.txt").read_text() == "B"
    result = await call("file_copy", source="a.txt", destination="b.txt", overwrite=True)
    assert result.ok and (workspace / "b.txt").read_text() == "A"
