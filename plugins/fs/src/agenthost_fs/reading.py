"""read_file: numbered line windows read lazily, images as image content,
PDFs as text, other binary files refused with their size and kind."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import IO, Annotated, Any

from agenthost import (
    ImageBlock,
    InvalidArguments,
    Param,
    TextBlock,
    ToolContext,
    ToolFailure,
    Unavailable,
    tool,
)
from agenthost_fs.paths import human_size, must_exist, sniff
from agenthost_fs.settings import settings
from agenthost_fs.textwindow import HEAD_BYTES, detect_encoding, text_window

IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


@tool(level="read", path_args=("path",))
def read_file(
    path: str,
    start_line: Annotated[int, Param(ge=1)] | None = None,
    end_line: Annotated[int, Param(ge=1)] | None = None,
    pages: str | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> Any:
    """Read a file: text as numbered lines (`cat -n` style), images as image content, PDFs as text.

    Reads only the lines it returns, so a window of a multi-GB file is cheap. Without start_line
    and end_line it returns the first 2000 lines and says how to read on. Long lines are cut.
    Other binary files give an error naming their size and kind.

    :param path: the file, relative to the workspace (or absolute inside it)
    :param start_line: first line to return, 1-based (default 1)
    :param end_line: last line to return, inclusive (default start_line + 1999)
    :param pages: PDF pages to return, e.g. "3", "1-5" or "1,4-6" (default: all, up to 50)
    """
    real = ctx.resolve_path(path)
    must_exist(ctx, path, real, "file")
    if real.is_dir():
        raise InvalidArguments(f"{path!r} is a folder, not a file; list it with list_dir")
    if start_line is not None and end_line is not None and end_line < start_line:
        raise InvalidArguments(f"end_line ({end_line}) is before start_line ({start_line})")
    opts = settings(ctx)
    size = real.stat().st_size
    with open(real, "rb") as f:
        head = f.read(HEAD_BYTES)
        kind = sniff(head)
        if kind and kind[0] in IMAGE_TYPES:
            return _image(ctx, path, f, head, kind, size)
        if kind and kind[0] == "application/pdf":
            return _pdf(ctx, path, real, pages, opts.max_lines)
        if pages is not None:
            raise InvalidArguments("pages applies to PDF files only; use start_line and end_line")
        encoding = detect_encoding(head)
        if encoding is None:
            description = kind[1] if kind else "binary data"
            raise ToolFailure(
                f"{path!r} is a binary file ({description}, {human_size(size)}); read_file shows text, "
                "images (png, jpeg, gif, webp) and PDFs only; use file_stat for its details"
            )
        f.seek(0)
        first = start_line or 1
        last = end_line if end_line is not None else first + opts.max_lines - 1
        capped = last - first + 1 > opts.max_lines
        if capped:
            last = first + opts.max_lines - 1
        budget = max(1000, ctx.config.host.max_output_chars - 2000)
        return text_window(path, f, encoding, first, last, capped, opts.max_line_chars, budget)


def _image(
    ctx: ToolContext, path: str, f: IO[bytes], head: bytes, kind: tuple[str, str], size: int
) -> list[Any]:
    limit = ctx.config.host.max_image_bytes
    if size > limit:
        raise ToolFailure(
            f"{path!r} is a {kind[1]} of {human_size(size)}, over max_image_bytes ({human_size(limit)}); "
            "make a smaller copy first (e.g. with the shell), or raise [host] max_image_bytes"
        )
    data = head + f.read() if len(head) == HEAD_BYTES else head
    return [
        TextBlock(f"{path}: {kind[1]}, {human_size(size)}"),
        ImageBlock(data=base64.b64encode(data).decode("ascii"), mime_type=kind[0]),
    ]


_PAGES = re.compile(r"^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$")
MAX_PDF_PAGES = 50


def parse_pages(spec: str, count: int) -> list[int]:
    """``"1,4-6"`` -> ``[0, 3, 4, 5]`` (0-based), checked against the page count."""
    if not _PAGES.match(spec):
        raise InvalidArguments(f"pages {spec!r} is not like '3', '1-5' or '1,4-6'")
    chosen: list[int] = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        a, b = int(low), int(high or low)
        if a < 1 or b < a:
            raise InvalidArguments(f"pages {part.strip()!r}: pages start at 1 and ranges go upward")
        if a > count:
            raise InvalidArguments(f"pages {part.strip()!r}: the PDF has {count} pages")
        chosen.extend(range(a - 1, min(b, count)))
    return chosen


def _pdf(ctx: ToolContext, path: str, real: Path, pages: str | None, max_lines: int) -> str:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:  # pragma: no cover - pypdf is a dependency
        raise Unavailable("reading PDFs needs pypdf: pip install pypdf") from None
    try:
        reader = PdfReader(str(real))
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception:
                raise ToolFailure(
                    f"{path!r} is an encrypted PDF; it cannot be read without its password"
                ) from None
        count = len(reader.pages)
    except PdfReadError as e:
        raise ToolFailure(
            f"{path!r} looks like a PDF but cannot be parsed ({e}); it may be damaged"
        ) from None
    if count == 0:
        return f"{path}: PDF with no pages"
    chosen = parse_pages(pages, count) if pages else list(range(count))
    more = ""
    if len(chosen) > MAX_PDF_PAGES:
        rest = chosen[MAX_PDF_PAGES]
        chosen = chosen[:MAX_PDF_PAGES]
        more = f"; more pages follow: ask for pages='{rest + 1}-{min(count, rest + MAX_PDF_PAGES)}'"
    budget = max(1000, ctx.config.host.max_output_chars - 2000)
    parts: list[str] = []
    used = 0
    for index in chosen:
        try:
            text = reader.pages[index].extract_text() or ""
        except Exception as e:  # one bad page should not lose the rest
            text = f"[text of this page could not be extracted: {e}]"
        block = f"--- page {index + 1} of {count} ---\n{text.strip() or '[no text on this page; it may be a scan]'}"
        if used + len(block) > budget and parts:
            more = f"; output size limit reached: ask for pages='{index + 1}-{count}'"
            break
        parts.append(block)
        used += len(block)
    return "\n\n".join([*parts, f"[PDF {path}: {count} pages{more}]"])
