"""``Host`` (plugins, registry, policy, audit) and ``Session`` (per-session
state, the front end that can ask the person)."""

from __future__ import annotations

import functools
import inspect
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agenthost.audit import AuditLog
from agenthost.config import CONFIG_NAME, Config
from agenthost.errors import ConfigError, Unavailable
from agenthost.plugins import PluginInfo, Plugins, split_names
from agenthost.policy import Policy
from agenthost.registry import Registry
from agenthost.tool import Tool
from agenthost.workspace import Workspace

if TYPE_CHECKING:
    from agenthost.results import ToolResult

log = logging.getLogger("agenthost")
T = TypeVar("T")


@functools.cache
def _executor() -> Callable[..., Any]:
    """``agenthost.executor.execute``, imported when something first runs: it
    needs asyncio, which listing tools does not (an import statement per call
    would cost ~2 us)."""
    from agenthost.executor import execute

    return execute


class Frontend:
    """What a front end (terminal, MCP client) can do for a session: ask the
    person. Each method returns None when it cannot ask."""

    async def ask_user(self, question: str, options: list[str] | None, multi_select: bool) -> Any:
        return None

    async def permission_request(self, tool: str, arguments: dict[str, Any], rule: str) -> bool | None:
        return None


class Session:
    """One conversation's state: background processes, browser context, todo
    list... Leaving it releases them."""

    def __init__(self, host: Host, id: str | None = None, frontend: Frontend | None = None) -> None:
        self.host = host
        self.id = id or os.urandom(6).hex()  # not uuid: it imports platform, costly at start-up
        self.frontend = frontend or Frontend()
        self._state: dict[str, Any] = {}
        self.closed = False
        self._started = False

    async def __aenter__(self) -> Session:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def start(self) -> None:
        if not self._started:
            self._started = True
            await self.host.plugins.broadcast("agenthost_session_start", session=self)

    async def call(
        self, name: str, arguments: dict[str, Any] | None = None, timeout: float | None = None
    ) -> ToolResult:
        if self.closed:
            from agenthost.results import ToolResult

            return ToolResult.failure("unavailable", "this session has ended; open a new one")
        return await _executor()(self.host, self, name, arguments, timeout)

    def state(self, key: str, factory: Callable[[], T]) -> T:
        if key not in self._state:
            self._state[key] = factory()
        return self._state[key]  # type: ignore[no-any-return]

    def peek(self, key: str) -> Any:
        return self._state.get(key)

    async def ask_user(
        self, question: str, options: list[str] | None = None, multi_select: bool = False
    ) -> Any:
        """The person's answer, through a hook or the front end; raises
        ``Unavailable`` when nobody can be asked."""
        answer = await self.host.plugins.first(
            "agenthost_ask_user",
            question=question,
            options=options,
            multi_select=multi_select,
            session=self,
        )
        if answer is None:
            answer = await self.frontend.ask_user(question, options, multi_select)
        if answer is None:
            raise Unavailable(
                "nobody can be asked here (no terminal, no MCP elicitation, no ask_user hook); "
                "decide yourself or say what you need in your reply"
            )
        return answer

    async def request_permission(self, tool: str, arguments: dict[str, Any], rule: str) -> bool | None:
        answer = await self.host.plugins.first(
            "agenthost_permission_request", tool=tool, arguments=arguments, rule=rule, session=self
        )
        if answer is None:
            answer = await self.frontend.permission_request(tool, arguments, rule)
        return None if answer is None else bool(answer)

    async def aclose(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.host.plugins.broadcast("agenthost_session_end", session=self)
        for key, value in reversed(list(self._state.items())):
            try:
                if hasattr(value, "aclose"):
                    await value.aclose()
                elif hasattr(value, "close"):
                    result = value.close()
                    if inspect.isawaitable(result):
                        await result
            except Exception as e:
                log.warning("session %s: closing %s failed: %s", self.id, key, e)
        self._state.clear()
        self.host._sessions.discard(self)


class Host:
    """Discovers and loads plugins, holds the registry, runs calls."""

    def __init__(
        self,
        workspace: str | os.PathLike[str] = ".",
        config: str | os.PathLike[str] | dict[str, Any] | Config | None = None,
        plugins: Iterable[str] | None = None,
        hooks: Iterable[Any] = (),
    ) -> None:
        root = Path(workspace).expanduser()
        if not root.is_dir():
            raise ConfigError(f"workspace {root} is not a folder")
        root = root.resolve()
        self.config = Config.load(root, config)
        protected = (root / CONFIG_NAME, self.config.state_dir) + (
            (self.config.path,) if self.config.path else ()
        )
        self.workspace = Workspace(root, restrict=self.config.host.restrict_to_workspace, protected=protected)
        self.registry = Registry()
        self.registry.listeners.append(self._announce)
        self.policy = Policy(self.config.policy, str(root), self.config.source)
        self.audit = AuditLog(self.config.state_dir / "audit") if self.config.audit.enabled else None
        self.plugins = Plugins()
        self._sessions: set[Session] = set()
        self._default: Session | None = None
        self._started = False
        self.closed = False
        self._load(plugins, hooks)

    def _load(self, plugins: Iterable[str] | None, hooks: Iterable[Any]) -> None:
        only = (
            list(plugins)
            if plugins is not None
            else (split_names(os.environ.get("AGENTHOST_PLUGINS")) or self.config.host.load or None)
        )
        disable = split_names(os.environ.get("AGENTHOST_DISABLE_PLUGINS")) + self.config.host.disable
        self.plugins.load_installed(only, disable)
        for obj in hooks:
            self.plugins.add(obj)
        self.plugins.register_tools(self.registry, self.config, self)

    # -- the registry ---------------------------------------------------------

    @property
    def tools(self) -> Mapping[str, Tool]:
        return self.registry

    @property
    def plugin_infos(self) -> list[PluginInfo]:
        self.registry.load_pending()  # deferred tools and their problems belong in the record
        return list(self.plugins.infos.values())

    def add_tool(self, tool: Tool, plugin: str, *, replace: bool = False) -> None:
        """Add a tool at run time; listeners and ``tools_changed`` hear of it."""
        self.registry.add(tool, plugin, replace=replace)
        info = self.plugins.infos.get(plugin)
        if info is not None and tool.name not in info.tools:
            info.tools.append(tool.name)

    def remove_tool(self, name: str) -> bool:
        tool = self.registry.remove(name)
        if tool is None:
            return False
        info = self.plugins.infos.get(tool.plugin)
        if info is not None and name in info.tools:
            info.tools.remove(name)
        return True

    def _announce(self, added: list[str], removed: list[str]) -> None:
        self.plugins.emit("agenthost_tools_changed", host=self, added=added, removed=removed)

    def definitions(self, format: str = "openai", names: Iterable[str] | None = None) -> list[dict[str, Any]]:
        from agenthost.formats import definitions

        tools = [self.registry[n] for n in names] if names is not None else list(self.registry.values())
        return definitions(tools, format)

    # -- sessions and calls ---------------------------------------------------

    def session(self, id: str | None = None, frontend: Frontend | None = None) -> Session:
        session = Session(self, id, frontend)
        self._sessions.add(session)
        return session

    async def call(
        self, name: str, arguments: dict[str, Any] | None = None, timeout: float | None = None
    ) -> ToolResult:
        """A call in the host's default session (closed with the host)."""
        if self._default is None or self._default.closed:
            self._default = self.session("default")
            await self._default.start()
        return await self._default.call(name, arguments, timeout)

    async def service(self, hook: str, **kwargs: Any) -> Any:
        """The first answer of a service hook (``run_command``, ``compact``...), or None."""
        return await self.plugins.first(f"agenthost_{hook}", **kwargs)

    # -- lifecycle --------------------------------------------------------------

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def start(self) -> None:
        if not self._started:
            self._started = True
            await self.plugins.broadcast("agenthost_host_start", host=self)

    async def aclose(self) -> None:
        if self.closed:
            return
        self.closed = True
        sessions = list(self._sessions)
        import asyncio  # here, not at the top: listing tools never needs the event loop

        await asyncio.gather(*(s.aclose() for s in sessions), return_exceptions=True)
        await self.plugins.broadcast("agenthost_host_shutdown", host=self)
        if self.audit is not None:
            self.audit.close()
