"""web_search against loopback fakes of Brave Search and SearXNG (their real JSON shapes)."""

from __future__ import annotations

from typing import Any

import pytest

from agenthost import hookimpl

BRAVE_KEY = "test-brave-key"


@pytest.fixture(autouse=True)
def no_brave_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)


def brave_config(server: Any, key: str = BRAVE_KEY) -> dict[str, Any]:
    return {"plugins": {"web": {"brave_api_key": key, "brave_url": server.url("/brave/res/v1/web/search")}}}


def searxng_config(server: Any) -> dict[str, Any]:
    return {"plugins": {"web": {"searxng_url": server.url("/searxng/")}}}


async def test_not_registered_without_a_backend(make_host: Any) -> None:
    host = await make_host(plugins=["web"])
    assert "web_search" not in host.tools and "web_fetch" in host.tools


async def test_brave(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"], config=brave_config(server))
    tool = host.tools["web_search"]
    assert tool.level == "network" and tool.open_world
    assert tool.input_schema["properties"]["count"]["maximum"] == 20
    result = await host.call("web_search", {"query": "tide tables", "count": 3})
    assert result.ok, result.text
    assert "(via brave)" in result.text
    assert "1. tide tables result 1" in result.text and "https://docs.python.org/page/1" in result.text
    assert "A page about tide tables number 1." in result.text  # <strong> removed
    assert "4. " not in result.text
    sent = [r for r in server.seen.requests if r["path"].startswith("/brave")][-1]
    assert sent["query"] == {"q": "tide tables", "count": "3"}
    assert sent["headers"]["X-Subscription-Token"] == BRAVE_KEY


async def test_brave_key_from_the_environment(
    make_host: Any, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    config = {"plugins": {"web": {"brave_url": server.url("/brave/res/v1/web/search")}}}
    host = await make_host(plugins=["web"], config=config)
    result = await host.call("web_search", {"query": "owls"})
    assert result.ok and result.text.count("\n   https://") == 5


async def test_brave_bad_key_says_what_to_check(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"], config=brave_config(server, key="wrong"))
    result = await host.call("web_search", {"query": "owls"})
    assert not result.ok and "HTTP 401" in result.text and "BRAVE_API_KEY" in result.text
    assert "\n" not in result.text


async def test_count_above_20_is_refused(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"], config=brave_config(server))
    result = await host.call("web_search", {"query": "owls", "count": 21})
    assert result.error.type == "invalid_arguments"
    twenty = await host.call("web_search", {"query": "owls", "count": 20})
    assert "20. owls result 20" in twenty.text


async def test_allowed_and_blocked_domains(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"], config=brave_config(server))
    only = await host.call(
        "web_search", {"query": "python", "count": 3, "allowed_domains": ["wikipedia.org"]}
    )
    urls = [line.strip() for line in only.text.splitlines() if line.strip().startswith("https://")]
    assert len(urls) == 3 and all(u.startswith("https://en.wikipedia.org/") for u in urls)
    sent = [r for r in server.seen.requests if r["path"].startswith("/brave")][-1]
    assert sent["query"]["q"] == "python site:wikipedia.org"
    without = await host.call(
        "web_search",
        {"query": "python", "count": 10, "blocked_domains": ["https://www.example.com", "example.org"]},
    )
    urls = [line.strip() for line in without.text.splitlines() if line.strip().startswith("https://")]
    assert len(urls) == 10
    assert not any("example.com/" in u or "example.org/" in u for u in urls)
    none = await host.call("web_search", {"query": "python", "allowed_domains": ["nowhere.test"]})
    assert none.ok and "No results" in none.text and "domain limits" in none.text


async def test_searxng(make_host: Any, server: Any) -> None:
    host = await make_host(plugins=["web"], config=searxng_config(server))
    result = await host.call("web_search", {"query": "bridges", "count": 15})
    assert result.ok, result.text
    assert "(via searxng)" in result.text
    assert "1. bridges hit 1" in result.text and "15. bridges hit 15" in result.text
    assert "Snippet 15 about bridges." in result.text and "16. " not in result.text
    pages = [r["query"].get("pageno") for r in server.seen.requests if r["path"] == "/searxng/search"]
    assert pages[-2:] == ["1", "2"]


async def test_searxng_without_json_format(make_host: Any, server: Any) -> None:
    # an instance whose settings.yml leaves json out of search.formats answers 403
    host = await make_host(
        plugins=["web"], config={"plugins": {"web": {"searxng_url": server.url("/html-only")}}}
    )
    result = await host.call("web_search", {"query": "x"})
    assert not result.ok and "HTTP 403" in result.text and "search.formats" in result.text


async def test_backend_choice_and_third_party_backends(make_host: Any, server: Any) -> None:
    class Echo:
        name = "echo"

        async def search(self, query: str, count: int) -> list[dict[str, Any]]:
            return [{"title": f"echo {query}", "url": "https://echo.example/1", "snippet": "from a plugin"}]

    class EchoPlugin:
        @hookimpl
        def agenthost_search_backends(self, config: Any) -> list[Any]:
            return [Echo()]

    host = await make_host(plugins=["web"], hooks=[EchoPlugin()])
    result = await host.call("web_search", {"query": "hi"})
    assert result.ok and "echo hi" in result.text and "(via echo)" in result.text

    config = {
        "plugins": {
            "web": {
                "searxng_url": server.url("/searxng"),
                "brave_api_key": BRAVE_KEY,
                "brave_url": server.url("/brave/res/v1/web/search"),
                "search_backend": "searxng",
            }
        }
    }
    chosen = await make_host(plugins=["web"], config=config)
    assert "(via searxng)" in (await chosen.call("web_search", {"query": "q"})).text

    config["plugins"]["web"]["search_backend"] = "nope"
    fallback = await make_host(plugins=["web"], config=config)
    info = next(i for i in fallback.plugin_infos if i.name == "web")
    assert any("search_backend = 'nope'" in p for p in info.problems)
    assert "web_search" in fallback.tools


async def test_unreachable_backend(make_host: Any) -> None:
    host = await make_host(
        plugins=["web"], config={"plugins": {"web": {"searxng_url": "http://127.0.0.1:9"}}}
    )
    result = await host.call("web_search", {"query": "x"})
    assert not result.ok and "could not be reached" in result.text and "\n" not in result.text


async def test_doctor_reports_the_backend(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    import agenthost_web
    from agenthost.config import Config

    rows = agenthost_web.agenthost_doctor(Config.load(Path("."), searxng_config(server)))
    row = next(r for r in rows if r["name"] == "web_search backend")
    assert row["ok"] and "searxng" in row["detail"] and not row["fix"]
