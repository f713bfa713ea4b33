"""The live mapping of tool names to tools.

Tools come from ``register_tools`` hooks at start and may be added or removed
at run time (JS tools, mounted MCP servers); every change is announced to the
listeners the host attached.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping

from agenthost.errors import DuplicateToolError
from agenthost.tool import Tool

ChangeListener = Callable[[list[str], list[str]], None]


class Registry(Mapping[str, Tool]):
    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}
        self.listeners: list[ChangeListener] = []

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def add(self, tool: Tool, plugin: str, *, replace: bool = False, announce: bool = True) -> None:
        existing = self._tools.get(tool.name)
        if existing is not None and not (replace and existing.plugin == plugin):
            raise DuplicateToolError(
                f"tool {tool.name!r} from plugin {plugin!r} is already registered by "
                f"plugin {existing.plugin!r}"
            )
        tool.plugin = plugin
        self._tools[tool.name] = tool
        if announce:
            self._announce([tool.name], [])

    def remove(self, name: str, *, announce: bool = True) -> Tool | None:
        tool = self._tools.pop(name, None)
        if tool is not None and announce:
            self._announce([], [name])
        return tool

    def of_plugin(self, plugin: str) -> list[str]:
        return [name for name, t in self._tools.items() if t.plugin == plugin]

    def closest(self, name: str, n: int = 3) -> list[str]:
        return difflib.get_close_matches(name, list(self._tools), n=n, cutoff=0.5)

    def _announce(self, added: list[str], removed: list[str]) -> None:
        for listener in list(self.listeners):
            listener(added, removed)
