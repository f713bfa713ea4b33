"""Browser processes: relaunch after a crash, a visible browser per session,
nothing left after the host closes; config that changes what may be opened."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from agenthost_browser import pool_of

from .loopback_site import chromium_or_skip

chromium_or_skip()


def _tree(pids: set[int]) -> set[int]:
    found = set()
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            found |= {pid, *(c.pid for c in proc.children(recursive=True))}
        except psutil.Error:
            continue
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                alive.add(pid)
        except psutil.Error:
            continue
    return alive


@pytest.fixture
def xvfb(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A virtual display; DISPLAY points at it."""
    if shutil.which("Xvfb") is None:
        pytest.skip(reason="Xvfb not on PATH (apt-get install xvfb)")
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    number = proc.stdout.readline().decode().strip()
    display = f":{number}"
    monkeypatch.setenv("DISPLAY", display)
    yield display
    proc.terminate()
    proc.wait(10)


async def test_killed_browser_is_relaunched_with_a_note(make_host, site: str) -> None:  # type: ignore[no-untyped-def]
    host = await make_host(plugins=["browser"])
    async with host.session() as s:
        assert (await s.call("browser_navigate", {"url": f"{site}/page/first"})).ok
        pool = pool_of(host)
        browser = s.peek("browser").browser
        main = pool.pids_of(browser)
        assert main, "the browser's process was not found"
        for pid in main:
            psutil.Process(pid).kill()
        for _ in range(100):
            if not browser.is_connected():
                break
            await asyncio.sleep(0.05)
        result = await s.call("browser_navigate", {"url": f"{site}/page/second"})
        assert result.ok, result.text
        assert "browser had stopped" in result.text and "Page second" in result.text
        assert s.peek("browser").browser is not browser
        assert (await s.call("browser_evaluate", {"script": "document.title"})).text == '"Page second"'


async def test_visible_browser_then_nothing_left(make_host, site: str, xvfb: str) -> None:  # type: ignore[no-untyped-def]
    host = await make_host(plugins=["browser"])
    pool = pool_of(host)
    async with host.session() as shared_user:
        assert (await shared_user.call("browser_navigate", {"url": f"{site}/page/shared"})).ok
        visible = host.session()
        await visible.start()
        launched = await visible.call(
            "browser_launch", {"headless": False, "viewport": {"width": 800, "height": 600}}
        )
        assert launched.ok, launched.text
        assert (
            "visible" in launched.text and "its own browser" in launched.text and "800x600" in launched.text
        )
        assert (await visible.call("browser_navigate", {"url": f"{site}/page/window"})).ok
        state = (await visible.call("browser_get_state")).data
        assert state["browser"]["own_process"] is True and state["browser"]["headless"] is False
        size = await visible.call("browser_evaluate", {"script": "[innerWidth, innerHeight]"})
        assert size.data is None and "800" in size.text and "600" in size.text
        agent = await visible.call("browser_evaluate", {"script": "navigator.userAgent"})
        assert "Headless" not in agent.text
        own = visible.peek("browser").browser
        shared = shared_user.peek("browser").browser
        assert own is not shared
        assert len(pool.pids_of(own)) == 1 and len(pool.pids_of(shared)) == 1
        processes = _tree(pool.pids_of(own) | pool.pids_of(shared))
        # a headless restart of that session drops its own browser
        first_own = _tree(pool.pids_of(own))
        back = await visible.call("browser_launch", {"headless": True})
        assert back.ok and "shared browser" in back.text and "restarted" in back.text
        assert not own.is_connected() and not _alive(first_own), f"left behind: {_alive(first_own)}"
        await visible.call("browser_launch", {"headless": False})
        own = visible.peek("browser").browser
        processes |= _tree(pool.pids_of(own))
    await host.aclose()  # visible is still open: the host ends it
    assert visible.closed
    assert processes and not _alive(processes), f"left behind: {_alive(processes)}"


async def test_visible_browser_needs_a_display(make_host, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    host = await make_host(plugins=["browser"])
    result = await host.call("browser_launch", {"headless": False})
    assert result.error is not None and result.error.type == "unavailable"
    assert "display" in result.text and "Xvfb" in result.text and "\n" not in result.text
    assert (await host.call("browser_get_state")).data["running"] is False


async def test_config_rules_and_stealth_off(make_host, site: str, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    other = site.replace("127.0.0.1", "localhost")
    config = {
        "plugins": {
            "browser": {
                "stealth": False,
                "allow_file_urls": True,
                "blocked_origins": ["localhost"],
                "downloads_dir": "got",
            }
        }
    }
    host = await make_host(plugins=["browser"], config=config)
    (workspace / "local.html").write_text("<title>Local</title><a href='" + other + "/page/x'>elsewhere</a>")
    async with host.session() as s:
        opened = await s.call("browser_navigate", {"url": (workspace / "local.html").as_uri()})
        assert opened.ok and "Local" in opened.text
        outside = await s.call("browser_navigate", {"url": "file:///etc/hostname"})
        assert outside.error is not None and outside.error.type == "outside_workspace"
        blocked = await s.call("browser_navigate", {"url": f"{other}/page/x"})
        assert (
            blocked.error is not None and blocked.error.type == "denied" and "blocked_origins" in blocked.text
        )
        # a page's own link to a blocked origin is stopped by the context's route
        await s.call("browser_navigate", {"url": f"{site}/page/a"})
        await s.call("browser_evaluate", {"script": f"document.querySelector('a').href = '{other}/page/x'"})
        clicked = await s.call("browser_click", {"selector": "a"})
        state = (await s.call("browser_get_state")).data
        assert not state["url"].startswith(other)
        assert "navigation refused" in clicked.text + str(state["notes"]), (clicked.text, state)
        assert "blocked_origins" in clicked.text + str(state["notes"])
        # without stealth the headless browser gives itself away
        agent = await s.call("browser_evaluate", {"script": "navigator.userAgent"})
        assert "HeadlessChrome" in agent.text
        assert (await s.call("browser_evaluate", {"script": "navigator.webdriver"})).text == "true"
        await s.call("browser_navigate", {"url": f"{site}/download"})
        await s.call("browser_click", {"selector": "a"})
        for _ in range(100):  # the download may start just after the click returns
            await s.peek("browser").settle_downloads(10)
            if (workspace / "got" / "report.txt").is_file():
                break
            await asyncio.sleep(0.1)
        assert (workspace / "got" / "report.txt").read_text() == "downloaded body\n"
