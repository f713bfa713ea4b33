"""glob, grep (both engines, compared on one tree), file_search."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agenthost_fs.grep_python import python_search
from agenthost_fs.grep_query import Query
from agenthost_fs.grep_rg import rg_search

from .conftest import write


def fixture_tree(root: Path) -> None:
    write(root, ".gitignore", "build/\n*.log\n!keep.log\n/top_only.txt\n")
    write(root, "src/app.py", "import os\n\ndef main():\n    print('TODO: hello')\n    return 0\n")
    write(root, "src/util.py", "def helper():\n    # todo lowercase\n    return 'hello world'\n")
    write(root, "src/web/page.ts", "const hello = 1;\nexport default hello;\n")
    write(root, "src/web/page.tsx", "// TODO tsx\nexport const x = <div>hello</div>;\n")
    write(root, "src/.gitignore", "generated.py\n")
    write(root, "src/generated.py", "TODO generated hello\n")
    write(root, "build/out.py", "TODO built hello\n")
    write(root, "debug.log", "TODO log hello\n")
    write(root, "keep.log", "TODO kept hello\n")
    write(root, "top_only.txt", "hello top\n")
    write(root, "docs/top_only.txt", "hello nested\n")
    write(root, ".hidden/secret.md", "hello hidden TODO\n")
    write(root, ".git/config", "hello from git\n")
    write(root, "bin/blob.bin", b"\0\x01hello binary TODO\n")
    write(root, "multi.txt", "start here\nmiddle\nend here\nstart again\nend\n")
    write(root, "crlf.txt", b"hello crlf\r\nsecond\r\n")
    write(root, "u16.txt", "hello utf16\n".encode("utf-16"))
    write(root, "bom.txt", b"\xef\xbb\xbfhello bom\n")
    write(root, "bad.txt", b"hello \xff\xfe bad bytes\n")
    write(root, "n\u00e4me with space.md", "hello unicode name\n")
    write(
        root,
        "deep/a/b/c/d.py",
        "".join(f"line {i} TODO\n" if i % 7 == 0 else f"line {i}\n" for i in range(60)),
    )
    os.symlink("src", root / "link_to_src")


QUERIES = [
    dict(pattern="hello"),
    dict(pattern="TODO", mode="content"),
    dict(pattern="todo", ignore_case=True, mode="count"),
    dict(pattern="TODO", mode="content", before=2, after=1),
    dict(pattern="hello", globs=["*.py"]),
    dict(pattern="hello", globs=["*.log"]),
    dict(pattern="hello", globs=["!src/**"]),
    dict(pattern="hello", type_globs=("*.ts", "*.tsx")),
    dict(pattern=r"start.*?end", multiline=True, mode="content"),
    dict(pattern=r"start.*?end", multiline=True, mode="count"),
    dict(pattern=r"^\s*return", mode="content"),
    dict(pattern=r"here$", mode="content"),
    dict(pattern=r"crlf\r?$|second", mode="content"),
    dict(pattern="line 4[29]", mode="content", before=1, after=1),
    dict(pattern="", mode="count"),
    dict(pattern="hello\\s+world"),
    dict(pattern="TODO", mode="content", need=4),
]


def _query(root: Path, sub: str = ".", **kw) -> Query:
    rel = os.path.relpath(root / sub, root)
    return Query(
        workspace=str(root), root=str((root / sub).resolve()), root_arg="./" if rel == "." else rel, **kw
    )


@pytest.mark.skipif(shutil.which("rg") is None, reason="rg (ripgrep) not on PATH")
@pytest.mark.parametrize("spec", QUERIES, ids=[str(i) for i in range(len(QUERIES))])
async def test_both_engines_agree(tmp_path: Path, spec: dict) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    fixture_tree(root)
    query = _query(root, **spec)
    by_rg = await rg_search(query, shutil.which("rg"))
    by_python = python_search(query)
    assert (by_rg.files, by_rg.counts, by_rg.lines) == (by_python.files, by_python.counts, by_python.lines)
    assert by_rg.files or by_rg.counts or by_rg.lines  # every query finds something here


@pytest.mark.skipif(shutil.which("rg") is None, reason="rg (ripgrep) not on PATH")
async def test_both_engines_agree_on_a_subfolder_and_a_file(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    fixture_tree(root)
    for sub in ("src", "src/generated.py", "deep/a"):
        query = _query(root, sub, pattern="TODO", mode="content")
        by_rg = await rg_search(query, shutil.which("rg"))
        assert by_rg.lines == python_search(query).lines, sub
        assert by_rg.lines


async def test_what_grep_skips(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    fixture_tree(root)
    files = python_search(_query(root, pattern="hello")).files
    assert "src/app.py" in files and "keep.log" in files and ".hidden/secret.md" in files
    assert "docs/top_only.txt" in files and "u16.txt" in files and "bom.txt" in files
    for skipped in (
        "build/out.py",
        "debug.log",
        "top_only.txt",
        "src/generated.py",
        ".git/config",
        "bin/blob.bin",
        "link_to_src/app.py",
    ):
        assert skipped not in files


@pytest.fixture(params=["rg", "python"])
async def grep_host(request, make_host, workspace: Path):
    if request.param == "rg" and shutil.which("rg") is None:
        pytest.skip(reason="rg (ripgrep) not on PATH")
    fixture_tree(workspace)
    return await make_host(plugins=["fs"], config={"plugins": {"fs": {"grep_engine": request.param}}})


async def test_grep_tool_modes(grep_host) -> None:
    result = await grep_host.call("grep", {"pattern": "TODO", "path": "src"})
    assert result.ok
    assert result.text.splitlines() == ["2 files match", "src/app.py", "src/web/page.tsx"]
    result = await grep_host.call("grep", {"pattern": "TODO", "output_mode": "content", "type": "python"})
    lines = result.text.splitlines()
    assert "src/app.py:4:    print('TODO: hello')" in lines
    result = await grep_host.call(
        "grep", {"pattern": "todo", "case_insensitive": True, "output_mode": "count", "glob": "*.{py,tsx}"}
    )
    assert "src/util.py:1" in result.text.splitlines()
    result = await grep_host.call("grep", {"pattern": "nothing-like-this"})
    assert result.ok and result.text.startswith("No matches")


async def test_grep_paging(grep_host) -> None:
    first = await grep_host.call(
        "grep", {"pattern": "TODO", "output_mode": "content", "path": "deep", "head_limit": 3}
    )
    rows = first.text.splitlines()
    assert rows[:3] == [
        "deep/a/b/c/d.py:1:line 0 TODO",
        "deep/a/b/c/d.py:8:line 7 TODO",
        "deep/a/b/c/d.py:15:line 14 TODO",
    ]
    assert "offset=3" in rows[-1]
    second = await grep_host.call(
        "grep", {"pattern": "TODO", "output_mode": "content", "path": "deep", "head_limit": 3, "offset": 3}
    )
    assert second.text.splitlines()[0] == "deep/a/b/c/d.py:22:line 21 TODO"


async def test_grep_bad_arguments(grep_host) -> None:
    result = await grep_host.call("grep", {"pattern": "(unclosed"})
    assert result.error and result.error.type == "invalid_arguments"
    result = await grep_host.call("grep", {"pattern": "x", "type": "klingon"})
    assert result.error and "known:" in result.text
    result = await grep_host.call("grep", {"pattern": "hello", "path": "bin/blob.bin"})
    assert result.ok and "binary" in result.text


async def test_grep_lookaround_falls_back_to_python(grep_host) -> None:
    result = await grep_host.call("grep", {"pattern": r"hello(?= world)", "output_mode": "content"})
    assert result.ok and result.text == "src/util.py:3:    return 'hello world'"


async def test_glob_newest_first_and_gitignore(call, workspace: Path) -> None:
    fixture_tree(workspace)
    os.utime(workspace / "src/util.py", (1, 2_000_000_000))
    result = await call("glob", pattern="**/*.py")
    rows = result.text.splitlines()
    assert rows[1] == "src/util.py"
    assert set(rows[1:]) == {"src/util.py", "src/app.py", "deep/a/b/c/d.py"}
    result = await call("glob", pattern="src/**/*.{ts,tsx}")
    assert sorted(result.text.splitlines()[1:]) == ["src/web/page.ts", "src/web/page.tsx"]
    result = await call("glob", pattern="*.py", path="src")
    assert sorted(result.text.splitlines()[1:]) == ["src/app.py", "src/util.py"]
    result = await call("glob", pattern="*.nothing")
    assert result.ok and result.text.startswith("No files")


async def test_glob_is_capped(make_host, workspace: Path) -> None:
    for i in range(30):
        write(workspace, f"f{i:02}.txt", "x")
    host = await make_host(plugins=["fs"], config={"plugins": {"fs": {"glob_limit": 10}}})
    result = await host.call("glob", {"pattern": "*.txt"})
    assert len(result.text.splitlines()) == 12 and "20 more" in result.text


async def test_file_search(call, workspace: Path) -> None:
    fixture_tree(workspace)
    result = await call("file_search", path=".", pattern="*.PY", type="file")
    rows = result.text.splitlines()[1:]
    assert "[FILE] src/app.py (61 B)" in rows and "[FILE] build/out.py (17 B)" in rows
    assert not any(".git/" in r for r in rows)
    result = await call("file_search", path=".", pattern="*", type="dir", max_depth=0)
    assert {r.split()[-1] for r in result.text.splitlines()[1:]} >= {"src", "build", "deep"}
    assert "src/web" not in result.text
    result = await call("file_search", path=".", pattern="*", limit=3)
    assert len(result.text.splitlines()) == 5 and "limit of 3" in result.text
    result = await call("file_search", path=".", limit=101)
    assert result.error and result.error.type == "invalid_arguments"
