"""grep: ripgrep when `rg` is on PATH, a pure-Python engine otherwise.

Both engines see the same files (walk.py mirrors ripgrep's rules: .gitignore
files here and above, `--glob` overrides that win over .gitignore, types by
file name, hidden files searched, `.git` and symlinks skipped, files holding
a NUL byte skipped as binary) and give the same results: files and counts
sorted by path, content lines in ripgrep's `--sort path` order. The engines
(grep_run.py) are imported on the first call.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Literal

from agenthost import InvalidArguments, Param, tool

if TYPE_CHECKING:
    from agenthost import ToolContext


@tool(level="read", path_args=("path",))
async def grep(
    pattern: str,
    path: str | None = None,
    glob: str | None = None,
    type: str | None = None,
    output_mode: Literal["files_with_matches", "content", "count"] = "files_with_matches",
    case_insensitive: bool = False,
    context: Annotated[int, Param(ge=0, le=100)] | None = None,
    before_context: Annotated[int, Param(ge=0, le=100)] | None = None,
    after_context: Annotated[int, Param(ge=0, le=100)] | None = None,
    multiline: bool = False,
    head_limit: Annotated[int, Param(ge=0)] = 250,
    offset: Annotated[int, Param(ge=0)] = 0,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Search file contents with a regular expression (ripgrep syntax); .gitignore'd and binary
    files are skipped.

    output_mode: `files_with_matches` (default; paths), `content` (matching lines as
    `path:line:text`, with context lines as `path-line-text`), or `count` (matching lines per file).

    :param pattern: regular expression, e.g. `def \\w+\\(` or `TODO|FIXME`
    :param path: file or folder to search (default: the workspace root)
    :param glob: only files matching this glob, e.g. `*.py`, `*.{ts,tsx}`, `!tests/**`
    :param type: only files of this type, e.g. py, js, ts, rust, go, java, c, cpp, md, json, yaml
    :param output_mode: files_with_matches, content or count
    :param case_insensitive: match regardless of case
    :param context: lines of context before and after each match (content mode)
    :param before_context: lines of context before each match (content mode)
    :param after_context: lines of context after each match (content mode)
    :param multiline: let the pattern span lines (`.` then matches newlines too)
    :param head_limit: return at most this many entries or lines (0: no limit)
    :param offset: skip this many entries or lines first (to page through results)
    """
    if "\0" in pattern:
        raise InvalidArguments("pattern contains a NUL byte")
    if pattern == "" and multiline:
        raise InvalidArguments("an empty pattern with multiline matches everywhere; give a pattern")
    from agenthost_fs.grep_python import is_binary
    from agenthost_fs.grep_run import build_query, render, run_query

    query = build_query(
        ctx,
        pattern,
        path,
        glob,
        type,
        output_mode,
        case_insensitive,
        context,
        before_context,
        after_context,
        multiline,
        head_limit,
        offset,
    )
    where = ctx.relative(query.root)
    if os.path.isfile(query.root):
        with open(query.root, "rb") as f:
            head = f.read(65536)
        if is_binary(head):
            return f"{where} is a binary file; grep does not search binary files"
    found = await run_query(ctx, query)
    return render(found, query, pattern, where, head_limit, offset)
