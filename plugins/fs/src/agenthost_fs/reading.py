"""read_file: numbered line windows read lazily, images as image content,
PDFs as text, other binary files refused with their size and kind.

The readers are imported on the first call: listing tools must not pay for them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from agenthost import InvalidArguments, Param, ToolFailure, tool
from agenthost_fs.settings import settings

if TYPE_CHECKING:
    from agenthost import ToolContext

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
    from agenthost_fs.paths import human_size, must_exist, sniff
    from agenthost_fs.textwindow import HEAD_BYTES, detect_encoding, text_window

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
            from agenthost_fs.media import read_image

            return read_image(ctx, path, f, head, kind, size)
        if kind and kind[0] == "application/pdf":
            from agenthost_fs.media import read_pdf

            return read_pdf(ctx, path, real, pages, opts.max_lines)
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
