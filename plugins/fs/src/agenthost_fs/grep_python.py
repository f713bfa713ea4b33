"""The pure-Python grep engine, for when `rg` is not on PATH (or cannot parse
the pattern): the same files as ripgrep (walk.py) and the same results."""

from __future__ import annotations

import codecs
import os
import re
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from agenthost_fs.grep_query import ContentLines, Found, Query, path_key
from agenthost_fs.walk import walk_files

if TYPE_CHECKING:
    import pathspec


def override_spec(globs: list[str]) -> pathspec.GitIgnoreSpec | None:
    if not globs:
        return None
    import pathspec  # deferred: listing tools must not pay for it

    # rg's --glob is gitignore syntax inverted: a plain glob includes, '!glob' excludes.
    lines = [g[1:] if g.startswith("!") else "!" + g for g in globs]
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _file_filter(query: Query) -> Callable[[str, str, bool], bool | None]:
    """ripgrep's order: an override glob decides first (True keeps even an
    ignored file); otherwise .gitignore (in the walker), then the type."""
    spec = override_spec(query.globs)
    import pathspec

    whitelists = any(not g.startswith("!") for g in query.globs)
    types = pathspec.GitIgnoreSpec.from_lines(list(query.type_globs)) if query.type_globs else None
    cut = len(query.workspace.rstrip(os.sep)) + 1

    def decide(path: str, name: str, is_dir: bool) -> bool | None:
        if spec is not None:
            rel = path[cut:] if path.startswith(query.workspace) else path
            verdict = spec.check_file(rel + "/" if is_dir else rel).include
            # GitIgnoreSpec: include=True means "ignored" for the inverted lines
            if verdict is True:
                return False
            if verdict is False:
                return True
            if whitelists and not is_dir:
                return False
        return None

    def by_type(name: str) -> bool:
        return types is None or types.check_file(name).include is True

    decide.by_type = by_type  # type: ignore[attr-defined]
    return decide


def _decode(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", "replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace")


def is_binary(data: bytes) -> bool:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    return b"\0" in data


def matched_lines(
    rx: re.Pattern[str], line_rx: re.Pattern[str], text: str, multiline: bool, blocks: list[int] | None = None
) -> list[int]:
    """1-based numbers of the lines that hold a match (rg's notion of a line:
    a final newline does not start another line). In multiline mode
    ``blocks`` receives one entry per separate match region (what rg counts)."""
    end = len(text) - 1 if text.endswith("\n") else len(text)
    if multiline:
        found: set[int] = set()
        last_block = 0
        for m in rx.finditer(text):
            if m.start() > end or (m.start() == end and text.endswith("\n") and m.start() == m.end()):
                continue
            first = text.count("\n", 0, m.start()) + 1
            last_char = max(m.start(), m.end() - 1)
            last = first + text.count("\n", m.start(), last_char)
            found.update(range(first, last + 1))
            if blocks is not None and first > last_block:
                blocks.append(first)
            last_block = max(last_block, last)
        return sorted(found)
    numbers: list[int] = []
    pos = 0
    line = 1
    last = 0
    while pos <= end:
        hit = rx.search(text, pos)
        if hit is None or hit.start() > end or (hit.start() == end and text.endswith("\n")):
            break
        if "\n" in hit.group(0):
            return _per_line(line_rx, text)
        line += text.count("\n", last, hit.start())
        last = hit.start()
        numbers.append(line)
        newline = text.find("\n", hit.start())
        if newline == -1:
            break
        pos = newline + 1
    return numbers


def _per_line(line_rx: re.Pattern[str], text: str) -> list[int]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [i for i, line in enumerate(lines, 1) if line_rx.search(line)]


def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def python_search(query: Query, cancel: threading.Event | None = None) -> Found:
    rx = query.compile()
    line_rx = re.compile(query.pattern, re.IGNORECASE if query.ignore_case else 0)
    decide = _file_filter(query)
    found = Found(engine="python")
    out = ContentLines(query.need, query.before > 0 or query.after > 0)
    cut = len(query.workspace.rstrip(os.sep)) + 1
    for path in _candidates(query, decide, cancel):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if is_binary(data):
            continue
        text = _decode(data)
        show = path[cut:] if path.startswith(query.workspace.rstrip(os.sep) + os.sep) else path
        if query.mode == "files_with_matches" and not query.multiline:
            m = rx.search(text)
            if m is None:
                continue
            if "\n" not in m.group(0) and not (m.start() == len(text) and text.endswith("\n")):
                found.files.append(show)
                continue
        blocks: list[int] = []
        numbers = matched_lines(rx, line_rx, text, query.multiline, blocks)
        if not numbers:
            continue
        if query.mode == "files_with_matches":
            found.files.append(show)
        elif query.mode == "count":
            # rg -c counts matching lines, or separate match regions with --multiline
            found.counts.append((show, len(blocks) if query.multiline else len(numbers)))
        else:
            lines = _split_lines(text)
            wanted = set(numbers)
            shown: set[int] = set()
            for n in numbers:
                shown.update(range(max(1, n - query.before), min(len(lines), n + query.after) + 1))
            for n in sorted(shown):
                if out.add(show, n, lines[n - 1], n in wanted):
                    found.lines = out.lines
                    return found
    found.lines = out.lines
    found.files.sort(key=path_key)
    found.counts.sort(key=lambda item: path_key(item[0]))
    return found


def _candidates(
    query: Query, decide: Callable[[str, str, bool], bool | None], cancel: threading.Event | None
) -> Iterator[str]:
    if os.path.isfile(query.root):
        yield query.root  # an explicit file is searched whatever the filters say, as in rg
        return
    by_type = decide.by_type  # type: ignore[attr-defined]
    for path, _ in walk_files(query.root, override=decide, file_filter=by_type, cancel=cancel):
        yield path
