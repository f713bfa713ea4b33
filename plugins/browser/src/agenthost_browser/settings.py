"""The ``[plugins.browser]`` table."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from agenthost import Param
from agenthost.config import Section


class BrowserSettings(Section):
    """Settings of the browser plugin (every key optional)."""

    executable_path: str | None = None  # a Chromium/Chrome binary; wins over discovery
    channel: str | None = None  # Playwright channel ("chrome", "msedge", ...) instead of a path
    headless: bool = True  # the shared browser's mode; browser_launch may ask for the other
    stealth: bool = True  # playwright-stealth evasions on every context
    args: list[str] = field(default_factory=list)  # extra Chromium flags
    viewport_width: Annotated[int, Param(ge=200, le=7680)] = 1280
    viewport_height: Annotated[int, Param(ge=200, le=4320)] = 720
    user_agent: str | None = None
    locale: str | None = None
    action_timeout_ms: Annotated[int, Param(ge=100)] = 5000  # clicks, typing, hovering
    navigation_timeout_ms: Annotated[int, Param(ge=1000)] = 30000
    max_snapshot_chars: Annotated[int, Param(ge=500)] = 40000
    max_dom_chars: Annotated[int, Param(ge=500)] = 40000
    max_evaluate_chars: Annotated[int, Param(ge=100)] = 20000
    allow_file_urls: bool = False  # file:// inside the workspace only, and only when on
    allowed_origins: list[str] = field(default_factory=list)  # empty: every origin
    blocked_origins: list[str] = field(default_factory=list)
    downloads_dir: str = "downloads"  # relative to the workspace
    # every http(s) request the browser makes (navigations, redirects, frames,
    # subresources) checked by the core SSRF guard; [net] allow applies
    ssrf_guard: bool = False
