"""The browser tools (TOOLS.md, section browser), grouped by kind:

- ``tabs``: browser_launch, browser_close, browser_tabs
- ``history``: browser_navigate, browser_go_back, browser_go_forward, browser_reload
- ``elements``: browser_click, browser_type, browser_hover, browser_press_key, browser_scroll
- ``reading``: browser_snapshot, browser_get_dom, browser_get_state, browser_screenshot,
  browser_evaluate, browser_wait_for
"""

from __future__ import annotations

from agenthost_browser.tools.common import attach_pool, detach_pool, pool_of
from agenthost_browser.tools.elements import (
    browser_click,
    browser_hover,
    browser_press_key,
    browser_scroll,
    browser_type,
)
from agenthost_browser.tools.history import (
    browser_go_back,
    browser_go_forward,
    browser_navigate,
    browser_reload,
)
from agenthost_browser.tools.reading import (
    browser_evaluate,
    browser_get_dom,
    browser_get_state,
    browser_screenshot,
    browser_snapshot,
    browser_wait_for,
)
from agenthost_browser.tools.tabs import Viewport, browser_close, browser_launch, browser_tabs

ALL_TOOLS = (
    browser_launch,
    browser_navigate,
    browser_click,
    browser_type,
    browser_scroll,
    browser_hover,
    browser_press_key,
    browser_screenshot,
    browser_get_dom,
    browser_evaluate,
    browser_wait_for,
    browser_go_back,
    browser_go_forward,
    browser_reload,
    browser_get_state,
    browser_snapshot,
    browser_tabs,
    browser_close,
)

__all__ = ["ALL_TOOLS", "Viewport", "attach_pool", "detach_pool", "pool_of"]
