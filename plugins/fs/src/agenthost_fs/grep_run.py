"""What grep does on a call: the query built from the arguments, the engine
that runs it (ripgrep or the pure-Python one) and the rendered answer."""

from __future__ import annotations

import asyncio
import os
import re
import threading
from typing import Literal

from agenthost import InvalidArguments, ToolContext, Unavailable
from agenthost_fs.grep_python import override_spec, python_search
from agenthost_fs.grep_query import ALIASES, TYPES, Found, Query
from agenthost_fs.grep_rg import RG_INSTALL, RegexSyntax, find_rg, rg_search
from agenthost_fs.paths import must_exist
from agenthost_fs.settings import settings
from agenthost_fs.walk import expand_braces


def build_query(
    ctx: ToolContext,
    pattern: str,
    path: str | None,
    glob: str | None,
    type: str | None,
    output_mode: Literal["files_with_matches", "content", "count"],
    case_insensitive: bool,
    context: int | None,
    before_context: int | None,
    after_context: int | None,
    multiline: bool,
    head_limit: int,
    offset: int,
) -> Query:
    root = ctx.resolve_path(path or ".")
    must_exist(ctx, path or ".", root)
    workspace = str(ctx.workspace)
    inside = str(root) == workspace or str(root).startswith(workspace.rstrip(os.sep) + os.sep)
    root_arg = os.path.relpath(root, workspace) if inside else str(root)
    if root_arg == ".":
        root_arg = "./"
    elif root_arg.startswith("-"):
        root_arg = "./" + root_arg
    globs: list[str] = []
    state = os.path.realpath(ctx.config.state_dir)
    if state.startswith(workspace.rstrip(os.sep) + os.sep):
        # the host's own audit log and databases are not the user's files
        globs.append("!/" + os.path.relpath(state, workspace).replace(os.sep, "/") + "/")
    if glob:
        for part in glob.split():
            globs.extend(expand_braces(part))
    type_globs: tuple[str, ...] = ()
    if type:
        key = ALIASES.get(type.lower(), type.lower())
        if key not in TYPES:
            raise InvalidArguments(f"unknown type {type!r}; known: {', '.join(sorted(TYPES))} (or use glob)")
        type_globs = TYPES[key]
    before = before_context if before_context is not None else context or 0
    after = after_context if after_context is not None else context or 0
    query = Query(
        pattern=pattern,
        workspace=workspace,
        root=str(root),
        root_arg=root_arg,
        globs=globs,
        type_globs=type_globs,
        mode=output_mode,
        ignore_case=case_insensitive,
        before=before if output_mode == "content" else 0,
        after=after if output_mode == "content" else 0,
        multiline=multiline,
        need=offset + head_limit + 1 if output_mode == "content" and head_limit else None,
    )
    try:
        query.compile()
        override_spec(globs)
    except re.error as e:
        raise InvalidArguments(f"pattern {pattern!r} is not a valid regular expression: {e}") from None
    except Exception as e:
        raise InvalidArguments(f"glob {glob!r} is not valid: {e}") from None
    return query


async def run_query(ctx: ToolContext, query: Query) -> Found:
    engine = settings(ctx).grep_engine
    rg = find_rg() if engine != "python" else None
    if engine == "rg" and rg is None:
        raise Unavailable(
            f"ripgrep (rg) is not on PATH: {RG_INSTALL}, or set [plugins.fs] grep_engine = 'python'"
        )
    if rg is not None:
        try:
            return await rg_search(query, rg)
        except RegexSyntax:
            pass  # a pattern rg cannot parse (look-around...): Python's re may
    cancel = threading.Event()
    try:
        return await asyncio.to_thread(python_search, query, cancel)
    finally:
        cancel.set()


def render(found: Found, query: Query, pattern: str, where: str, head_limit: int, offset: int) -> str:
    if query.mode == "content":
        items = found.lines
        noun = "lines"
    elif query.mode == "count":
        items = [f"{p}:{n}" for p, n in found.counts]
        noun = "files"
    else:
        items = found.files
        noun = "files"
    if not items:
        return f"No matches for {pattern!r} in {where}"
    end = offset + head_limit if head_limit else len(items)
    page = items[offset:end]
    more = len(items) > end
    if not page:
        return f"No results past offset {offset} (there are {len(items)}{'+' if more else ''} {noun})"
    if query.mode == "files_with_matches":
        header = f"{len(items)} {'file matches' if len(items) == 1 else 'files match'}"
    elif query.mode == "count":
        header = f"{sum(n for _, n in found.counts)} matching lines in {len(found.counts)} files"
    else:
        header = ""
    tail = ""
    if more:
        shown = f"{noun} {offset + 1}-{end}" + (f" of {len(items)}" if query.mode != "content" else "")
        tail = f"\n[{shown} shown; more follow: use offset={end}]"
    elif offset:
        tail = f"\n[{noun} {offset + 1}-{offset + len(page)} of {len(items)}]"
    return (header + "\n" if header else "") + "\n".join(page) + tail
