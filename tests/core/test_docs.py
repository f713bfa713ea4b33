"""docs/plugins.md documents every hook spec (as datasette checks its hooks)."""

from __future__ import annotations

import re
from pathlib import Path

from agenthost import hookspecs

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"


def hook_names() -> list[str]:
    return sorted(n for n in dir(hookspecs) if n.startswith("agenthost_"))


def test_every_hook_spec_has_a_section() -> None:
    sections = set(re.findall(r"^### (agenthost_\w+)$", DOC.read_text(), re.M))
    assert hook_names(), "no hook specs found"
    missing = [n for n in hook_names() if n not in sections]
    assert missing == [], f"hook specs without a section in docs/plugins.md: {missing}"
    stale = sorted(sections - set(hook_names()))
    assert stale == [], f"sections for hooks that do not exist: {stale}"


def test_every_hook_spec_has_a_docstring_for_each_parameter() -> None:
    import inspect

    for name in hook_names():
        spec = getattr(hookspecs, name)
        doc = inspect.getdoc(spec) or ""
        for param in inspect.signature(spec).parameters:
            assert f":param {param}:" in doc, f"{name}: parameter {param} is not described"
