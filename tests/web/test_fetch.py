"""web_fetch against a loopback server, through the real host and executor."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from agenthost import ImageBlock

ALLOW = {"net": {"allow": ["127.0.0.1"]}}


async def web_host(make_host: Any, **web: Any) -> Any:
    return await make_host(plugins=["web"], config={**ALLOW, "plugins": {"web": web}} if web else ALLOW)


async def fetch(make_host: Any, args: dict[str, Any], **web: Any) -> Any:
    host = await web_host(make_host, **web)
    return await host.call("web_fetch", args)


async def test_tool_shape(make_host: Any) -> None:
    host = await web_host(make_host)
    tool = host.tools["web_fetch"]
    assert tool.level == "network" and tool.open_world and "url" in tool.match
    props = tool.input_schema["properties"]
    assert {"url", "urls", "extractMode", "maxChars", "start_index"} <= set(props)
    assert "web_search" not in host.tools  # no backend configured


@pytest.mark.parametrize("mode", ["text", "markdown"])
async def test_article_is_extracted_without_boilerplate(make_host: Any, server: Any, mode: str) -> None:
    result = await fetch(make_host, {"url": server.url("/pages/owls.html"), "extractMode": mode})
    assert result.ok, result.text
    text = result.text
    assert "MARKER owls" in text
    assert "Title: Listening in the dark: how owls find their prey" in text
    for junk in ("Subscribe to our newsletter", "We use cookies", "Footer link", "var _1=function"):
        assert junk not in text
    if mode == "markdown":
        assert "## Part 2 of the story" in text
    else:
        assert "## " not in text


async def test_raw_returns_the_source(make_host: Any, server: Any) -> None:
    result = await fetch(
        make_host, {"url": server.url("/pages/owls.html"), "extractMode": "raw", "maxChars": 1_000_000}
    )
    assert result.ok
    assert "<!DOCTYPE html>" in result.text and "We use cookies" in result.text


async def test_json_and_plain_text_pass_through(make_host: Any, server: Any) -> None:
    host = await web_host(make_host)
    data = await host.call("web_fetch", {"url": server.url("/json")})
    assert data.ok and '"items": [\n    1,' in data.text and "application/json" in data.text
    raw = await host.call("web_fetch", {"url": server.url("/json"), "extractMode": "raw"})
    assert '{"name":"agenthost","items":[1,2,3]' in raw.text
    plain = await host.call("web_fetch", {"url": server.url("/text"), "extractMode": "markdown"})
    assert plain.ok and "just plain text\nsecond line" in plain.text


async def test_paging_with_start_index(make_host: Any, server: Any) -> None:
    host = await web_host(make_host)
    first = await host.call("web_fetch", {"url": server.url("/long"), "maxChars": 1000})
    assert first.ok and "line 00000" in first.text
    assert "start_index=1000" in first.text
    second = await host.call("web_fetch", {"url": server.url("/long"), "maxChars": 1000, "start_index": 1000})
    expected = "".join(f"line {i:05d} of a long plain text document\n" for i in range(4000))
    assert _body(first) + _body(second) == expected[:2000]
    assert "start_index=2000" in second.text
    past = await host.call("web_fetch", {"url": server.url("/long"), "start_index": 10**7})
    assert not past.ok and past.error.type == "invalid_arguments" and "past the end" in past.text
    # the page came once: later parts were served from the session's cache
    assert sum(1 for r in server.seen.requests if r["path"] == "/long") == 1


def _body(result: Any) -> str:
    """The page text of a one-URL result: between the header and the paging note."""
    return result.text.split("\n\n", 1)[1].rsplit("\n\n[Showing", 1)[0]


async def test_several_urls_concurrently(make_host: Any, server: Any) -> None:
    urls = [server.url("/pages/rivers.html"), server.url("/pages/tides.html"), server.url("/status/404")]
    result = await fetch(make_host, {"urls": urls, "extractMode": "markdown"})
    assert result.ok
    assert "MARKER rivers" in result.text and "MARKER tides" in result.text
    assert "Error (not_found): HTTP 404" in result.text


async def test_url_or_urls_but_not_both(make_host: Any, server: Any) -> None:
    host = await web_host(make_host)
    both = await host.call("web_fetch", {"url": server.url("/text"), "urls": [server.url("/text")]})
    neither = await host.call("web_fetch", {})
    assert both.error.type == neither.error.type == "invalid_arguments"


async def test_every_url_failing_is_an_error(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"urls": [server.url("/status/500"), "file:///etc/passwd"]})
    assert not result.ok and "none of the 2 URLs" in result.text and "HTTP 500" in result.text


async def test_pdf_becomes_text(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"url": server.url("/pdf")})
    assert result.ok, result.text
    assert "Quarterly report" in result.text and "Revenue grew by 12 percent" in result.text


async def test_image_comes_back_as_an_image(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"url": server.url("/image.png")})
    assert result.ok
    images = [b for b in result.content if isinstance(b, ImageBlock)]
    assert len(images) == 1 and images[0].mime_type == "image/png"
    assert base64.b64decode(images[0].data).startswith(b"\x89PNG")


async def test_charsets(make_host: Any, server: Any) -> None:
    host = await web_host(make_host)
    latin = await host.call("web_fetch", {"url": server.url("/latin1")})
    assert "café crème – naïve" in latin.text
    meta = await host.call("web_fetch", {"url": server.url("/meta-charset")})
    assert "Привет, мир!" in meta.text
    guessed = await host.call("web_fetch", {"url": server.url("/undeclared")})
    assert "французских булок" in guessed.text


@pytest.mark.parametrize(
    ("path", "error_type", "words"),
    [
        ("/status/404", "not_found", "HTTP 404"),
        ("/status/500", "tool_error", "try again later"),
        ("/status/429", "tool_error", "rate limited"),
        ("/status/403", "tool_error", "login"),
        ("/zip", "tool_error", "unsupported content type application/zip"),
    ],
)
async def test_errors_are_one_line_and_say_what_to_try(
    make_host: Any, server: Any, path: str, error_type: str, words: str
) -> None:
    result = await fetch(make_host, {"url": server.url(path)})
    assert not result.ok and result.error.type == error_type
    assert words in result.text and "\n" not in result.text and ";" in result.text


async def test_blocked_addresses_and_schemes(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"])  # no [net] allow
    port = server.base.rsplit(":", 1)[1]
    for url in (
        f"http://127.1:{port}/text",
        f"http://0x7f000001:{port}/text",
        f"http://localhost.:{port}/text",
    ):
        result = await host.call("web_fetch", {"url": url})
        assert result.error.type == "denied" and "loopback" in result.text and "[net] allow" in result.text
    for url in ("file:///etc/passwd", "gopher://127.0.0.1/"):
        result = await host.call("web_fetch", {"url": url})
        assert result.error.type == "invalid_arguments" and "only http" in result.text
    meta = await host.call("web_fetch", {"url": "http://169.254.169.254/latest/meta-data/"})
    assert meta.error.type == "denied" and "metadata" in meta.text


async def test_redirect_to_a_blocked_host_is_refused(make_host: Any, server: Any) -> None:
    port = server.base.rsplit(":", 1)[1]
    result = await fetch(make_host, {"url": server.url(f"/redirect?to=http://localhost:{port}/text")})
    assert result.error.type == "denied"
    followed = await fetch(make_host, {"url": server.url("/redirect?to=/text")})
    assert followed.ok and "Redirected from:" in followed.text and "just plain text" in followed.text


async def test_huge_body_is_cut_at_the_cap(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"url": server.url("/endless"), "maxChars": 200}, max_bytes=300_000)
    assert result.ok
    assert "larger than 300,000 bytes" in result.text
    assert "of 300,000." in result.text  # the text is the capped body


async def test_gzip_bomb_is_cut_at_the_cap(make_host: Any, server: Any) -> None:
    result = await fetch(
        make_host, {"url": server.url("/bomb"), "extractMode": "raw", "maxChars": 100}, max_bytes=500_000
    )
    assert result.ok and "larger than 500,000 bytes" in result.text


async def test_timeout_is_reported(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"url": server.url("/slow")}, timeout_s=0.5)
    assert result.error.type == "timeout" and "try again later" in result.text


async def test_policy_applies_to_each_of_urls(make_host: Any, server: Any) -> None:
    config = {**ALLOW, "policy": {"deny": ["web_fetch(*json*)"]}}
    host = await make_host(plugins=["web"], config=config)
    single = await host.call("web_fetch", {"url": server.url("/json")})
    assert single.error.type == "denied"
    # the executor decides each entry of urls; the strictest decision wins
    many = await host.call("web_fetch", {"urls": [server.url("/json"), server.url("/text")]})
    assert many.error.type == "denied" and "web_fetch(*json*)" in many.error.message
    assert (await host.call("web_fetch", {"urls": [server.url("/text")]})).ok


async def test_page_with_no_text_says_so(make_host: Any, server: Any) -> None:
    result = await fetch(make_host, {"url": server.url("/empty")})
    assert result.ok and "no readable text" in result.text


async def test_doctor_says_how_to_configure_search(make_host: Any) -> None:
    import agenthost_web
    from agenthost.config import Config

    rows = agenthost_web.agenthost_doctor(Config.load(__import__("pathlib").Path("."), {}))
    search = next(r for r in rows if r["name"] == "web_search backend")
    assert not search["ok"] and "BRAVE_API_KEY" in search["fix"] and "searxng_url" in search["fix"]
    assert all(r["ok"] for r in rows if r["name"].startswith("web_fetch"))


def test_readability_takes_over_when_trafilatura_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from agenthost_web import extract

    html = (Path(__file__).parent / "pages" / "bridges.html").read_text(encoding="utf-8")
    monkeypatch.setattr(extract, "_trafilatura", lambda *a: None)
    for mode in ("text", "markdown"):
        page = extract.extract_html(html, mode)
        assert page.extractor == "readability" and "MARKER bridges" in page.text
        assert "Footer link" not in page.text


def test_whole_page_is_the_last_resort(monkeypatch: pytest.MonkeyPatch) -> None:
    from agenthost_web import extract

    monkeypatch.setattr(extract, "_trafilatura", lambda *a: None)
    monkeypatch.setattr(extract, "_readability", lambda *a: None)
    page = extract.extract_html("<html><body><script>x()</script><p>only line</p></body></html>", "text")
    assert page.extractor == "whole page" and page.text == "only line"
