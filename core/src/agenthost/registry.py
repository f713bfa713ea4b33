"""The live mapping of tool names to tools.

Tools come from ``register_tools`` hooks at start and may be added or removed
at run time (JS tools, mounted MCP servers); every change is announced to the
listeners the host attached. A plugin may also defer its tools to a loader
(mounted MCP servers start only when needed): loaders run, once, the first
time the tools are listed or a name is looked up that is not known yet, so a
call of a known tool never pays for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping

from agenthost.errors import DuplicateToolError
from agenthost.tool import Tool

ChangeListener = Callable[[list[str], list[str]], None]


class Registry(Mapping[str, Tool]):
    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}
        self.listeners: list[ChangeListener] = []
        self._pending: list[Callable[[], None]] = []
        self._loading = threading.RLock()  # a loader may list tools itself

    def __getitem__(self, name: str) -> Tool:
        tool = self._tools.get(name)
        if tool is None and self._pending:
            self.load_pending()
            tool = self._tools.get(name)
        if tool is None:
            raise KeyError(name)
        return tool

    def __iter__(self) -> Iterator[str]:
        self.load_pending()
        return iter(list(self._tools))

    def __len__(self) -> int:
        self.load_pending()
        return len(self._tools)

    def known(self, name: str) -> Tool | None:
        """The tool if it is registered already; runs no deferred loader."""
        return self._tools.get(name)

    @property
    def has_pending(self) -> bool:
        return bool(self._pending)

    def defer(self, loader: Callable[[], None]) -> None:
        self._pending.append(loader)

    def load_pending(self) -> None:
        """Run the deferred loaders (blocking; call it in a thread from async code)."""
        if not self._pending:
            return
        with self._loading:
            while self._pending:
                self._pending.pop(0)()

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
        import difflib

        return difflib.get_close_matches(name, list(self), n=n, cutoff=0.5)

    def _announce(self, added: list[str], removed: list[str]) -> None:
        for listener in list(self.listeners):
            listener(added, removed)
