"""A loopback web server for the web plugin's tests: article pages, odd bodies,
and fake Brave Search / SearXNG endpoints answering in each API's JSON shape."""

from __future__ import annotations

import functools
import gzip
import io
import json
import struct
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from ..loopback_http import trickle

PAGES = Path(__file__).parent / "pages"
BRAVE_KEY = "test-brave-key"


def minimal_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose text pypdf can extract, written by hand."""
    text = "BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) '" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(text)} >>\nstream\n{text}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def png_bytes() -> bytes:
    """An 8x6 red PNG, written by hand."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\0" + b"\xc8\x1e\x1e" * 8 for _ in range(6))
    header = struct.pack(">IIBBBBB", 8, 6, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@functools.cache
def gzip_bomb() -> bytes:
    return gzip.compress(b"<p>" + b"a" * (100 * 1024 * 1024), compresslevel=1)


def brave_answer(query: str, count: int) -> dict[str, Any]:
    """The shape of Brave's WebSearchApiResponse (fields a client reads, plus their neighbours)."""
    hosts = ["docs.python.org", "en.wikipedia.org", "www.example.com", "blog.example.org", "news.example.net"]
    results = []
    for i in range(min(count, 20)):
        host = hosts[i % len(hosts)]
        results.append(
            {
                "type": "search_result",
                "title": f"{query} result {i + 1}",
                "url": f"https://{host}/page/{i + 1}",
                "is_source_local": False,
                "is_source_both": False,
                "description": f"A page about <strong>{query}</strong> number {i + 1}.",
                "page_age": "2024-05-01T10:00:00",
                "profile": {"name": host, "url": f"https://{host}", "long_name": host, "img": ""},
                "language": "en",
                "family_friendly": True,
                "meta_url": {
                    "scheme": "https",
                    "netloc": host,
                    "hostname": host,
                    "favicon": "",
                    "path": "› page",
                },
                "age": "May 1, 2024",
                "extra_snippets": [f"More about {query}."],
            }
        )
    return {
        "type": "search",
        "query": {
            "original": query,
            "show_strict_warning": False,
            "is_navigational": False,
            "more_results_available": True,
        },
        "mixed": {
            "type": "mixed",
            "main": [{"type": "web", "index": i, "all": False} for i in range(len(results))],
        },
        "web": {"type": "search", "results": results, "family_friendly": True},
    }


def searxng_answer(query: str, page: int) -> dict[str, Any]:
    """The shape of SearXNG's /search?format=json (10 results a page, 2 pages)."""
    results = []
    if page <= 2:
        for i in range(10):
            n = (page - 1) * 10 + i + 1
            host = ["searx.example.org", "www.wikipedia.org", "code.example.com"][n % 3]
            results.append(
                {
                    "url": f"https://{host}/r/{n}",
                    "title": f"{query} hit {n}",
                    "content": f"Snippet {n} about {query}.",
                    "engine": "duckduckgo",
                    "parsed_url": ["https", host, f"/r/{n}", "", "", ""],
                    "template": "default.html",
                    "engines": ["duckduckgo", "bing"],
                    "positions": [n],
                    "publishedDate": None,
                    "score": 2.0 / n,
                    "category": "general",
                }
            )
    return {
        "query": query,
        "number_of_results": 20,
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [f"{query} tutorial"],
        "unresponsive_engines": [],
    }


@dataclass
class Seen:
    requests: list[dict[str, Any]] = field(default_factory=list)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: Seen

    def log_message(self, *args: object) -> None:
        pass

    def send(
        self, status: int, body: bytes | str, content_type: str = "text/html; charset=utf-8", **headers: str
    ) -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        path, query = parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}
        self.seen.requests.append({"path": path, "query": query, "headers": dict(self.headers.items())})
        route = ROUTES.get(path)
        if route is not None:
            route(self, query)
        elif path.startswith("/pages/"):
            file = PAGES / path.removeprefix("/pages/")
            if file.suffix == ".html" and file.is_file():
                self.send(200, file.read_bytes())
            else:
                self.send(404, "<h1>Not found</h1>")
        elif path.startswith("/status/"):
            self.send(int(path.rsplit("/", 1)[1]), "<html><body><p>status page</p></body></html>")
        else:
            self.send(404, "<h1>Not found</h1>")


def _endless(h: Handler, q: dict[str, str]) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", str(2 * 1024**3))
    h.end_headers()
    try:
        for _ in range(2 * 1024**3 // 65536):
            h.wfile.write(b"y" * 65536)
    except OSError:
        pass


def _slow(h: Handler, q: dict[str, str]) -> None:
    trickle(h, 100, 0.1, b"z", {"Content-Type": "text/plain"})


def _brave(h: Handler, q: dict[str, str]) -> None:
    if h.headers.get("X-Subscription-Token") != BRAVE_KEY:
        error = {
            "type": "ErrorResponse",
            "error": {
                "id": "x",
                "status": 401,
                "code": "SUBSCRIPTION_TOKEN_INVALID",
                "detail": "The provided subscription token is invalid.",
            },
        }
        h.send(401, json.dumps(error), "application/json")
        return
    count = int(q.get("count", "20"))
    if count > 20:
        error = {
            "type": "ErrorResponse",
            "error": {
                "id": "y",
                "status": 422,
                "code": "VALIDATION",
                "detail": "Unable to validate request parameter(s)",
            },
        }
        h.send(422, json.dumps(error), "application/json")
        return
    h.send(200, json.dumps(brave_answer(q.get("q", ""), count)), "application/json")


def _searxng(h: Handler, q: dict[str, str]) -> None:
    if q.get("format") != "json":
        h.send(403, "<h1>403 Forbidden</h1>")
        return
    h.send(200, json.dumps(searxng_answer(q.get("q", ""), int(q.get("pageno", "1")))), "application/json")


LONG_TEXT = "".join(f"line {i:05d} of a long plain text document\n" for i in range(4000))
CYRILLIC = (
    "<html><head><title>Тест</title></head><body><p>"
    + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20
    + "</p></body></html>"
)

ROUTES = {
    "/json": lambda h, q: h.send(
        200, '{"name":"agenthost","items":[1,2,3],"nested":{"ok":true}}', "application/json"
    ),
    "/text": lambda h, q: h.send(200, "just plain text\nsecond line", "text/plain; charset=utf-8"),
    "/long": lambda h, q: h.send(200, LONG_TEXT, "text/plain"),
    "/latin1": lambda h, q: h.send(
        200, "café crème – naïve".encode("cp1252"), "text/plain; charset=ISO-8859-1"
    ),
    "/meta-charset": lambda h, q: h.send(
        200,
        '<html><head><meta charset="windows-1251"><title>Тест</title></head><body><p>'.encode("cp1251")
        + ("Привет, мир! Это статья о реках и мостах. " * 30).encode("cp1251")
        + b"</p></body></html>",
        "text/html",
    ),
    "/undeclared": lambda h, q: h.send(200, CYRILLIC.encode("cp1251"), "text/html"),
    "/pdf": lambda h, q: h.send(
        200, minimal_pdf(["Quarterly report", "Revenue grew by 12 percent"]), "application/pdf"
    ),
    "/image.png": lambda h, q: h.send(200, png_bytes(), "image/png"),
    "/zip": lambda h, q: h.send(200, b"PK\x03\x04" + b"\0" * 100, "application/zip"),
    "/endless": _endless,
    "/bomb": lambda h, q: h.send(200, gzip_bomb(), "text/html", Content_Encoding="gzip"),
    "/slow": _slow,
    "/redirect": lambda h, q: h.send(302, "", "", Location=q.get("to", "/")),
    "/empty": lambda h, q: h.send(200, "<html><body><script>var a=1;</script></body></html>"),
    "/brave/res/v1/web/search": _brave,
    "/searxng/search": _searxng,
    "/html-only/search": lambda h, q: h.send(403, "<h1>403 Forbidden</h1>"),
}


@dataclass
class Server:
    base: str
    seen: Seen

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    seen = Seen()
    handler = type("BoundHandler", (Handler,), {"seen": seen})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_address[1]}", seen)
    finally:
        httpd.shutdown()
        httpd.server_close()


LOOPBACK_ALLOWED = {"net": {"allow": ["127.0.0.1"]}}
