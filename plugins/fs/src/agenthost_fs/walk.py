"""Walking a tree the way ripgrep does: .gitignore files honoured (the
searched folder's own and those of every folder above it), `.git` skipped,
hidden files kept, symlinks not followed, entries in name order.

Both grep engines and `glob` walk through here, so they agree on what a tree
holds.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

GITIGNORE = ".gitignore"
SKIPPED_DIRS = frozenset({".git"})


@dataclass(frozen=True, slots=True)
class IgnoreFile:
    base: str  # the folder the .gitignore lives in (its patterns are relative to it)
    spec: pathspec.GitIgnoreSpec


def load_ignore(folder: str) -> IgnoreFile | None:
    try:
        with open(os.path.join(folder, GITIGNORE), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    import pathspec  # deferred: listing tools must not pay for it

    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # a malformed line: git skips what it cannot read
        lines = [line for line in lines if _parses(line)]
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return IgnoreFile(folder, spec) if lines else None


def _parses(line: str) -> bool:
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
        return True
    except Exception:
        return False


def parent_ignores(folder: str) -> list[IgnoreFile]:
    """The .gitignore files of every folder above ``folder``, outermost first
    (ripgrep reads them too, with --no-require-git)."""
    found: list[IgnoreFile] = []
    current = os.path.dirname(folder)
    previous = folder
    while current != previous:
        rules = load_ignore(current)
        if rules is not None:
            found.append(rules)
        previous, current = current, os.path.dirname(current)
    found.reverse()
    return found


def is_ignored(rules: list[IgnoreFile], path: str, is_dir: bool) -> bool:
    """Whether ``path`` (absolute) is ignored; the deepest file that decides wins."""
    for rule in reversed(rules):
        if not path.startswith(rule.base):
            continue
        rel = path[len(rule.base) :].lstrip(os.sep)
        if not rel:
            continue
        if is_dir:
            rel += "/"
        decision = rule.spec.check_file(rel).include
        if decision is not None:
            return decision
    return False


def _name_key(entry: os.DirEntry[str]) -> bytes:
    return os.fsencode(entry.name)


Override = Callable[[str, str, bool], "bool | None"]


def walk_files(
    root: str,
    *,
    gitignore: bool = True,
    max_depth: int | None = None,
    include_dirs: bool = False,
    cancel: threading.Event | None = None,
    override: Override | None = None,
    file_filter: Callable[[str], bool] | None = None,
) -> Iterator[tuple[str, bool]]:
    """Yield ``(absolute path, is_dir)`` depth first in name order.

    ``override(path, name, is_dir)`` decides first, as ripgrep's ``--glob``
    does: True keeps an entry whatever .gitignore says, False drops it, None
    leaves it to .gitignore and then ``file_filter(name)`` (files only).
    """
    rules = parent_ignores(root) if gitignore else []
    walker = _Walker(gitignore, max_depth, include_dirs, cancel, override, file_filter)
    yield from walker.walk(root, rules, 1)


@dataclass
class _Walker:
    gitignore: bool
    max_depth: int | None
    include_dirs: bool
    cancel: threading.Event | None
    override: Override | None
    file_filter: Callable[[str], bool] | None

    def walk(self, folder: str, rules: list[IgnoreFile], depth: int) -> Iterator[tuple[str, bool]]:
        if self.cancel is not None and self.cancel.is_set():
            return
        if self.gitignore:
            own = load_ignore(folder)
            if own is not None:
                rules = [*rules, own]
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=_name_key)
        except OSError:
            return
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            path = entry.path
            if is_dir and entry.name in SKIPPED_DIRS:
                continue
            verdict = self.override(path, entry.name, is_dir) if self.override is not None else None
            if verdict is False:
                continue
            if verdict is None:
                if self.gitignore and rules and is_ignored(rules, path, is_dir):
                    continue
                if not is_dir and self.file_filter is not None and not self.file_filter(entry.name):
                    continue
            if is_dir:
                if self.include_dirs:
                    yield path, True
                if self.max_depth is None or depth < self.max_depth:
                    yield from self.walk(path, rules, depth + 1)
            elif entry.is_file(follow_symlinks=False):
                yield path, False


# -- glob patterns -------------------------------------------------------------


def expand_braces(pattern: str) -> list[str]:
    """``*.{ts,tsx}`` -> ``['*.ts', '*.tsx']`` (nested braces too)."""
    depth = 0
    start = -1
    for i, ch in enumerate(pattern):
        if ch == "\\":
            continue
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _split_top(pattern[start + 1 : i])
                if len(options) < 2:
                    return [pattern]
                head, tail = pattern[:start], pattern[i + 1 :]
                out: list[str] = []
                for option in options:
                    out.extend(expand_braces(head + option + tail))
                return out
    return [pattern]


def _split_top(body: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob (``**`` crosses folders, ``*`` and ``?`` do not) as a regex
    over '/'-separated relative paths; braces are expanded first."""
    alternatives = [_glob_to_regex(p) for p in expand_braces(pattern)]
    return re.compile("(?:" + "|".join(alternatives) + r")\Z", re.DOTALL)


def _glob_to_regex(pattern: str) -> str:
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : end]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def literal_prefix(pattern: str) -> tuple[str, str]:
    """Split ``src/lib/**/*.py`` into the plain folder ``src/lib`` and the rest."""
    parts = pattern.split("/")
    fixed: list[str] = []
    for part in parts[:-1]:
        if any(c in part for c in "*?[{\\"):
            break
        fixed.append(part)
    rest = "/".join(parts[len(fixed) :])
    return "/".join(fixed), rest


def glob_depth(pattern: str) -> int | None:
    """How deep a glob can reach (None when ``**`` makes it unbounded)."""
    if "**" in pattern:
        return None
    return max(p.count("/") for p in expand_braces(pattern)) + 1
