from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from .conftest import write


async def test_write_creates_parents(call, workspace: Path) -> None:
    result = await call("write_file", path="deep/er/new.txt", content="one\ntwo\n")
    assert result.ok, result.text
    assert (workspace / "deep/er/new.txt").read_text() == "one\ntwo\n"
    assert "created" in result.text


async def test_write_keeps_mode_and_leaves_no_temp_files(call, workspace: Path) -> None:
    path = write(workspace, "run.sh", "#!/bin/sh\necho old\n")
    path.chmod(0o751)
    result = await call("write_file", path="run.sh", content="#!/bin/sh\necho new\n")
    assert result.ok and "replaced" in result.text
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.read_text() == "#!/bin/sh\necho new\n"
    assert sorted(os.listdir(workspace)) == ["run.sh"]


async def test_write_into_a_folder_path_is_refused(call, workspace: Path) -> None:
    (workspace / "d").mkdir()
    result = await call("write_file", path="d", content="x")
    assert result.error and result.error.type == "invalid_arguments"


def test_crash_mid_write_leaves_old_or_new(tmp_path: Path) -> None:
    """A writer killed at random moments never leaves a mix of old and new."""
    target = tmp_path / "data.txt"
    old, new = "A" * 2_000_000, "B" * 2_000_000
    target.write_text(old)
    script = (
        "import sys; from pathlib import Path; from agenthost.files import atomic_write\n"
        f"p = Path({str(target)!r})\n"
        "while True:\n"
        f"    atomic_write(p, b'B' * {len(new)}); atomic_write(p, b'A' * {len(old)})\n"
    )
    for delay in (0.05, 0.11, 0.17, 0.23, 0.3):
        proc = subprocess.Popen([sys.executable, "-c", script])
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        content = target.read_text()
        assert content in (old, new)
    leftovers = [p for p in os.listdir(tmp_path) if p != "data.txt"]
    # a killed writer may leave its temp file behind, never a half-written target
    assert all(name.startswith(".data.txt.") for name in leftovers)


async def test_edit_unique_and_snippet(call, workspace: Path) -> None:
    write(workspace, "m.py", "def f():\n    return 1\n\ndef g():\n    return 2\n")
    result = await call("edit", path="m.py", old_str="return 2", new_str="return 3")
    assert result.ok, result.text
    assert (workspace / "m.py").read_text().endswith("    return 3\n")
    assert "     5\t    return 3" in result.text


async def test_edit_non_unique_lists_line_numbers(call, workspace: Path) -> None:
    write(workspace, "m.py", "x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n")
    result = await call("edit", path="m.py", old_str="x = 1", new_str="x = 9")
    assert result.error and result.error.type == "invalid_arguments"
    assert "3 times" in result.text and "lines 1, 3, 5" in result.text
    assert (workspace / "m.py").read_text().count("x = 1") == 3
    result = await call("edit", path="m.py", old_str="x = 1", new_str="x = 9", replace_all=True)
    assert result.ok
    assert (workspace / "m.py").read_text().count("x = 9") == 3


async def test_edit_missing_shows_nearest_lines(call, workspace: Path) -> None:
    write(workspace, "m.py", "import os\n\ndef handler(request):\n    return request.body\n")
    result = await call("edit", path="m.py", old_str="def handle(req):", new_str="def h(r):")
    assert result.error and result.error.type == "not_found"
    assert "     3\tdef handler(request):" in result.text
    result = await call("edit", path="m.py", old_str="return request.body\n  ", new_str="x")
    assert not result.ok


async def test_edit_whitespace_hint(call, workspace: Path) -> None:
    write(workspace, "m.py", "if x:\n        y = 1\n")
    result = await call("edit", path="m.py", old_str="if x:\n    y = 1", new_str="if x:\n    y = 2")
    assert result.error and "whitespace" in result.text and "     1\tif x:" in result.text


async def test_edits_are_all_or_none(call, workspace: Path) -> None:
    path = write(workspace, "c.txt", "alpha\nbeta\ngamma\n")
    before = path.read_text()
    result = await call(
        "edit",
        path="c.txt",
        edits=[{"old_str": "alpha", "new_str": "ALPHA"}, {"old_str": "missing", "new_str": "x"}],
    )
    assert result.error and "edit 2" in result.text
    assert path.read_text() == before
    result = await call(
        "edit",
        path="c.txt",
        edits=[
            {"old_str": "alpha", "new_str": "ALPHA"},
            {"old_str": "a", "new_str": "4", "replace_all": True},
        ],
    )
    assert result.ok, result.text
    assert path.read_text() == "ALPHA\nbet4\ng4mm4\n"


async def test_edit_keeps_crlf_encoding_and_mode(call, workspace: Path) -> None:
    path = write(workspace, "w.txt", "caf\xe9\r\nline two\r\n".encode("cp1252") * 30)
    path.chmod(0o640)
    result = await call(
        "edit", path="w.txt", old_str="line two\ncaf\xe9", new_str="LINE 2\ncafe", replace_all=True
    )
    assert result.ok, result.text
    data = path.read_bytes()
    assert b"LINE 2\r\ncafe\r\n" in data and b"caf\xe9" in data
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


async def test_edit_argument_errors(call, workspace: Path) -> None:
    write(workspace, "a.txt", "abc\n")
    for args in ({}, {"old_str": "a"}, {"old_str": "", "new_str": "x"}, {"old_str": "a", "new_str": "a"}):
        result = await call("edit", path="a.txt", **args)
        assert result.error and result.error.type == "invalid_arguments", args
    result = await call("edit", path="none.txt", old_str="a", new_str="b")
    assert result.error and result.error.type == "not_found"
