"""Turning a fetched body into what a model reads: charset detection, readable
HTML (trafilatura, with readability-lxml as the fallback), PDF text, JSON."""

from __future__ import annotations

import codecs
import io
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

Mode = Literal["text", "markdown", "raw"]

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)
_XML_ENCODING = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)""", re.I)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_BLANK_LINES = re.compile(r"\n{3,}")
# Below this many characters an extraction probably missed the article.
_SHORT = 200

TEXT_TYPES = ("text/", "application/xhtml+xml", "application/xml", "application/javascript")
JSON_TYPES = ("application/json", "application/ld+json", "application/problem+json")


@dataclass
class Page:
    """What a body became."""

    text: str
    title: str | None = None
    kind: str = "text"  # html, json, text, pdf
    extractor: str = ""  # trafilatura, readability, fallback, ...


def sniff_type(content_type: str, body: bytes, url: str) -> str:
    """The content type, guessed from the body when the server gave none (or a vague one)."""
    if content_type and content_type not in ("application/octet-stream", "binary/octet-stream"):
        return content_type
    head = body[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "application/pdf"
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head or b"<head" in head:
        return "text/html"
    if head.startswith((b"\x89png", b"\xff\xd8\xff", b"gif8", b"riff")):
        from mimetypes import guess_type

        return guess_type(url)[0] or content_type or "application/octet-stream"
    if head[:1] in (b"{", b"["):
        return "application/json"
    return content_type or "application/octet-stream"


def is_text_type(content_type: str) -> bool:
    return (
        content_type.startswith(TEXT_TYPES)
        or content_type in JSON_TYPES
        or content_type.endswith(("+json", "+xml"))
    )


def decode(body: bytes, declared: str | None, content_type: str = "") -> str:
    """Text from bytes: a BOM, then the declared charset, then the document's
    own (HTML meta, XML declaration), then UTF-8, then charset detection."""
    for bom, name in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if body.startswith(bom):
            return body.decode(name, errors="replace")
    candidates: list[str] = []
    if declared:
        candidates.append(declared)
    head = body[:4096]
    for pattern in (_META_CHARSET, _XML_ENCODING):
        if match := pattern.search(head):
            candidates.append(match.group(1).decode("ascii", "ignore"))
    for name in candidates:
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            continue
        # pages that claim Latin-1 are nearly always Windows-1252, as browsers assume
        if codec in ("latin-1", "iso8859-1", "ascii"):
            codec = "cp1252"
        try:
            return body.decode(codec)
        except UnicodeDecodeError:
            continue
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(body[:200_000]).best()
    if best is not None and best.encoding:
        return body.decode(best.encoding, errors="replace")
    return body.decode("utf-8", errors="replace")


def html_title(html: str) -> str | None:
    match = _TITLE.search(html, 0, 200_000)
    if not match:
        return None
    import html as html_lib

    title = " ".join(html_lib.unescape(match.group(1)).split())
    return title or None


def extract_html(html: str, mode: Mode, url: str | None = None) -> Page:
    """Readable text or markdown of an HTML page: trafilatura first, then
    readability-lxml, then the whole body converted."""
    title = html_title(html)
    best = _trafilatura(html, mode, url)
    extractor = "trafilatura"
    if best is None or len(best) < _SHORT:
        fallback = _readability(html, mode)
        if fallback is not None and len(fallback) > len(best or ""):
            best, extractor = fallback, "readability"
    if not best or not best.strip():
        best, extractor = _whole_body(html, mode), "whole page"
    return Page(text=_tidy(best), title=title, kind="html", extractor=extractor)


def _trafilatura(html: str, mode: Mode, url: str | None) -> str | None:
    import trafilatura

    try:
        return trafilatura.extract(
            html,
            url=url,
            output_format="markdown" if mode == "markdown" else "txt",
            include_links=mode == "markdown",
            include_images=False,
            include_tables=True,
            include_comments=False,
            include_formatting=mode == "markdown",
            deduplicate=False,
            with_metadata=False,
        )
    except Exception:  # a parser fault on odd markup: fall back
        return None


def _readability(html: str, mode: Mode) -> str | None:
    try:
        from readability import Document

        summary = Document(html).summary(html_partial=True)
    except Exception:
        return None
    return _convert(summary, mode)


def _whole_body(html: str, mode: Mode) -> str:
    try:
        import lxml.html

        tree = lxml.html.fromstring(html)
        for bad in tree.xpath("//script|//style|//noscript|//template|//svg"):
            bad.drop_tree()
        html = lxml.html.tostring(tree, encoding="unicode")
    except Exception:
        pass
    return _convert(html, mode) or ""


def _convert(html: str, mode: Mode) -> str | None:
    if mode == "markdown":
        from markdownify import markdownify

        return markdownify(html, heading_style="ATX", strip=["script", "style"])
    import lxml.html

    try:
        tree = lxml.html.fromstring(html)
    except Exception:
        return None
    for block in tree.iter("p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "pre"):
        block.tail = "\n" + (block.tail or "")
    return tree.text_content()


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines))


def render_json(text: str) -> str:
    """JSON pretty-printed when it parses (so paging cuts at sensible places), else as is."""
    try:
        data: Any = json.loads(text)
    except ValueError:
        return text
    return json.dumps(data, ensure_ascii=False, indent=2)


def pdf_text(body: bytes) -> Page:
    """The text of each page of a PDF, with page markers."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(body))
    parts: list[str] = []
    for number, page in enumerate(reader.pages, 1):
        try:
            text = page.extract_text() or ""
        except Exception as e:  # one broken page should not lose the rest
            text = f"[page {number} could not be read: {e}]"
        parts.append(f"--- page {number} ---\n{text.strip()}")
    title = None
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:
        pass
    return Page(text="\n\n".join(parts), title=str(title) if title else None, kind="pdf", extractor="pypdf")
