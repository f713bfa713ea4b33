"""The ``[plugins.browser]`` table."""

from __future__ import annotations

from pydantic import Field

from agenthost.config import Section


class BrowserSettings(Section):
    """Settings of the browser plugin (every key optional)."""

    executable_path: str | None = None  # a Chromium/Chrome binary; wins over discovery
    channel: str | None = None  # Playwright channel ("chrome", "msedge", ...) instead of a path
    headless: bool = True  # the shared browser's mode; browser_launch may ask for the other
    stealth: bool = True  # playwright-stealth evasions on every context
    args: list[str] = Field(default_factory=list)  # extra Chromium flags
    viewport_width: int = Field(1280, ge=200, le=7680)
    viewport_height: int = Field(720, ge=200, le=4320)
    user_agent: str | None = None
    locale: str | None = None
    action_timeout_ms: int = Field(5000, ge=100)  # clicks, typing, hovering
    navigation_timeout_ms: int = Field(30000, ge=1000)
    max_snapshot_chars: int = Field(40000, ge=500)
    max_dom_chars: int = Field(40000, ge=500)
    max_evaluate_chars: int = Field(20000, ge=100)
    allow_file_urls: bool = False  # file:// inside the workspace only, and only when on
    allowed_origins: list[str] = Field(default_factory=list)  # empty: every origin
    blocked_origins: list[str] = Field(default_factory=list)
    downloads_dir: str = "downloads"  # relative to the workspace
    # every http(s) request the browser makes (navigations, redirects, frames,
    # subresources) checked by the core SSRF guard; [net] allow applies
    ssrf_guard: bool = False
