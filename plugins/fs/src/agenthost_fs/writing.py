"""write_file and edit: atomic writes (temp file, fsync, rename in the same
folder, mode kept), edits applied all or none. The file helpers are imported
inside the tools: listing tools must not pay for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from agenthost import InvalidArguments, NotFound, Param, ToolFailure, tool

if TYPE_CHECKING:
    from agenthost import ToolContext

SNIPPET_CONTEXT = 4
MAX_SIMILAR_WINDOWS = 50_000


def _os_failure(path: str, e: OSError) -> ToolFailure:
    return ToolFailure(f"cannot write {path!r}: {e.strerror or e}; check the path and its permissions")


@tool(level="write", path_args=("path",), destructive=True)
def write_file(path: str, content: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Write a file with the given content, replacing it if it exists.

    Creates missing parent folders. The write is atomic: the file holds the old content or the
    new, never a mix. To change part of a file, prefer edit.

    :param path: the file, relative to the workspace (or absolute inside it)
    :param content: the full new content (UTF-8)
    """
    from agenthost.files import atomic_write
    from agenthost_fs.paths import human_size

    real = ctx.resolve_path(path, write=True)
    if real.is_dir():
        raise InvalidArguments(f"{path!r} is a folder; give a file path")
    data = content.encode("utf-8", "surrogatepass")
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        existed = atomic_write(real, data)
    except OSError as e:
        raise _os_failure(path, e) from None
    lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
    what = "replaced" if existed else "created"
    return f"Wrote {lines} lines ({human_size(len(data))}) to {ctx.relative(real)} ({what})"


@dataclass
class EditItem:
    """One replacement inside an edit call."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}  # unknown keys are errors
    old_str: Annotated[str, Param(description="exact text to find (must be unique unless replace_all)")]
    new_str: Annotated[str, Param(description="text to put in its place")]
    replace_all: Annotated[bool, Param(description="replace every occurrence")] = False


@tool(level="write", path_args=("path",), destructive=True)
def edit(
    path: str,
    old_str: str | None = None,
    new_str: str | None = None,
    replace_all: bool = False,
    edits: list[EditItem] | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Replace exact text in a file: old_str becomes new_str.

    Without replace_all, old_str must occur exactly once (the error lists the line numbers of
    every match; add surrounding lines to make it unique). `edits` applies several replacements
    in order, all or none. The write is atomic. Returns the changed lines with their numbers.

    :param path: the file to edit
    :param old_str: exact text to replace, whitespace included
    :param new_str: the replacement text
    :param replace_all: replace every occurrence of old_str
    :param edits: several {old_str, new_str, replace_all} replacements applied in order, all or none
    """
    from agenthost.files import atomic_write
    from agenthost_fs.paths import must_exist
    from agenthost_fs.textwindow import HEAD_BYTES, detect_encoding

    ops: list[tuple[str, str, bool]] = []
    if old_str is not None or new_str is not None:
        if old_str is None or new_str is None:
            raise InvalidArguments("give both old_str and new_str (or use edits)")
        ops.append((old_str, new_str, replace_all))
    for item in edits or ():
        ops.append((item.old_str, item.new_str, item.replace_all))
    if not ops:
        raise InvalidArguments("nothing to do: give old_str and new_str, or edits")
    real = ctx.resolve_path(path, write=True)
    must_exist(ctx, path, real, "file")
    if real.is_dir():
        raise InvalidArguments(f"{path!r} is a folder; edit works on files")
    try:
        raw = real.read_bytes()
    except OSError as e:
        raise ToolFailure(f"cannot read {path!r}: {e.strerror}") from None
    encoding = detect_encoding(raw[:HEAD_BYTES]) if raw else "utf-8"
    if encoding is None:
        raise ToolFailure(f"{path!r} is a binary file; edit changes text files only")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as e:
        raise ToolFailure(
            f"{path!r} has bytes that are not valid {encoding} (at byte {e.start}); editing would "
            "change them, so it was not edited; rewrite it with write_file if that is intended"
        ) from None
    crlf = "\r\n" in text[: text.find("\n") + 1] if "\n" in text else False
    changed_lines: list[tuple[int, int]] = []
    many = len(ops) > 1
    for index, (old, new, every) in enumerate(ops):
        label = f"edit {index + 1}: " if many else ""
        if old == "":
            raise InvalidArguments(f"{label}old_str is empty; to write a whole file use write_file")
        if old == new:
            raise InvalidArguments(f"{label}old_str and new_str are the same; nothing would change")
        pos = text.find(old)
        if pos < 0 and crlf and "\n" in old:
            old_crlf = old.replace("\r\n", "\n").replace("\n", "\r\n")
            pos = text.find(old_crlf)
            if pos >= 0:
                old, new = old_crlf, new.replace("\r\n", "\n").replace("\n", "\r\n")
        if pos < 0:
            note = " (earlier edits in this call already applied)" if index else ""
            raise NotFound(
                f"{label}old_str was not found in {path}{note}; nothing was changed. "
                + nearest_lines(text, old)
            )
        # a second find is cheaper than counting every match of a unique string
        if not every and text.find(old, pos + len(old)) >= 0:
            count = text.count(old)
            lines = match_lines(text, old)
            shown = ", ".join(map(str, lines[:30])) + (" ..." if len(lines) > 30 else "")
            raise InvalidArguments(
                f"{label}old_str occurs {count} times in {path} (lines {shown}); nothing was changed. "
                "Include more surrounding lines to make it unique, or set replace_all=true"
            )
        start_line = text.count("\n", 0, pos) + 1
        text = text.replace(old, new) if every else text[:pos] + new + text[pos + len(old) :]
        changed_lines.append((start_line, start_line + new.count("\n")))
    try:
        atomic_write(real, text.encode(encoding))
    except OSError as e:
        raise _os_failure(path, e) from None
    total = sum(1 for _ in ops)
    header = f"Edited {ctx.relative(real)}" + (f" ({total} edits, all applied)" if many else "")
    return header + "\n" + snippets(text, changed_lines)


def match_lines(text: str, needle: str) -> list[int]:
    lines: list[int] = []
    pos = text.find(needle)
    line = 1
    last = 0
    while pos != -1:
        line += text.count("\n", last, pos)
        last = pos
        lines.append(line)
        pos = text.find(needle, pos + 1)
    return lines


def snippets(text: str, changes: list[tuple[int, int]], limit: int = 3) -> str:
    """Numbered lines around each change (the first few changes); only the
    lines shown are cut out of the text, so a large file costs no more."""
    out: list[str] = []
    for first, last in changes[:limit]:
        a = max(1, first - SNIPPET_CONTEXT)
        b = min(last + SNIPPET_CONTEXT, a + 60)
        start = _line_start(text, a)
        if start < 0:
            continue
        rows = []
        pos = start
        for n in range(a, b + 1):
            end = text.find("\n", pos)
            rows.append(f"{n:>6}\t{(text[pos:] if end < 0 else text[pos:end]).rstrip(chr(13))}")
            if end < 0:
                break
            pos = end + 1
            if pos >= len(text):
                break
        if out:
            out.append("...")
        out.extend(rows)
    if len(changes) > limit:
        out.append(f"[and {len(changes) - limit} more changes]")
    return "\n".join(out)


def _line_start(text: str, line: int) -> int:
    """Where line ``line`` starts: whole blocks are skipped by counting their
    newlines in C, so a change near the end of a large file costs little."""
    target, pos, size = line - 1, 0, len(text)
    while target and pos < size:
        end = min(pos + _BLOCK, size)
        newlines = text.count("\n", pos, end)
        if newlines >= target:
            break
        target -= newlines
        pos = end
    for _ in range(target):
        pos = text.find("\n", pos)
        if pos < 0:
            return -1
        pos += 1
    return pos


_BLOCK = 1 << 16


def nearest_lines(text: str, old: str) -> str:
    """The lines of ``text`` most like ``old``, to show the model what is really there."""
    lines = text.split("\n")
    want = old.strip("\n").split("\n")
    n = max(1, len(want))
    target = "\n".join(line.strip() for line in want)
    if not target.strip():
        return "old_str is only whitespace; include some visible text"
    import difflib

    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(target)
    best_ratio, best_at = 0.0, -1
    windows = max(1, len(lines) - n + 1)
    for i in range(min(windows, MAX_SIMILAR_WINDOWS)):
        candidate = "\n".join(line.strip() for line in lines[i : i + n])
        if candidate == target:
            best_ratio, best_at = 1.0, i
            break
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() <= best_ratio or matcher.quick_ratio() <= best_ratio:
            continue
        ratio = matcher.ratio()
        if ratio > best_ratio:
            best_ratio, best_at = ratio, i
    if best_at < 0 or best_ratio < 0.4:
        return "No similar lines were found; read the file again to see its current text."
    shown = lines[best_at : best_at + min(n, 30)]
    body = "\n".join(f"{best_at + k + 1:>6}\t{line.rstrip(chr(13))}" for k, line in enumerate(shown))
    if best_ratio == 1.0:
        why = "These lines match except for whitespace or indentation; copy them exactly"
    else:
        why = f"The most similar lines ({best_ratio:.0%} alike) are"
    return f"{why}:\n{body}"
