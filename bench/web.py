"""Benchmark: readable markdown from saved article pages.

Pages per second through ``web_fetch`` (extractMode markdown, the real host and
executor, each page fetched from a loopback server through the SSRF guard)
against the MCP reference fetch server's own conversion as it runs on this
machine (``mcp_server_fetch.server.extract_content_from_html``, given the HTML
directly, so it does not even pay for the fetch), on the same pages. Also the
characters of boilerplate each removes, and whether each kept the article.

    uv pip install mcp-server-fetch     # the baseline (root `bench` dependency group)
    python bench/web.py [--rounds N]

Goal: web_fetch >= 1x the baseline's pages per second.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGES = HERE.parent / "tests" / "web" / "pages"
# bench/ holds scripts named like packages (bench/mcp.py): keep them off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
BOILERPLATE = [
    "Subscribe to our newsletter",
    "We use cookies",
    "Share this article",
    "All rights reserved",
    "Related story",
    "Footer link",
    "Great read",
]


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def visible_text(html: str) -> str:
    import lxml.html

    tree = lxml.html.fromstring(html)
    for bad in tree.xpath("//script|//style|//noscript|//template"):
        bad.drop_tree()
    return " ".join(tree.text_content().split())


def words(text: str) -> int:
    return len(" ".join(re.sub(r"[#*_>\[\]()|-]", " ", text).split()))


def quality(name: str, html: str, out: str) -> tuple[int, bool, int]:
    """(boilerplate characters removed, article marker kept, boilerplate phrases left)."""
    removed = words(visible_text(html)) - words(out)
    return removed, f"MARKER {name.removesuffix('-b')}" in out, sum(p in out for p in BOILERPLATE)


async def ours(files: list[Path], rounds: int) -> tuple[float, dict[str, str]]:
    from agenthost import Host

    handler = partial(Quiet, directory=str(PAGES))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    config = {
        "net": {"allow": ["127.0.0.1"]},
        "audit": {"enabled": False},
        "plugins": {"web": {"cache_ttl_s": 0}},  # every call fetches and extracts again
    }
    outputs: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as workspace:
        async with Host(workspace=workspace, config=config, plugins=["web"]) as host:
            args = {"extractMode": "markdown", "maxChars": 1_000_000}
            for f in files:  # warm up: imports, the first connection
                result = await host.call("web_fetch", {"url": f"{base}/{f.name}", **args})
                assert result.ok, result.text
                outputs[f.stem] = result.text.split("\n\n", 1)[1]
            start = time.perf_counter()
            for _ in range(rounds):
                for f in files:
                    result = await host.call("web_fetch", {"url": f"{base}/{f.name}", **args})
                    assert result.ok, result.text
            elapsed = time.perf_counter() - start
    server.shutdown()
    return rounds * len(files) / elapsed, outputs


def baseline(files: list[Path], rounds: int, node: bool = True) -> tuple[float, dict[str, str]]:
    """The reference conversion; ``node=False`` runs readabilipy's pure-Python
    path, as mcp-server-fetch does on a machine without Node.js."""
    import contextlib
    import io

    import readabilipy.simple_json as simple_json
    from mcp_server_fetch.server import extract_content_from_html

    if not node:
        real = simple_json.have_node
        simple_json.have_node = lambda: False  # type: ignore[assignment]
        try:
            with contextlib.redirect_stderr(io.StringIO()):  # its "node not found" warning
                return baseline(files, rounds)
        finally:
            simple_json.have_node = real

    htmls = {f.stem: f.read_text(encoding="utf-8") for f in files}
    extract_content_from_html(next(iter(htmls.values())))  # warm up (readabilipy may set up Node)
    outputs: dict[str, str] = {}
    start = time.perf_counter()
    for _ in range(rounds):
        for name, html in htmls.items():
            outputs[name] = extract_content_from_html(html)
    elapsed = time.perf_counter() - start
    return rounds * len(htmls) / elapsed, outputs


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds over the pages for web_fetch (default 5)"
    )
    parser.add_argument("--baseline-rounds", type=int, default=1, help="rounds for the baseline (default 1)")
    args = parser.parse_args()
    files = sorted(PAGES.glob("*.html"))
    if not files:
        print(f"no pages in {PAGES}; run python tests/web/pages/generate.py", file=sys.stderr)
        return 2
    try:
        import mcp_server_fetch.server  # noqa: F401
    except ImportError:
        print("the baseline is missing: uv pip install mcp-server-fetch", file=sys.stderr)
        return 2
    try:
        from readabilipy.simple_json import have_node

        node = "with Node.js Readability" if have_node() else "pure Python (no Node.js)"
    except Exception:
        node = "unknown mode"

    ours_rate, ours_out = asyncio.run(ours(files, args.rounds))
    # Node.js Readability starts a process per page (seconds each): half the pages, one per topic
    node_files = [f for f in files if not f.stem.endswith("-b")] or files
    base_rate, base_out = baseline(node_files, args.baseline_rounds)
    py_rate, py_out = baseline(files, args.baseline_rounds, node=False)

    htmls = {f.stem: f.read_text(encoding="utf-8") for f in files}
    total_html = sum(len(h) for h in htmls.values())
    total_visible = sum(words(visible_text(h)) for h in htmls.values())

    def summary(outputs: dict[str, str]) -> tuple[float, str, int]:
        """(boilerplate characters removed per page, "kept/pages", phrases left)."""
        removed = kept = left = 0
        for name, out in outputs.items():
            r, k, lft = quality(name, htmls[name], out)
            removed, kept, left = removed + r, kept + k, left + lft
        return removed / len(outputs), f"{kept}/{len(outputs)}", left

    o_removed, o_kept, o_left = summary(ours_out)
    b_removed, b_kept, b_left = summary(base_out)
    p_removed, p_kept, p_left = summary(py_out)
    n = len(files)
    print(
        f"{n} article pages, {total_html / n / 1024:.0f} KiB of HTML and {total_visible / n:,.0f} visible characters each"
    )
    print(f"baseline: mcp-server-fetch extract_content_from_html ({node}), HTML given directly")
    print(
        f"web_fetch: {args.rounds} rounds over {n} pages (fetched from loopback); baseline: "
        f"{args.baseline_rounds} round(s) over {len(node_files)} pages with Node.js, {n} without"
    )
    print()
    print(f"{'figure':44} {'web_fetch':>12} {'baseline':>12} {'ratio':>8}  goal")
    print(
        f"{'pages per second (markdown)':44} {ours_rate:12.1f} {base_rate:12.2f} {ours_rate / base_rate:7.1f}x  >= 1x"
    )
    print(
        f"{'  same, baseline without Node.js':44} {ours_rate:12.1f} {py_rate:12.2f} {ours_rate / py_rate:7.1f}x  >= 1x"
    )
    print(
        f"{'boilerplate characters removed per page':44} {o_removed:12,.0f} {b_removed:12,.0f} "
        f"{(o_removed / b_removed if b_removed else float('inf')):7.2f}x  (more is better)"
    )
    print(
        f"{'  same, baseline without Node.js':44} {o_removed:12,.0f} {p_removed:12,.0f} "
        f"{(o_removed / p_removed if p_removed else float('inf')):7.2f}x"
    )
    print(
        f"{'article kept (marker sentence found)':44} {o_kept:>12} {b_kept:>12}           (no Node: {p_kept})"
    )
    print(
        f"{'boilerplate phrases left in the output':44} {o_left:12d} {b_left:12d}            0 (no Node: {p_left})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
