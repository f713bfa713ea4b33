"""Registration, schemas, navigation rules and browser discovery (no Chromium needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

import agenthost_browser
from agenthost import Host
from agenthost.errors import Denied, OutsideWorkspace
from agenthost_browser import discovery
from agenthost_browser.navigation import NavigationRules, normalize_url
from agenthost_browser.settings import BrowserSettings

SEED_TOOLS = [
    "browser_launch",
    "browser_navigate",
    "browser_click",
    "browser_type",
    "browser_scroll",
    "browser_hover",
    "browser_press_key",
    "browser_screenshot",
    "browser_get_dom",
    "browser_evaluate",
    "browser_wait_for",
    "browser_go_back",
    "browser_go_forward",
    "browser_reload",
    "browser_get_state",
]
EXTRA_TOOLS = ["browser_snapshot", "browser_tabs", "browser_close"]


async def test_all_tools_registered_with_schemas(make_host) -> None:  # type: ignore[no-untyped-def]
    host = await make_host(plugins=["browser"])
    assert sorted(host.tools) == sorted(SEED_TOOLS + EXTRA_TOOLS)
    for name in SEED_TOOLS + EXTRA_TOOLS:
        tool = host.tools[name]
        assert tool.level == "network", name
        assert tool.plugin == "browser"
        assert tool.description, name
        assert tool.input_schema["type"] == "object"
    props = {name: host.tools[name].input_schema.get("properties", {}) for name in host.tools}
    required = {name: set(host.tools[name].input_schema.get("required", [])) for name in host.tools}
    assert props["browser_navigate"]["url"]["type"] == "string" and required["browser_navigate"] == {"url"}
    assert {"headless", "viewport"} <= set(props["browser_launch"])
    viewport = host.tools["browser_launch"].input_schema["$defs"]["Viewport"]
    assert set(viewport["required"]) == {"width", "height"}
    for name in ("browser_click", "browser_hover"):
        assert {"selector", "ref", "x", "y"} == set(props[name]), name
        assert required[name] == set()
    assert {"selector", "ref", "text", "delay", "submit"} == set(props["browser_type"])
    assert required["browser_type"] == {"text"}
    assert props["browser_scroll"]["direction"]["enum"] == ["up", "down", "to_top", "to_bottom"]
    assert props["browser_scroll"]["amount"]["default"] == 500
    assert required["browser_press_key"] == {"key"} and "modifiers" in props["browser_press_key"]
    assert {"path", "selector", "full_page"} == set(props["browser_screenshot"])
    assert props["browser_get_dom"]["max_depth"]["default"] == 5
    assert required["browser_evaluate"] == {"script"}
    assert {"selector", "condition", "text", "timeout"} == set(props["browser_wait_for"])
    assert props["browser_wait_for"]["timeout"]["default"] == 10000
    assert {"selector", "max_depth"} == set(props["browser_snapshot"])
    assert props["browser_tabs"]["action"]["enum"] == ["list", "new", "select", "close"]
    for name in (
        "browser_go_back",
        "browser_go_forward",
        "browser_reload",
        "browser_get_state",
        "browser_close",
    ):
        assert props[name] == {}, name
    assert host.tools["browser_evaluate"].destructive
    assert host.tools["browser_snapshot"].read_only and not host.tools["browser_click"].read_only
    assert host.tools["browser_navigate"].match == ("url",)
    assert host.tools["browser_screenshot"].path_args == ("path",)
    # every definition format renders
    for fmt in ("openai", "anthropic", "mcp"):
        assert len(host.definitions(format=fmt)) == len(SEED_TOOLS + EXTRA_TOOLS)


async def test_bad_config_names_the_key(workspace: Path) -> None:
    for table, key in (
        ({"headles": False}, "plugins.browser.headles"),
        ({"max_snapshot_chars": "x"}, "max_snapshot_chars"),
    ):
        host = Host(workspace=workspace, config={"plugins": {"browser": table}}, plugins=["browser"])
        info = {i.name: i for i in host.plugin_infos}["browser"]
        assert info.status == "failed" and key in (info.error or "")
        assert "browser_navigate" not in host.tools
        await host.aclose()


def test_normalize_url() -> None:
    assert normalize_url("example.com/a") == "https://example.com/a"
    assert normalize_url("localhost:8000/x") == "http://localhost:8000/x"
    assert normalize_url("127.0.0.1:5000") == "http://127.0.0.1:5000"
    assert normalize_url("example.com:8443/") == "https://example.com:8443/"
    assert normalize_url("https://a.b/") == "https://a.b/"
    assert normalize_url("about:blank") == "about:blank"
    assert normalize_url("data:text/html,<p>1</p>") == "data:text/html,<p>1</p>"


def test_navigation_rules(tmp_path: Path) -> None:
    def resolve(path: str, write: bool = False) -> Path:
        real = Path(path).resolve()
        if not str(real).startswith(str(tmp_path)):
            raise OutsideWorkspace(f"{path} is outside")
        return real

    rules = NavigationRules(BrowserSettings(), resolve)
    assert rules.check("https://example.com") == "https://example.com"
    for url in ("file:///etc/passwd", "javascript:alert(1)", "chrome://crash", "view-source:https://a.b"):
        with pytest.raises(Denied):
            rules.check(url)
    files = NavigationRules(BrowserSettings(allow_file_urls=True), resolve)
    assert files.check(f"file://{tmp_path}/a.html").startswith("file://")
    with pytest.raises(OutsideWorkspace):
        files.check("file:///etc/passwd")
    listed = NavigationRules(
        BrowserSettings(
            allowed_origins=["*.example.com", "http://127.0.0.1:8080"], blocked_origins=["ads.example.com"]
        ),
        resolve,
    )
    assert listed.refusal("https://www.example.com/x") is None
    assert listed.refusal("https://example.com/") is None
    assert listed.refusal("http://127.0.0.1:8080/") is None
    assert "allowed_origins" in (listed.refusal("http://127.0.0.1:8081/") or "")
    assert "allowed_origins" in (listed.refusal("https://evil.com/") or "")
    assert "ads.example.com" in (listed.refusal("https://ads.example.com/") or "")
    assert listed.refusal("data:text/html,x") is None


def test_discovery_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "pw" / "chromium-1200" / "chrome-linux64"
    fake.mkdir(parents=True)
    chrome = fake / "chrome"
    chrome.write_text("#!/bin/sh\n")
    chrome.chmod(0o755)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "pw"))
    if discovery.sys.platform.startswith("linux"):
        assert discovery.find_browser(BrowserSettings()) == discovery.BrowserBinary("playwright", str(chrome))
    assert discovery.find_browser(BrowserSettings(executable_path=str(chrome))).source == "config"
    assert discovery.find_browser(BrowserSettings(channel="chrome")).channel == "chrome"
    with pytest.raises(discovery.BrowserNotFound, match="executable_path"):
        discovery.find_browser(BrowserSettings(executable_path=str(tmp_path / "missing")))


@pytest.fixture
def no_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without any Chromium: empty PATH, no Playwright browsers, no usual locations."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "no-browsers"))
    monkeypatch.setattr(discovery, "_SYSTEM_PATHS", {})


async def test_without_chromium_tools_say_how_to_get_one(make_host, no_chromium) -> None:  # type: ignore[no-untyped-def]
    host = await make_host(plugins=["browser"])
    for name, args in (("browser_navigate", {"url": "https://example.com"}), ("browser_snapshot", {})):
        result = await host.call(name, args)
        assert result.error is not None and result.error.type == "unavailable"
        assert result.text == discovery.HOW_TO_GET_ONE
        assert "\n" not in result.text and "playwright install chromium" in result.text
    rows = agenthost_browser.agenthost_doctor(host.config)
    chromium = next(r for r in rows if r["name"] == "browser: chromium")
    assert chromium["ok"] is False and "playwright install chromium" in chromium["fix"]
    assert chromium["detail"] == discovery.HOW_TO_GET_ONE


def test_doctor_reports_the_browser_found(workspace: Path) -> None:
    from agenthost.config import Config

    rows = agenthost_browser.agenthost_doctor(Config.load(workspace, {}))
    names = {r["name"] for r in rows}
    assert {"browser: playwright", "browser: chromium", "browser: stealth"} <= names
    try:
        binary = discovery.find_browser(BrowserSettings())
    except discovery.BrowserNotFound:
        pytest.skip(reason="no Chromium on this machine")
    chromium = next(r for r in rows if r["name"] == "browser: chromium")
    assert chromium["ok"] and binary.describe() == chromium["detail"]
