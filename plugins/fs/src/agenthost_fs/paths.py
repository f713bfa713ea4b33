"""Small path facts shared by the tools: the entry a path names (a final
symlink itself rather than its target), sizes for people, file kinds by
their first bytes."""

from __future__ import annotations

import os
from pathlib import Path

from agenthost import NotFound, ToolContext


def entry_path(ctx: ToolContext, path: str, *, write: bool = False) -> Path:
    """The entry ``path`` names, confined to the workspace.

    The target is always checked through ``ctx.resolve_path`` (a link that
    points outside is refused); when the last component is itself a symlink,
    the link is returned so that deleting or moving it leaves the target alone.
    """
    real = ctx.resolve_path(path, write=write)
    head, name = os.path.split(path.rstrip("/") or path)
    if name in ("", ".", ".."):
        return real
    parent = ctx.resolve_path(head or ".", write=write)
    candidate = parent / name
    if candidate.is_symlink():
        return candidate
    return real


def must_exist(ctx: ToolContext, path: str, real: Path, what: str = "file or folder") -> None:
    if not os.path.lexists(real):
        hint = _nearby(real)
        raise NotFound(f"no {what} at {path!r}{hint}; check the path with list_dir or glob")


def _nearby(real: Path) -> str:
    """Similar names in the nearest existing folder, to help the model recover."""
    import difflib

    parent = real.parent
    while not parent.is_dir() and parent != parent.parent:
        parent = parent.parent
    try:
        names = os.listdir(parent)[:5000]
    except OSError:
        return ""
    close = difflib.get_close_matches(real.name, names, n=3, cutoff=0.6)
    return f" (similar names there: {', '.join(close)})" if close else ""


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KB", "MB", "GB", "TB"):
        value /= 1024
        if value < 1024 or unit == "TB":
            return f"{value:.1f} {unit}"
    return f"{size} B"


# (magic bytes, mime type, description) — enough to name what a binary file is.
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "PNG image"),
    (b"\xff\xd8\xff", "image/jpeg", "JPEG image"),
    (b"GIF87a", "image/gif", "GIF image"),
    (b"GIF89a", "image/gif", "GIF image"),
    (b"%PDF-", "application/pdf", "PDF document"),
    (b"PK\x03\x04", "application/zip", "ZIP archive (or docx/xlsx/jar)"),
    (b"\x1f\x8b", "application/gzip", "gzip archive"),
    (b"BZh", "application/x-bzip2", "bzip2 archive"),
    (b"\xfd7zXZ\x00", "application/x-xz", "xz archive"),
    (b"(\xb5/\xfd", "application/zstd", "zstd archive"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed", "7-Zip archive"),
    (b"\x7fELF", "application/x-executable", "ELF executable"),
    (b"MZ", "application/x-msdownload", "Windows executable"),
    (b"SQLite format 3\x00", "application/vnd.sqlite3", "SQLite database"),
    (b"\x00asm", "application/wasm", "WebAssembly module"),
    (b"OggS", "audio/ogg", "Ogg media"),
    (b"ID3", "audio/mpeg", "MP3 audio"),
    (b"fLaC", "audio/flac", "FLAC audio"),
    (b"BM", "image/bmp", "BMP image"),
    (b"II*\x00", "image/tiff", "TIFF image"),
    (b"MM\x00*", "image/tiff", "TIFF image"),
    (b"\x00\x00\x01\x00", "image/x-icon", "icon"),
    (b"wOFF", "font/woff", "WOFF font"),
    (b"wOF2", "font/woff2", "WOFF2 font"),
    (b"\xca\xfe\xba\xbe", "application/java-vm", "Java class or Mach-O binary"),
    (b"\xd0\xcf\x11\xe0", "application/x-ole-storage", "MS Office (OLE) document"),
)


def sniff(head: bytes) -> tuple[str, str] | None:
    """(mime type, description) from a file's first bytes, or None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", "WebP image"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "audio/wav", "WAV audio"
    if head[4:8] == b"ftyp":
        return "video/mp4", "MP4/QuickTime media"
    for magic, mime, description in _MAGIC:
        if head.startswith(magic):
            return mime, description
    return None


def guess_mime(path: Path, head: bytes | None) -> str:
    if head:
        found = sniff(head)
        if found:
            return found[0]
    import mimetypes

    mime, _ = mimetypes.guess_type(path.name)
    if mime:
        return mime
    if head is not None and b"\0" not in head[:8192]:
        return "text/plain"
    return "application/octet-stream"
