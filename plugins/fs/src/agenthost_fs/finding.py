"""glob (path patterns, .gitignore honoured, newest first) and file_search
(seed 003's name search). The walker and path helpers are imported on the
first call: listing tools must not pay for them."""

from __future__ import annotations

import fnmatch
import os
import re
from collections import deque
from typing import TYPE_CHECKING, Annotated, Literal

from agenthost import InvalidArguments, Param, tool
from agenthost_fs.settings import settings

if TYPE_CHECKING:
    from agenthost import ToolContext


@tool(level="read", path_args=("path",))
def glob(pattern: str, path: str | None = None, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Find files by path pattern, newest first, e.g. `**/*.py` or `src/**/*.{ts,tsx}`.

    `**` crosses folders, `*` and `?` do not. Files that .gitignore excludes are left out
    (and `.git`). Results are capped; the answer says how many more there are.

    :param pattern: a glob relative to path (or to the workspace)
    :param path: the folder to search in (default: the workspace root)
    """
    from agenthost_fs.paths import must_exist
    from agenthost_fs.walk import glob_depth, glob_regex, literal_prefix, walk_files

    if not pattern.strip():
        raise InvalidArguments("pattern is empty; try '**/*' for every file")
    if "\0" in pattern:
        raise InvalidArguments("pattern contains a NUL byte")
    prefix, rest = literal_prefix(pattern.lstrip("/") if os.path.isabs(pattern) else pattern)
    if os.path.isabs(pattern):
        prefix = "/" + prefix
    start = os.path.join(path or ".", prefix) if prefix else (path or ".")
    base = ctx.resolve_path(start)
    must_exist(ctx, start, base, "folder")
    if not base.is_dir():
        raise InvalidArguments(f"{start!r} is a file, not a folder; glob searches folders")
    try:
        rx = glob_regex(rest)
    except re.error as e:
        raise InvalidArguments(f"pattern {pattern!r} is not a valid glob: {e}") from None
    limit = settings(ctx).glob_limit
    root = str(base)
    cut = len(root.rstrip(os.sep)) + 1
    found: list[tuple[float, str]] = []
    state = os.path.realpath(ctx.config.state_dir)

    def skip_state(path: str, name: str, is_dir: bool) -> bool | None:
        return False if is_dir and path == state else None  # the host's own audit log

    for file, _ in walk_files(root, max_depth=glob_depth(rest), override=skip_state):
        rel = file[cut:]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        if rx.match(rel):
            try:
                mtime = os.stat(file).st_mtime
            except OSError:
                continue
            found.append((mtime, file))
    if not found:
        return f"No files match {pattern!r} in {ctx.relative(base) if not prefix else ctx.relative(root)}"
    found.sort(key=lambda item: (-item[0], item[1]))
    shown = [ctx.relative(f) for _, f in found[:limit]]
    more = len(found) - len(shown)
    tail = f"\n[{more} more files not shown; narrow the pattern]" if more > 0 else ""
    noun = "file matches" if len(found) == 1 else "files match"
    return f"{len(found)} {noun} (newest first):\n" + "\n".join(shown) + tail


@tool(level="read", path_args=("path",))
def file_search(
    path: str = ".",
    pattern: str = "*",
    type: Literal["all", "file", "dir"] = "all",
    max_depth: Annotated[int, Param(ge=-1)] = -1,
    limit: Annotated[int, Param(ge=1, le=100)] = 20,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Search for files and folders by name (wildcards `*` and `?`, case-insensitive),
    shallowest first.

    Unlike glob it matches names only and does not apply .gitignore (`.git` is skipped).

    :param path: the folder to search
    :param pattern: a name pattern such as `*.pdf` or `report?.txt`
    :param type: `file`, `dir` or `all`
    :param max_depth: how many folder levels below path to descend (-1: no limit, 0: only path itself)
    :param limit: most results to return (1-100)
    """
    from agenthost_fs.paths import human_size, must_exist

    base = ctx.resolve_path(path)
    must_exist(ctx, path, base, "folder")
    if not base.is_dir():
        raise InvalidArguments(f"{path!r} is a file, not a folder")
    if "\0" in pattern:
        raise InvalidArguments("pattern contains a NUL byte")
    rx = re.compile(fnmatch.translate(pattern.lower()), re.DOTALL)
    results: list[str] = []
    more = False
    queue: deque[tuple[str, int]] = deque([(str(base), 0)])
    while queue:
        folder, level = queue.popleft()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir and entry.name == ".git":
                continue
            if is_dir and (max_depth < 0 or level < max_depth):
                queue.append((entry.path, level + 1))
            if (type == "file" and is_dir) or (type == "dir" and not is_dir):
                continue
            if not rx.match(entry.name.lower()):
                continue
            if len(results) >= limit:
                more = True
                break
            if is_dir:
                results.append(f"[DIR]  {ctx.relative(entry.path)}")
            else:
                try:
                    size = human_size(entry.stat(follow_symlinks=False).st_size)
                except OSError:
                    size = "?"
                results.append(f"[FILE] {ctx.relative(entry.path)} ({size})")
        if more:
            break
    where = ctx.relative(base)
    if not results:
        return f"Nothing named {pattern!r} ({type}) under {where}"
    tail = f"\n[limit of {limit} reached; there are more: raise limit or narrow the pattern]" if more else ""
    return f"{len(results)} found under {where}:\n" + "\n".join(results) + tail
