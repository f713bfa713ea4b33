"""``ssrf_guard = true``: every request the browser makes passes the core SSRF
guard (``agenthost.net``), redirect hops and page-initiated navigations included."""

from __future__ import annotations

from typing import Any

from .loopback_site import chromium_or_skip

chromium_or_skip()


def _config(allow: list[str] | None = None, guard: bool = True) -> dict[str, Any]:
    config: dict[str, Any] = {"plugins": {"browser": {"ssrf_guard": guard}}}
    if allow is not None:
        config["net"] = {"allow": allow}
    return config


async def test_loopback_refused_without_allow(make_host, site: str) -> None:  # type: ignore[no-untyped-def]
    host = await make_host(plugins=["browser"], config=_config())
    async with host.session() as s:
        result = await s.call("browser_navigate", {"url": f"{site}/form"})
        assert result.error is not None and result.error.type == "denied", result.text
        assert "127.0.0.1" in result.text and "loopback" in result.text and "\n" not in result.text
        tab = await s.call("browser_tabs", {"action": "new", "url": f"{site}/form"})
        assert tab.error is not None and tab.error.type == "denied" and "127.0.0.1" in tab.text
        metadata = await s.call("browser_navigate", {"url": "http://169.254.169.254/latest/meta-data/"})
        assert metadata.error is not None and metadata.error.type == "denied"
        assert "metadata" in metadata.text
        # URLs that reach no network are not the guard's business
        assert (await s.call("browser_navigate", {"url": "data:text/html,<h1>inline</h1>"})).ok


async def test_allowed_loopback_works_and_other_targets_are_refused(make_host, site: str) -> None:  # type: ignore[no-untyped-def]
    port = site.rsplit(":", 1)[1]
    other = f"http://localhost:{port}/page/secret"  # loopback by name: not in [net] allow
    config = _config(allow=["127.0.0.1"])
    config["net"]["allow"].append("169.254.0.0/16")  # metadata addresses stay blocked anyway
    host = await make_host(plugins=["browser"], config=config)
    async with host.session() as s:
        opened = await s.call("browser_navigate", {"url": f"{site}/form"})
        assert opened.ok and "Sign up" in opened.text, opened.text
        moved = await s.call("browser_navigate", {"url": f"{site}/redirect?to=/page/fine"})
        assert moved.ok and "Page fine" in moved.text, moved.text
        # a redirect hop to a host the guard refuses never reaches it
        hop = await s.call("browser_navigate", {"url": f"{site}/redirect?to={other}"})
        assert hop.error is not None and hop.error.type == "denied", hop.text
        assert "localhost" in hop.text and "\n" not in hop.text
        shown = await s.call("browser_evaluate", {"script": "document.body.innerText"})
        assert "Page secret" not in shown.text
        # a navigation the page starts itself (a link) is refused with a note
        await s.call("browser_navigate", {"url": f"{site}/page/a"})
        await s.call("browser_evaluate", {"script": f"document.querySelector('a').href = '{other}'"})
        clicked = await s.call("browser_click", {"selector": "a"})
        state = (await s.call("browser_get_state")).data
        assert "Page secret" not in (await s.call("browser_evaluate", {"script": "document.title"})).text
        assert f"SSRF guard refused a request to {other}" in clicked.text + str(state["notes"]), (
            clicked.text,
            state,
        )
        metadata = await s.call("browser_navigate", {"url": "http://169.254.169.254/"})
        assert metadata.error is not None and metadata.error.type == "denied" and "metadata" in metadata.text


async def test_guard_off_by_default(make_host, site: str) -> None:  # type: ignore[no-untyped-def]
    port = site.rsplit(":", 1)[1]
    host = await make_host(plugins=["browser"])
    async with host.session() as s:
        hop = await s.call("browser_navigate", {"url": f"{site}/redirect?to=http://localhost:{port}/page/b"})
        assert hop.ok and "Page b" in hop.text, hop.text
