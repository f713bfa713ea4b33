"""What read_file returns for images (image content) and PDFs (page text)."""

from __future__ import annotations

import base64
import re
from typing import IO, TYPE_CHECKING, Any

from agenthost import ImageBlock, InvalidArguments, TextBlock, ToolFailure, Unavailable
from agenthost_fs.paths import human_size
from agenthost_fs.textwindow import HEAD_BYTES

if TYPE_CHECKING:
    from pathlib import Path

    from agenthost import ToolContext


def read_image(
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


def read_pdf(ctx: ToolContext, path: str, real: Path, pages: str | None, max_lines: int) -> str:
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
