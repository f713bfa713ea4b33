"""grep: ripgrep when `rg` is on PATH, a pure-Python engine otherwise.

Both engines see the same files (walk.py mirrors ripgrep's rules: .gitignore
files here and above, `--glob` overrides that win over .gitignore, types by
file name, hidden files searched, `.git` and symlinks skipped, files holding
a NUL byte skipped as binary) and give the same results: files and counts
sorted by path, content lines in ripgrep's `--sort path` order.
"""

from __future__ import annotations

import asyncio
import base64
import codecs
import json
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Literal

import pathspec
from pydantic import Field

from agenthost import InvalidArguments, ToolContext, Unavailable, tool
from agenthost_fs.paths import must_exist
from agenthost_fs.settings import settings
from agenthost_fs.walk import expand_braces, walk_files

MAX_LINE_CHARS = 500
RG_INSTALL = "apt-get install ripgrep"

# File types by name glob; given to rg through --type-add so both engines
# use the same table.
TYPES: dict[str, tuple[str, ...]] = {
    "py": ("*.py", "*.pyi"),
    "js": ("*.js", "*.jsx", "*.mjs", "*.cjs"),
    "ts": ("*.ts", "*.tsx", "*.mts", "*.cts"),
    "rust": ("*.rs",),
    "go": ("*.go",),
    "java": ("*.java",),
    "kotlin": ("*.kt", "*.kts"),
    "c": ("*.c", "*.h"),
    "cpp": ("*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"),
    "cs": ("*.cs",),
    "ruby": ("*.rb", "Gemfile", "Rakefile"),
    "php": ("*.php",),
    "swift": ("*.swift",),
    "lua": ("*.lua",),
    "sh": ("*.sh", "*.bash", "*.zsh", ".bashrc", ".zshrc"),
    "md": ("*.md", "*.markdown", "*.mdx"),
    "rst": ("*.rst",),
    "txt": ("*.txt",),
    "json": ("*.json", "*.jsonl"),
    "yaml": ("*.yaml", "*.yml"),
    "toml": ("*.toml",),
    "xml": ("*.xml", "*.xsd", "*.xsl"),
    "html": ("*.html", "*.htm", "*.xhtml"),
    "css": ("*.css", "*.scss", "*.sass", "*.less"),
    "sql": ("*.sql",),
    "vue": ("*.vue",),
    "svelte": ("*.svelte",),
    "make": ("Makefile", "makefile", "GNUmakefile", "*.mk"),
    "docker": ("Dockerfile", "*.dockerfile"),
    "csv": ("*.csv", "*.tsv"),
}
ALIASES = {
    "python": "py",
    "javascript": "js",
    "typescript": "ts",
    "rs": "rust",
    "rb": "ruby",
    "markdown": "md",
    "yml": "yaml",
    "bash": "sh",
    "shell": "sh",
    "c++": "cpp",
    "csharp": "cs",
    "text": "txt",
    "kt": "kotlin",
    "makefile": "make",
    "dockerfile": "docker",
}


@dataclass
class Query:
    pattern: str
    workspace: str
    root: str  # absolute path searched
    root_arg: str  # the same, as rg is given it (relative to the workspace when inside)
    globs: list[str] = field(default_factory=list)  # rg override globs ('!' excludes)
    type_globs: tuple[str, ...] = ()
    mode: Literal["files_with_matches", "content", "count"] = "files_with_matches"
    ignore_case: bool = False
    before: int = 0
    after: int = 0
    multiline: bool = False
    need: int | None = None  # content lines wanted (offset + head_limit + 1)

    def compile(self) -> re.Pattern[str]:
        flags = re.MULTILINE | (re.IGNORECASE if self.ignore_case else 0)
        if self.multiline:
            flags |= re.DOTALL
        return re.compile(self.pattern, flags)


@dataclass
class Found:
    files: list[str] = field(default_factory=list)
    counts: list[tuple[str, int]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    engine: str = ""


def path_key(path: str) -> tuple[bytes, ...]:
    return tuple(os.fsencode(part) for part in path.split("/"))


class ContentLines:
    """Content-mode output lines (`path:N:text` matches, `path-N-text` context,
    `--` between groups), the same for both engines."""

    def __init__(self, need: int | None, separators: bool) -> None:
        self.need = need
        self.separators = separators
        self.lines: list[str] = []
        self.prev: tuple[str, int] | None = None

    def add(self, path: str, number: int, text: str, is_match: bool) -> bool:
        """Add a line; True when enough lines are held."""
        if self.separators and self.prev is not None and (self.prev[0] != path or number > self.prev[1] + 1):
            self.lines.append("--")
        sep = ":" if is_match else "-"
        if len(text) > MAX_LINE_CHARS:
            text = f"{text[:MAX_LINE_CHARS]}... [{len(text) - MAX_LINE_CHARS} more characters]"
        self.lines.append(f"{path}{sep}{number}{sep}{text}")
        self.prev = (path, number)
        return self.need is not None and len(self.lines) >= self.need


# -- the pure-Python engine ----------------------------------------------------------


def _override_spec(globs: list[str]) -> pathspec.GitIgnoreSpec | None:
    if not globs:
        return None
    # rg's --glob is gitignore syntax inverted: a plain glob includes, '!glob' excludes.
    lines = [g[1:] if g.startswith("!") else "!" + g for g in globs]
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _file_filter(query: Query) -> Callable[[str, str, bool], bool | None]:
    """ripgrep's order: an override glob decides first (True keeps even an
    ignored file); otherwise .gitignore (in the walker), then the type."""
    spec = _override_spec(query.globs)
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


def _is_binary(data: bytes) -> bool:
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
        m = rx.search(text, pos)
        if m is None or m.start() > end or (m.start() == end and text.endswith("\n")):
            break
        if "\n" in m.group(0):
            return _per_line(line_rx, text)
        line += text.count("\n", last, m.start())
        last = m.start()
        numbers.append(line)
        newline = text.find("\n", m.start())
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
        if _is_binary(data):
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


# -- the ripgrep engine ----------------------------------------------------------------


class RegexSyntax(Exception):
    """rg could not parse the pattern (the Python engine may still)."""


def rg_args(query: Query) -> list[str]:
    args = [
        "--no-config",
        "--hidden",
        "--no-require-git",
        "--no-ignore-dot",
        "--no-ignore-exclude",
        "--no-ignore-global",
        "--no-messages",
        "--glob",
        "!.git",
    ]
    for g in query.globs:
        args += ["--glob", g]
    if query.type_globs:
        for g in query.type_globs:
            args += ["--type-add", f"agenthost:{g}"]
        args += ["--type", "agenthost"]
    if query.ignore_case:
        args.append("--ignore-case")
    else:
        args.append("--case-sensitive")
    if query.multiline:
        args += ["--multiline", "--multiline-dotall"]
    if query.mode == "files_with_matches":
        args += ["--files-with-matches", "--null"]
    elif query.mode == "count":
        args += ["--count", "--with-filename", "--null"]
    else:
        args += ["--json", "--sort", "path"]
        if query.before:
            args += ["--before-context", str(query.before)]
        if query.after:
            args += ["--after-context", str(query.after)]
    return [*args, "--regexp", query.pattern, "--", query.root_arg]


def _strip_dot(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _json_text(node: dict[str, str]) -> str:
    if "text" in node:
        return node["text"]
    return base64.b64decode(node.get("bytes", "")).decode("utf-8", "replace")


def _json_path(node: dict[str, str]) -> str:
    if "text" in node:
        return node["text"]
    return os.fsdecode(base64.b64decode(node.get("bytes", "")))


async def rg_search(query: Query, rg: str) -> Found:
    proc = await asyncio.create_subprocess_exec(
        rg,
        *rg_args(query),
        cwd=query.workspace,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=16 * 1024 * 1024,
    )
    found = Found(engine="rg")
    try:
        assert proc.stdout is not None and proc.stderr is not None
        if query.mode == "content":
            out = ContentLines(query.need, query.before > 0 or query.after > 0)
            full = False
            async for raw in proc.stdout:
                message = json.loads(raw)
                kind = message.get("type")
                if kind not in ("match", "context"):
                    continue
                data = message["data"]
                path = _strip_dot(_json_path(data["path"]))
                text = _json_text(data["lines"])
                number = data["line_number"]
                if text.endswith("\n"):
                    text = text[:-1]
                for offset, line in enumerate(text.split("\n")):
                    if out.add(
                        path, number + offset, line[:-1] if line.endswith("\r") else line, kind == "match"
                    ):
                        full = True
                        break
                if full:
                    break
            found.lines = out.lines
            if full:
                return found
            stderr = await proc.stderr.read()
        else:
            stdout, stderr = await proc.communicate()
            if query.mode == "files_with_matches":
                found.files = sorted(
                    (_strip_dot(os.fsdecode(p)) for p in stdout.split(b"\0") if p), key=path_key
                )
            else:
                counts = []
                for row in stdout.splitlines():
                    name, _, number = row.rpartition(b"\0")
                    if name:
                        counts.append((_strip_dot(os.fsdecode(name)), int(number)))
                found.counts = sorted(counts, key=lambda item: path_key(item[0]))
        code = await proc.wait()
        if code == 2 and not (found.files or found.counts or found.lines):
            message = stderr.decode("utf-8", "replace").strip()
            if "regex" in message.lower() or "pattern" in message.lower():
                raise RegexSyntax(message)
            raise InvalidArguments(f"ripgrep failed: {message.splitlines()[-1] if message else code}")
        return found
    finally:
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
            await proc.wait()


def find_rg() -> str | None:
    return shutil.which("rg")


# -- the tool ---------------------------------------------------------------------------


@tool(level="read", path_args=("path",))
async def grep(
    pattern: str,
    path: str | None = None,
    glob: str | None = None,
    type: str | None = None,
    output_mode: Literal["files_with_matches", "content", "count"] = "files_with_matches",
    case_insensitive: bool = False,
    context: Annotated[int, Field(ge=0, le=100)] | None = None,
    before_context: Annotated[int, Field(ge=0, le=100)] | None = None,
    after_context: Annotated[int, Field(ge=0, le=100)] | None = None,
    multiline: bool = False,
    head_limit: Annotated[int, Field(ge=0)] = 250,
    offset: Annotated[int, Field(ge=0)] = 0,
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
        if _is_binary(head):
            return f"{where} is a binary file; grep does not search binary files"
    found = await run_query(ctx, query)
    return render(found, query, pattern, where, head_limit, offset)


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
        _override_spec(globs)
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
