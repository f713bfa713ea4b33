"""Playwright errors as one-line failures that name the target and the way on."""

from __future__ import annotations

import re

from agenthost.errors import ToolFailure


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def describe_error(error: BaseException, target: str | None = None) -> ToolFailure:
    """A Playwright error as a one-line failure that names the target and the way on."""
    text = str(error)
    first = first_line(error)
    hint = "take browser_snapshot to see the page and its refs"
    on = f" {target}" if target else ""
    if "strict mode violation" in text:
        count = re.search(r"resolved to (\d+) elements", text)
        n = count.group(1) if count else "several"
        return ToolFailure(
            f"{target or 'the selector'} matches {n} elements; make it more specific, or {hint} and use a ref"
        )
    if type(error).__name__ == "TimeoutError" or ("Timeout" in first and "exceeded" in first):
        if "waiting for" in text and target:
            state = "is not visible, enabled and stable" if "element is" in text else "was not found"
            return ToolFailure(f"{target} {state} in time; {hint}", type="not_found")
        return ToolFailure(f"timed out{on}: {first}; {hint}", type="timeout")
    if "Target crashed" in text or "crash" in first.lower():
        return ToolFailure("the page crashed during the call; the next browser call opens a fresh tab")
    if "has been closed" in text or "Target closed" in text or "Browser closed" in text:
        return ToolFailure("the browser or tab closed during the call; call again to start a new one")
    if first.startswith(("Page.", "Locator.", "Frame.", "ElementHandle.", "Keyboard.", "Mouse.")):
        first = first.split(": ", 1)[-1]
    return ToolFailure(f"browser error{on}: {first}")
