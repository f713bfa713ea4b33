"""Text windows for read_file: encodings detected, lines numbered, and only
the bytes of the window read (a window of a multi-GB file is cheap)."""

from __future__ import annotations

import codecs
import io
import itertools
import os
from typing import IO, Any

from agenthost import InvalidArguments

HEAD_BYTES = 64 * 1024
MAX_SKIP_BYTES = 64 * 1024 * 1024  # past a cut line: how far to look for its end
CHUNK = 1 << 20


# -- text ---------------------------------------------------------------------


def detect_encoding(head: bytes) -> str | None:
    """The encoding of a file from its first bytes, or None for binary data."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\0" in head:
        return None
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=len(head) < HEAD_BYTES)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(head).best()
    if best is None or best.encoding is None:
        return None
    return str(best.encoding)


def _ascii_compatible(encoding: str) -> bool:
    try:
        return "\n".encode(encoding) == b"\n" and not encoding.startswith(("utf_16", "utf_32", "utf-16"))
    except LookupError:
        return False


class PastEnd(Exception):
    def __init__(self, lines: int) -> None:
        self.lines = lines


def text_window(
    path: str,
    f: IO[bytes],
    encoding: str,
    first: int,
    last: int,
    capped: bool,
    max_line_chars: int,
    budget: int,
) -> str:
    if _ascii_compatible(encoding):
        fast = _plain_window(path, f, encoding, first, last, capped, max_line_chars, budget)
        if fast is not None:
            return fast
        lines = _byte_lines(f, encoding, first, max_line_chars)
    else:
        lines = _wide_lines(f, encoding, first, max_line_chars)
    out: list[str] = []
    used = 0
    number = first - 1
    bad_lines: list[int] = []
    stopped_for_budget = False
    try:
        yield_first = next(lines)
    except PastEnd as e:
        number = e.lines
        yield_first = None
    except StopIteration:
        yield_first = None
    if yield_first is None:
        if number == 0:
            return f"{path} is empty (0 lines)"
        raise InvalidArguments(
            f"start_line {first} is past the end of {path}: it has {number} lines; "
            f"use a start_line from 1 to {number}"
        )
    lines = itertools.chain([yield_first], lines)
    for number, text, cut, bad in lines:
        if bad:
            bad_lines.append(number)
        if cut > 0:
            text = f"{text}... [line cut: {cut:,} more bytes]"
        elif cut < 0:
            text = f"{text}... [line cut: it runs on for over {MAX_SKIP_BYTES >> 20} MB]"
        row = f"{number:>6}\t{text}"
        if used + len(row) > budget and out:
            number -= 1
            stopped_for_budget = True
            break
        out.append(row)
        used += len(row) + 1
        if number >= last:
            break
    else:
        # the loop ran out of lines: we are at the end of the file
        notes = _notes(encoding, bad_lines)
        return "\n".join([*out, f"[end of file: {number} lines in all{notes}]"])
    more = stopped_for_budget or _has_more(lines)
    notes = _notes(encoding, bad_lines)
    shown = f"lines {first}-{number}"
    if not more:
        return "\n".join([*out, f"[{shown}; end of file: {number} lines in all{notes}]"])
    why = (
        " (output size limit reached)"
        if stopped_for_budget
        else " (at most 2000 lines per call)"
        if capped
        else ""
    )
    return "\n".join(
        [*out, f"[{shown} shown{why}; more lines follow: read on with start_line={number + 1}{notes}]"]
    )


def _plain_window(
    path: str,
    f: IO[bytes],
    encoding: str,
    first: int,
    last: int,
    capped: bool,
    max_line_chars: int,
    budget: int,
) -> str | None:
    """The window in one piece when it is plain (every line short, decodes
    cleanly, fits the budget): one read, one decode, one join. None otherwise,
    with the file back where it was, for the line-by-line path."""
    origin = f.tell()
    if skip_lines(f, first - 1) < first - 1:
        f.seek(origin)
        return None
    want = last - first + 1
    data = b""
    block = 64 * 1024  # grows: a short window reads little more than it shows
    while data.count(b"\n") < want:
        chunk = f.read(block)
        if not chunk:
            break
        data += chunk
        block = min(block * 2, CHUNK)
        if len(data) > 4 * budget + 8 * want:
            f.seek(origin)
            return None  # far more bytes than could be shown: leave it to the careful path
    parts = data.split(b"\n", want)
    if len(parts) > want:
        rest = parts.pop()
        at_end = not rest and not f.read(1)
    else:
        at_end = True
        if parts and parts[-1] == b"":
            parts.pop()  # the file ends with a newline
    if not parts or max(map(len, parts)) > max_line_chars:
        f.seek(origin)
        return None
    try:
        text = b"\n".join(parts).decode(encoding if first == 1 else _plain(encoding))
    except UnicodeDecodeError:
        f.seek(origin)
        return None
    rows = text.split("\n")
    if "\r" in text:
        rows = [r[:-1] if r.endswith("\r") else r for r in rows]
    if sum(map(len, rows)) + 8 * len(rows) > budget:
        f.seek(origin)
        return None
    number = first + len(rows) - 1
    body = "\n".join([f"{n:>6}\t{row}" for n, row in enumerate(rows, first)])
    notes = _notes(encoding, [])
    if at_end and len(rows) < want:
        return f"{body}\n[end of file: {number} lines in all{notes}]"
    if at_end:
        return f"{body}\n[lines {first}-{number}; end of file: {number} lines in all{notes}]"
    why = " (at most 2000 lines per call)" if capped else ""
    return f"{body}\n[lines {first}-{number} shown{why}; more lines follow: read on with start_line={number + 1}{notes}]"


def _plain(encoding: str) -> str:
    return "utf-8" if encoding == "utf-8-sig" else encoding


def _notes(encoding: str, bad_lines: list[int]) -> str:
    parts = []
    if encoding not in ("utf-8", "utf-8-sig"):
        parts.append(f"decoded from {encoding}")
    if bad_lines:
        shown = ", ".join(map(str, bad_lines[:10])) + (" ..." if len(bad_lines) > 10 else "")
        parts.append(f"bytes that are not valid {encoding} shown as \ufffd on lines {shown}")
    return "; " + "; ".join(parts) if parts else ""


def _has_more(lines: Any) -> bool:
    return next(lines, None) is not None


def skip_lines(f: IO[bytes], count: int) -> int:
    """Move past ``count`` lines without decoding them; returns how many were skipped."""
    skipped = 0
    while skipped < count:
        start = f.tell()
        chunk = f.read(CHUNK)
        if not chunk:
            return skipped
        found = chunk.count(b"\n")
        if skipped + found < count:
            skipped += found
            continue
        # the line we want starts inside this chunk
        pos = -1
        for _ in range(count - skipped):
            pos = chunk.index(b"\n", pos + 1)
        f.seek(start + pos + 1)
        return count
    return skipped


def _byte_lines(f: IO[bytes], encoding: str, first: int, max_chars: int) -> Any:
    """(number, text, cut, undecodable) for each line from ``first`` on.

    Reads in blocks and splits them, so a window costs about the bytes it
    shows; a line longer than the cut is skipped without being kept."""
    skipped = skip_lines(f, first - 1)
    number = skipped
    if skipped < first - 1:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                skipped += 1  # a last line without a newline
        raise PastEnd(skipped)
    limit = max_chars * 4 + 4
    plain = "utf-8" if encoding == "utf-8-sig" else encoding
    decoder_name = encoding if number == 0 else plain
    buf = b""
    block = 64 * 1024
    while True:
        chunk = f.read(block)
        block = min(block * 2, CHUNK)
        data = buf + chunk if buf else chunk
        pieces = data.split(b"\n")
        buf = pieces.pop() if chunk else b""
        if not chunk and pieces and pieces[-1] == b"":
            pieces.pop()  # the file ended with a newline
        for raw in pieces:
            number += 1
            if len(raw) <= limit:
                # the common case, inline: a short line that decodes cleanly
                try:
                    text = raw.decode(decoder_name)
                except UnicodeDecodeError:
                    pass
                else:
                    if text.endswith("\r"):
                        text = text[:-1]
                    if len(text) <= max_chars:
                        decoder_name = plain
                        yield number, text, 0, False
                        continue
            cut = 0
            if len(raw) > limit:
                cut = len(raw) - limit
                raw = raw[:limit]
            yield _line(number, raw, decoder_name, plain, cut, max_chars)
            decoder_name = plain
        if not chunk:
            return
        if len(buf) > limit:
            # a very long line: keep its head, skip the rest
            number += 1
            head = buf[:limit]
            rest = _skip_rest_after(f, len(buf) - limit)
            buf = rest[1]
            yield _line(number, head, decoder_name, plain, rest[0], max_chars)
            decoder_name = plain
            if rest[0] < 0:
                return


def _line(number: int, raw: bytes, decoder_name: str, plain: str, cut: int, max_chars: int) -> Any:
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    text, bad = _decode(raw, decoder_name, partial=cut != 0)
    if len(text) > max_chars and cut >= 0:
        cut = cut + len(text[max_chars:].encode(plain, "replace"))
        text = text[:max_chars]
    return number, text, cut, bad


def _skip_rest_after(f: IO[bytes], already: int) -> tuple[int, bytes]:
    """Skip to the end of the current line: (bytes skipped or -1, what follows its newline)."""
    skipped = already
    while skipped < MAX_SKIP_BYTES:
        chunk = f.read(CHUNK)
        if not chunk:
            return skipped, b""
        end = chunk.find(b"\n")
        if end >= 0:
            return skipped + end, chunk[end + 1 :]
        skipped += len(chunk)
    f.seek(0, os.SEEK_END)
    return -1, b""


def _decode(raw: bytes, encoding: str, partial: bool) -> tuple[str, bool]:
    try:
        return raw.decode(encoding), False
    except UnicodeDecodeError as e:
        if partial and e.start >= len(raw) - 4:
            # a character split by the cut: drop its first bytes
            return raw[: e.start].decode(encoding, "replace"), False
        return raw.decode(encoding, "replace"), True


def _wide_lines(f: IO[bytes], encoding: str, first: int, max_chars: int) -> Any:
    """Lines of a UTF-16/32 file (newlines are not single bytes there)."""
    text = io.TextIOWrapper(f, encoding=encoding, errors="replace", newline=None)  # type: ignore[arg-type]
    number = 0
    while True:
        line = text.readline(max_chars + 1)
        if not line:
            return
        number += 1
        cut = 0
        if not line.endswith("\n") and len(line) > max_chars:
            rest = 0
            while True:
                more = text.readline(CHUNK)
                if not more:
                    break
                if more.endswith("\n"):
                    rest += len(more) - 1
                    break
                rest += len(more)
            cut = rest + len(line) - max_chars
            line = line[:max_chars]
        line = line.rstrip("\n")
        if number >= first:
            yield number, line, cut, "\ufffd" in line
    if number < first - 1:
        raise PastEnd(number)


# -- images and PDFs -----------------------------------------------------------
