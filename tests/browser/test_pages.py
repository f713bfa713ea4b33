"""The browser tools on a real Chromium against the loopback site.

One host (one shared Chromium) serves the whole module; each test works in its
own session, so each has its own browser context.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from agenthost import Host

from .loopback_site import chromium_or_skip

chromium_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def host(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Host]:
    workspace = tmp_path_factory.mktemp("browser-ws")
    h = Host(
        workspace=workspace,
        config={"plugins": {"browser": {"max_snapshot_chars": 3000, "action_timeout_ms": 2000}}},
        plugins=["browser"],
    )
    await h.start()
    yield h
    await h.aclose()


def ref_of(snapshot: str, pattern: str) -> str:
    """The ref on the first snapshot line matching ``pattern``."""
    for line in snapshot.splitlines():
        if re.search(pattern, line):
            m = re.search(r"\[ref=([a-z0-9]+)\]", line)
            assert m, f"line without a ref: {line}"
            return m.group(1)
    raise AssertionError(f"no line matches {pattern!r} in:\n{snapshot}")


async def ok(session, tool: str, args: dict | None = None) -> str:  # type: ignore[no-untyped-def]
    result = await session.call(tool, args or {})
    assert result.ok, f"{tool} failed: {result.text}"
    return result.text


async def test_form_by_selector(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/form"})
        await ok(s, "browser_type", {"selector": "#name", "text": "Ada Lovelace"})
        await ok(s, "browser_type", {"selector": "#email", "text": "ada@example.org", "delay": 5})
        await ok(s, "browser_click", {"selector": "input[name=news]"})
        text = await ok(s, "browser_click", {"selector": "button[type=submit]"})
        assert "Submitted" in text
        result = await ok(s, "browser_evaluate", {"script": "document.querySelector('#result').innerText"})
        assert "name=Ada Lovelace" in result and "email=ada@example.org" in result and "news=yes" in result


async def test_form_by_ref(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/form"})
        snap = await ok(s, "browser_snapshot")
        assert "Sign up" in snap
        name_ref = ref_of(snap, r'textbox "Full name"')
        email_ref = ref_of(snap, r'textbox "Email"')
        button_ref = ref_of(snap, r'button "Create account"')
        await ok(s, "browser_type", {"ref": name_ref, "text": "Grace Hopper"})
        await ok(s, "browser_type", {"ref": f"[ref={email_ref}]", "text": "grace@example.org"})
        await ok(s, "browser_click", {"ref": button_ref})
        snap = await ok(s, "browser_snapshot")
        assert "name=Grace Hopper" in snap and "email=grace@example.org" in snap
        # the old refs belonged to the form page, which is gone
        stale = await s.call("browser_click", {"ref": button_ref})
        assert not stale.ok and f"ref {button_ref}" in stale.text and "browser_snapshot" in stale.text


async def test_keyboard_submit(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/search"})
        text = await ok(s, "browser_type", {"selector": "input[name=q]", "text": "pluggy", "submit": True})
        assert "Submitted" in text
        assert "q=pluggy" in await ok(s, "browser_get_dom", {"selector": "#result"})
        # and with press_key: focus the field by typing, then Enter
        await ok(s, "browser_navigate", {"url": f"{site}/search"})
        await ok(s, "browser_type", {"selector": "input[name=q]", "text": "hooks"})
        pressed = await ok(s, "browser_press_key", {"key": "Enter"})
        assert "Submitted" in pressed
        bad = await s.call("browser_press_key", {"key": "a", "modifiers": ["Hyper"]})
        assert bad.error is not None and bad.error.type == "invalid_arguments"


async def test_hover_menu(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/menu"})
        before = await ok(s, "browser_snapshot")
        assert "Settings" not in before  # hidden until hovered
        await ok(s, "browser_hover", {"ref": ref_of(before, r'button "Account"')})
        after = await ok(s, "browser_snapshot")
        assert 'link "Settings"' in after and "hovered" in after
        text = await ok(s, "browser_click", {"ref": ref_of(after, r'link "Settings"')})
        assert "Page settings" in text


async def test_scroll_long_page(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/long"})
        down = await ok(s, "browser_scroll", {"direction": "down", "amount": 800})
        assert "y=800" in down
        assert await ok(s, "browser_evaluate", {"script": "window.scrollY"}) == "800"
        bottom = await ok(s, "browser_scroll", {"direction": "to_bottom"})
        assert "at the bottom" in bottom
        visible = await ok(
            s,
            "browser_evaluate",
            {
                "script": "const r = document.querySelector('#end').getBoundingClientRect(); return r.top < innerHeight"
            },
        )
        assert visible == "true"
        await ok(s, "browser_scroll", {"direction": "up", "amount": 300})
        await ok(s, "browser_scroll", {"direction": "to_top"})
        assert await ok(s, "browser_evaluate", {"script": "window.scrollY"}) == "0"


async def test_wait_for_delayed_element(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/delayed"})
        await ok(s, "browser_wait_for", {"selector": "#late", "timeout": 5000})
        await ok(s, "browser_wait_for", {"text": "Arrived late"})
        await ok(s, "browser_wait_for", {"condition": "window.ready === true"})
        missing = await s.call("browser_wait_for", {"selector": "#never", "timeout": 300})
        assert missing.error is not None and missing.error.type == "timeout"
        assert "#never" in missing.text and "browser_snapshot" in missing.text
        none = await s.call("browser_wait_for", {})
        assert none.error is not None and none.error.type == "invalid_arguments"


async def test_element_absent_before_it_appears(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/delayed"})
        early = await ok(s, "browser_evaluate", {"script": "document.querySelector('#late') === null"})
        later_wait = await ok(s, "browser_wait_for", {"selector": "#late"})
        assert early == "true" and "#late" in later_wait


async def test_back_forward_reload(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/page/a"})
        await ok(s, "browser_click", {"selector": "text=next"})
        assert (await s.call("browser_get_state")).data["title"] == "Page ax"
        assert "Page a'" in await ok(s, "browser_go_back")
        assert "Page ax" in await ok(s, "browser_go_forward")
        await ok(s, "browser_evaluate", {"script": "window.marker = 1"})
        assert "reloaded" in await ok(s, "browser_reload")
        assert await ok(s, "browser_evaluate", {"script": "typeof window.marker"}) == '"undefined"'
        state = (await s.call("browser_get_state")).data
        assert state["url"] == f"{site}/page/ax" and state["history_length"] == 3
        assert state["load_state"] == "complete"
        fresh = host.session()
        async with fresh:
            await ok(fresh, "browser_navigate", {"url": f"{site}/page/z"})
            assert "went back to about:blank" in await ok(fresh, "browser_go_back")
            assert "no earlier page" in await ok(fresh, "browser_go_back")


async def test_two_tabs(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/page/one"})
        opened = await ok(s, "browser_tabs", {"action": "new", "url": f"{site}/page/two"})
        assert "opened tab 1" in opened
        listing = await ok(s, "browser_tabs", {"action": "list"})
        assert re.search(r"\* 1: 'Page two'", listing) and "0: 'Page one'" in listing
        assert (await s.call("browser_get_state")).data["title"] == "Page two"
        await ok(s, "browser_tabs", {"action": "select", "index": 0})
        assert (await s.call("browser_get_state")).data["title"] == "Page one"
        missing = await s.call("browser_tabs", {"action": "select", "index": 5})
        assert missing.error is not None and missing.error.type == "not_found" and "no tab 5" in missing.text
        closed = await ok(s, "browser_tabs", {"action": "close", "index": 0})
        assert "closed tab 0" in closed and "Page one" not in closed
        assert (await s.call("browser_get_state")).data["title"] == "Page two"
        # a page that opens a tab by itself: the note says so
        await ok(s, "browser_navigate", {"url": f"{site}/popup"})
        notes = await ok(s, "browser_click", {"selector": "a"})
        for _ in range(40):  # the tab may open just after the click returns
            state = (await s.call("browser_get_state")).data
            notes += str(state["notes"])
            if len(state["tabs"]) == 2 and state["tabs"][1]["title"]:
                break
            await asyncio.sleep(0.1)
        assert "opened a new tab (tab 1)" in notes
        assert [t["title"] for t in state["tabs"]] == ["Popup", "Page popped"]


async def test_renderer_crash_then_recovery(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/page/doomed"})
        browser_session = s.peek("browser")
        page = browser_session.page
        cdp = await page.context.new_cdp_session(page)
        with contextlib.suppress(Exception):  # the crash takes the CDP session and its answer with it
            await asyncio.wait_for(cdp.send("Page.crash"), 2)
        for _ in range(50):
            if page.is_closed() or id(page) in browser_session._crashed:
                break
            await asyncio.sleep(0.05)
        state = await s.call("browser_get_state")
        assert state.ok
        assert any("renderer had crashed" in n for n in state.data["notes"]), state.data
        assert state.data["url"] == "about:blank"
        text = await ok(s, "browser_navigate", {"url": f"{site}/page/revived"})
        assert "Page revived" in text


async def test_errors_name_the_target(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/buttons"})
        missing = await s.call("browser_click", {"selector": "#nope"})
        assert not missing.ok and "'#nope'" in missing.text and "browser_snapshot" in missing.text
        several = await s.call("browser_click", {"selector": "button"})
        assert not several.ok and "matches 2 elements" in several.text and "'button'" in several.text
        both = await s.call("browser_click", {"selector": "button", "ref": "e1"})
        assert both.error is not None and both.error.type == "invalid_arguments"
        ghost = await s.call("browser_hover", {"ref": "e999"})
        assert ghost.error is not None and ghost.error.type == "not_found" and "e999" in ghost.text
        await ok(s, "browser_click", {"x": 20, "y": 15})  # a position is fine too
        thrown = await s.call("browser_evaluate", {"script": "throw new Error('boom')"})
        assert not thrown.ok and "boom" in thrown.text


async def test_navigation_rules(host: Host, site: str, tmp_path: Path) -> None:
    async with host.session() as s:
        (tmp_path / "x.html").write_text("<p>local</p>")
        for url in (f"file://{tmp_path}/x.html", "javascript:alert(1)", "chrome://version"):
            result = await s.call("browser_navigate", {"url": url})
            assert result.error is not None and result.error.type == "denied", url
        assert "data:" in await ok(s, "browser_navigate", {"url": "data:text/html,<h1>inline</h1>"})
        assert "about:blank" in await ok(s, "browser_navigate", {"url": "about:blank"})
        with socket.socket() as probe:  # a loopback port nobody listens on
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        refused = await s.call("browser_navigate", {"url": f"http://127.0.0.1:{port}/"})
        assert not refused.ok and "ERR_CONNECTION_REFUSED" in refused.text


async def test_snapshot_and_dom_are_capped(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/big"})
        snap = await ok(s, "browser_snapshot")
        assert len(snap) < 3600 and "cut: showed" in snap and "max_snapshot_chars=3,000" in snap
        part = await ok(s, "browser_snapshot", {"selector": ".row", "max_depth": 1})
        assert "cut" not in part and "cell 0" in part
        dom = await ok(s, "browser_get_dom", {"max_depth": 2})
        assert "cut: showed" in dom and "max_dom_chars" in dom
        shallow = await ok(s, "browser_get_dom", {"selector": ".row", "max_depth": 1})
        assert shallow.startswith('<div class="row">') and "(1 children)" in shallow


async def test_screenshot(host: Host, site: str) -> None:
    async with host.session() as s:
        await s.call("browser_launch", {"viewport": {"width": 640, "height": 480}})
        await ok(s, "browser_navigate", {"url": f"{site}/form"})
        result = await s.call("browser_screenshot", {})
        assert result.ok
        image = next(b for b in result.content if b.type == "image")
        data = base64.b64decode(image.data)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(data[16:20], "big") == 640 and int.from_bytes(data[20:24], "big") == 480
        saved = await ok(s, "browser_screenshot", {"path": "shots/form.png", "selector": "form"})
        assert "shots/form.png" in saved
        file = host.workspace.root / "shots" / "form.png"
        assert file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        outside = await s.call("browser_screenshot", {"path": "../escape.png"})
        assert outside.error is not None and outside.error.type == "outside_workspace"


async def test_stealth(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/page/ua"})
        assert await ok(s, "browser_evaluate", {"script": "navigator.webdriver"}) == "false"
        agent = await ok(s, "browser_evaluate", {"script": "navigator.userAgent"})
        assert "Chrome/" in agent and "Headless" not in agent


async def test_sessions_do_not_share_cookies(host: Host, site: str) -> None:
    async with host.session() as a, host.session() as b:
        await ok(a, "browser_navigate", {"url": f"{site}/cookie/set?v=alpha"})
        await ok(b, "browser_navigate", {"url": f"{site}/cookie/set?v=beta"})
        await ok(a, "browser_navigate", {"url": f"{site}/cookie/show"})
        await ok(b, "browser_navigate", {"url": f"{site}/cookie/show"})
        seen_a = await ok(a, "browser_evaluate", {"script": "document.querySelector('#c').textContent"})
        seen_b = await ok(b, "browser_evaluate", {"script": "document.querySelector('#c').textContent"})
        assert seen_a == '"cookie:token=alpha"' and seen_b == '"cookie:token=beta"'
        await ok(a, "browser_evaluate", {"script": "localStorage.setItem('k', 'a')"})
        assert await ok(b, "browser_evaluate", {"script": "localStorage.getItem('k')"}) == "undefined"
        # both sessions share one Chromium
        assert a.peek("browser").browser is b.peek("browser").browser
    async with host.session() as c:
        await ok(c, "browser_navigate", {"url": f"{site}/cookie/show"})
        assert (
            await ok(c, "browser_evaluate", {"script": "document.querySelector('#c').textContent"})
            == '"cookie:"'
        )


async def test_session_end_closes_context(host: Host, site: str) -> None:
    s = host.session()
    async with s:
        await ok(s, "browser_navigate", {"url": f"{site}/page/x"})
        context = s.peek("browser").context
        assert len(context.pages) == 1
    assert context.pages == []
    async with host.session() as t:
        await ok(t, "browser_navigate", {"url": f"{site}/page/y"})
        assert "closed this session's browser (1 tab)" in await ok(t, "browser_close")
        assert (await t.call("browser_get_state")).data == {"running": False, "notes": []}
        assert "Page z" in await ok(t, "browser_navigate", {"url": f"{site}/page/z"})


async def test_download_goes_to_workspace(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/download"})
        notes = await ok(s, "browser_click", {"selector": "a"})
        for _ in range(100):  # the download may start just after the click returns
            await s.peek("browser").settle_downloads(10)
            notes += str((await s.call("browser_get_state")).data["notes"])
            if "downloaded" in notes:
                break
            await asyncio.sleep(0.1)
        assert "downloads/report.txt" in notes
        assert (host.workspace.root / "downloads" / "report.txt").read_text() == "downloaded body\n"


async def test_dialog_is_accepted_and_reported(host: Host, site: str) -> None:
    async with host.session() as s:
        await ok(s, "browser_navigate", {"url": f"{site}/dialog"})
        text = await ok(s, "browser_click", {"selector": "button"})
        state = (await s.call("browser_get_state")).data
        assert "confirm dialog" in text + str(state["notes"])
        assert (
            await ok(s, "browser_evaluate", {"script": "document.querySelector('#out').textContent"})
            == '"yes"'
        )
