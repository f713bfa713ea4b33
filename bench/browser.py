"""Browser benchmarks, each figure beside its baseline measured in the same run.

    python bench/browser.py [--loops 30] [--elements 10000]

1. A navigate -> snapshot -> click -> type loop through the tools (a Host
   session, stealth on) against the same loop written directly in Playwright
   (stealth on too), same Chromium, same pages from a loopback server.
   Goal: ratio <= 1.2x.
2. browser_snapshot of a page with --elements elements: time against
   Playwright's own ``aria_snapshot(mode="ai")`` of the same page, and the
   size before and after the cap (max_snapshot_chars).

Each loop figure is the median of --loops iterations after a warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# bench/mcp.py would shadow the `mcp` package when this folder is sys.path[0]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

FORM = (
    "<!doctype html><title>Form</title><h1>Order</h1>"
    "<label for=q>Quantity</label><input id=q>"
    "<button onclick=\"document.querySelector('#out').textContent='clicked'\">Add</button>"
    "<p id=out>-</p>" + "".join(f"<p>filler paragraph {i}</p>" for i in range(50))
)


def big_page(elements: int) -> str:
    rows = "".join(
        f"<li><a href='/item/{i}'>Item {i}</a> <button>Buy {i}</button></li>" for i in range(elements // 3)
    )
    return f"<!doctype html><title>Big</title><h1>Catalogue</h1><ul>{rows}</ul>"


def serve(pages: dict[str, str]) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            body = pages.get(self.path.split("?")[0], "<title>404</title>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def ref(snapshot: str, pattern: str) -> str:
    for line in snapshot.splitlines():
        if re.search(pattern, line):
            m = re.search(r"\[ref=([a-z0-9]+)\]", line)
            if m:
                return m.group(1)
    raise RuntimeError(f"no ref for {pattern!r}")


async def loop_tools(session: Any, url: str) -> float:
    t = time.perf_counter()
    r = await session.call("browser_navigate", {"url": url})
    assert r.ok, r.text
    snap = await session.call("browser_snapshot", {})
    assert snap.ok, snap.text
    r = await session.call("browser_click", {"ref": ref(snap.text, r'button "Add"')})
    assert r.ok, r.text
    r = await session.call("browser_type", {"ref": ref(snap.text, r'textbox "Quantity"'), "text": "42"})
    assert r.ok, r.text
    return time.perf_counter() - t


async def loop_direct(page: Any, url: str) -> float:
    t = time.perf_counter()
    await page.goto(url)
    snap = await page.aria_snapshot(mode="ai")
    await page.locator("aria-ref=" + ref(snap, r'button "Add"')).click()
    await page.locator("aria-ref=" + ref(snap, r'textbox "Quantity"')).fill("42")
    return time.perf_counter() - t


def line(name: str, ours: float, base: float, goal: str, unit: str = "ms") -> None:
    print(
        f"{name:<44} {ours * 1000:9.1f} {unit}  baseline {base * 1000:9.1f} {unit}  ratio {ours / base:5.2f}x  goal {goal}"
    )


async def main(loops: int, elements: int) -> None:
    from playwright.async_api import async_playwright
    from playwright_stealth import Stealth

    from agenthost import Host
    from agenthost_browser.discovery import find_browser
    from agenthost_browser.manager import LAUNCH_FLAGS
    from agenthost_browser.settings import BrowserSettings

    binary = find_browser(BrowserSettings())
    print(f"Chromium: {binary.describe()}")
    pages = {"/form": FORM, "/big": big_page(elements)}
    server = serve(pages)
    site = next(server)
    url = f"{site}/form"

    # -- the tools ---------------------------------------------------------------
    with tempfile.TemporaryDirectory() as ws:
        async with Host(ws, config={}, plugins=["browser"]) as host, host.session() as session:
            for _ in range(3):
                await loop_tools(session, url)
            ours = [await loop_tools(session, url) for _ in range(loops)]
            # the big page through the tool
            await session.call("browser_navigate", {"url": f"{site}/big"})
            await session.call("browser_snapshot", {})
            snap_times = []
            for _ in range(3):
                t = time.perf_counter()
                snap = await session.call("browser_snapshot", {})
                snap_times.append(time.perf_counter() - t)
            capped = len(snap.text)
            limit = BrowserSettings().max_snapshot_chars

    # -- Playwright directly ---------------------------------------------------------
    async with Stealth().use_async(async_playwright()) as p:
        browser = await p.chromium.launch(
            executable_path=binary.executable_path,
            channel=binary.channel,
            headless=True,
            args=list(LAUNCH_FLAGS),
        )
        context = await browser.new_context(viewport={"width": 1280, "height": 720})
        page = await context.new_page()
        for _ in range(3):
            await loop_direct(page, url)
        base = [await loop_direct(page, url) for _ in range(loops)]
        await page.goto(f"{site}/big")
        await page.aria_snapshot(mode="ai")
        raw_times = []
        for _ in range(3):
            t = time.perf_counter()
            raw = await page.aria_snapshot(mode="ai")
            raw_times.append(time.perf_counter() - t)
        count = await page.evaluate("document.querySelectorAll('*').length")
        await browser.close()

    print(f"loop: navigate -> snapshot -> click -> type, median of {loops}")
    line("tools loop (per iteration)", statistics.median(ours), statistics.median(base), "<= 1.2x")
    print(f"snapshot of a {count:,}-element page, best of 3")
    line("browser_snapshot vs aria_snapshot(ai)", min(snap_times), min(raw_times), "<= 1.2x")
    print(
        f"{'snapshot size':<44} {len(raw):9,} chars before the cap, {capped:,} after "
        f"(max_snapshot_chars={limit:,}; ratio {capped / len(raw):.2f})"
    )
    next(server, None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--loops", type=int, default=30)
    parser.add_argument("--elements", type=int, default=10000)
    args = parser.parse_args()
    asyncio.run(main(args.loops, args.elements))
