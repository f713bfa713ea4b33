"""A loopback site for the browser tests, and the check that a Chromium exists."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from agenthost_browser.discovery import BrowserNotFound, find_browser
from agenthost_browser.settings import BrowserSettings


def chromium_or_skip() -> None:
    try:
        find_browser(BrowserSettings())
    except BrowserNotFound:
        pytest.skip(
            reason="no Chromium: chromium/chromium-browser/google-chrome not on PATH and no Playwright Chromium",
            allow_module_level=True,
        )


def _page(title: str, body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


PAGES: dict[str, str] = {
    "/form": _page(
        "Sign up",
        """<h1>Sign up</h1>
        <form action="/submitted" method="get">
          <label for="name">Full name</label> <input id="name" name="name">
          <label for="email">Email</label> <input id="email" name="email" type="email">
          <label><input type="checkbox" name="news" value="yes"> Newsletter</label>
          <button type="submit">Create account</button>
        </form>""",
    ),
    "/search": _page(
        "Search",
        """<form action="/submitted" method="get"><input name="q" aria-label="Search terms"></form>""",
    ),
    "/menu": _page(
        "Menu",
        """<nav class="menu"><button id="top">Account</button>
          <div class="items"><a href="/page/settings" id="settings">Settings</a></div></nav>
          <p id="status">idle</p>
          <script>document.querySelector('#top').addEventListener('mouseenter',
            () => document.querySelector('#status').textContent = 'hovered');</script>""",
        head="<style>.items{display:none}.menu:hover .items{display:block}</style>",
    ),
    "/long": _page(
        "Long",
        "".join(f"<p>Paragraph {i} of a long page, with enough words to wrap.</p>" for i in range(400))
        + '<p id="end">The end</p>',
    ),
    "/delayed": _page(
        "Delayed",
        """<div id="box">waiting</div>
        <script>setTimeout(() => { const d = document.createElement('div'); d.id = 'late';
          d.textContent = 'Arrived late'; document.body.appendChild(d); window.ready = true; }, 700);</script>""",
    ),
    "/popup": _page("Popup", '<a href="/page/popped" target="_blank">open popup</a>'),
    "/dialog": _page(
        "Dialog",
        """<button onclick="document.querySelector('#out').textContent = confirm('Sure?') ? 'yes' : 'no'">Ask</button>
        <p id="out">-</p>""",
    ),
    "/download": _page("Download", '<a href="/file.txt" download>get the file</a>'),
    "/big": _page("Big", "".join(f'<div class="row"><span>cell {i}</span></div>' for i in range(3000))),
    "/buttons": _page("Buttons", "<button>One</button><button>Two</button>"),
}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", (headers or {}).pop("Content-Type", "text/html; charset=utf-8"))
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        if path in PAGES:
            self._send(200, PAGES[path])
        elif path == "/submitted":
            rows = "".join(f"<li>{k}={v[0]}</li>" for k, v in sorted(query.items()))
            self._send(200, _page("Submitted", f"<h1>Thanks</h1><ul id='result'>{rows}</ul>"))
        elif path.startswith("/page/"):
            name = path.rsplit("/", 1)[1]
            nxt = f"/page/{name}x"
            self._send(200, _page(f"Page {name}", f"<h1>Page {name}</h1><a href='{nxt}'>next</a>"))
        elif path == "/cookie/set":
            value = query.get("v", ["none"])[0]
            self._send(200, _page("Set", "<p>set</p>"), {"Set-Cookie": f"token={value}; Path=/"})
        elif path == "/cookie/show":
            self._send(200, _page("Show", f"<p id='c'>cookie:{self.headers.get('Cookie', '')}</p>"))
        elif path == "/redirect":
            self._send(302, "", {"Location": query.get("to", ["/page/none"])[0]})
        elif path == "/file.txt":
            self._send(
                200,
                "downloaded body\n",
                {"Content-Type": "text/plain", "Content-Disposition": 'attachment; filename="report.txt"'},
            )
        else:
            self._send(404, _page("Not found", "<h1>404</h1>"))


def serve() -> Iterator[str]:
    """The base URL of a loopback HTTP server serving ``PAGES`` (a generator for fixtures)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
