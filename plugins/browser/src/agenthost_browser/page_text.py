"""What the model reads of a page: the accessibility snapshot and a simplified DOM,
both capped with a note of what was cut."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from agenthost.errors import Unavailable

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

SIMPLIFIED_DOM = r"""
({ sel, maxDepth }) => {
  const KEEP = ["id", "name", "type", "href", "src", "alt", "placeholder", "value", "role",
                "aria-label", "title", "for", "action", "method"];
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "svg"]);
  function attrs(el) {
    let out = "";
    for (const name of KEEP) {
      let v = el.getAttribute(name);
      if (v === null || v === "") continue;
      if (v.length > 80) v = v.slice(0, 77) + "...";
      out += ` ${name}="${v.replace(/"/g, "&quot;")}"`;
    }
    if (typeof el.className === "string" && el.className.trim()) {
      out += ` class="${el.className.trim().split(/\s+/).slice(0, 4).join(" ")}"`;
    }
    return out;
  }
  function walk(el, depth, indent, lines) {
    if (SKIP.has(el.tagName)) return;
    const tag = el.tagName.toLowerCase();
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim())
      .filter(Boolean)
      .join(" ");
    const text = own.length > 100 ? own.slice(0, 97) + "..." : own;
    const kids = Array.from(el.children);
    if (depth >= maxDepth && kids.length) {
      lines.push(`${indent}<${tag}${attrs(el)}>${text} ... (${kids.length} children)`);
      return;
    }
    lines.push(`${indent}<${tag}${attrs(el)}>${text}`);
    for (const kid of kids) walk(kid, depth + 1, indent + "  ", lines);
  }
  const root = sel ? document.querySelector(sel) : document.body || document.documentElement;
  if (!root) return null;
  const lines = [];
  walk(root, 1, "", lines);
  return lines.join("\n");
}
"""


def cap_text(text: str, limit: int, setting: str, narrower: str) -> str:
    """``text`` cut at a line boundary under ``limit``, with a note of what was cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    if cut <= 0:
        cut = limit
    kept = text[:cut]
    shown_lines = kept.count("\n") + 1
    total_lines = text.count("\n") + 1
    return (
        f"{kept}\n[... cut: showed {len(kept):,} of {len(text):,} characters "
        f"({shown_lines:,} of {total_lines:,} lines; {setting}={limit:,}); {narrower}]"
    )


_ARIA_HAS_MODE: bool | None = None


def _aria_supports_ai_mode(locator: Locator) -> bool:
    global _ARIA_HAS_MODE
    if _ARIA_HAS_MODE is None:
        _ARIA_HAS_MODE = "mode" in inspect.signature(locator.aria_snapshot).parameters
    return _ARIA_HAS_MODE


async def aria_snapshot(page: Page, selector: str | None, max_depth: int | None) -> str:
    """The page's (or one element's) accessibility tree with ``[ref=eN]`` refs."""
    locator = page.locator(selector or "body")
    if not _aria_supports_ai_mode(locator):
        raise Unavailable(
            "browser_snapshot needs a Playwright with AI snapshots (1.55 or newer): pip install -U playwright"
        )
    kwargs: dict[str, Any] = {"mode": "ai"}
    if max_depth is not None:
        kwargs["depth"] = max_depth
    if selector is None:
        return str(await page.aria_snapshot(**kwargs))
    if await locator.count() == 0:
        from agenthost.errors import NotFound

        raise NotFound(
            f"selector {selector!r} matches nothing on {page.url}; take browser_snapshot without a selector"
        )
    return str(await locator.first.aria_snapshot(**kwargs))
