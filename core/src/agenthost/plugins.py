"""Plugin discovery and hook calls that survive bad plugins.

Entry points are listed without importing anything (as flake8's finder does),
then each plugin is imported and asked for its tools inside its own guard. A
plugin that fails to import, raises in a hook, or registers a name already
taken becomes a failure record; the others keep working.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import Distribution, EntryPoint, entry_points
from typing import Any, Literal

import pluggy

from agenthost import hookspecs
from agenthost.registry import Registry
from agenthost.tool import Tool, tool

GROUP = "agenthost"
log = logging.getLogger("agenthost.plugins")


@dataclass
class PluginInfo:
    name: str
    dist: Distribution | None = field(default=None, repr=False)  # None: registered in process
    status: Literal["loaded", "failed"] = "loaded"
    error: str | None = None
    tools: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    # Read on demand: parsing each distribution's metadata costs more than
    # the entry-point scan itself, and listing tools never shows it.
    @property
    def distribution(self) -> str | None:
        return self.dist.metadata["Name"] if self.dist else None

    @property
    def version(self) -> str | None:
        return self.dist.version if self.dist else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "status": self.status,
            "error": self.error,
            "tools": self.tools,
            "problems": self.problems,
        }


class Registrar:
    """The ``register`` callback handed to one plugin's ``register_tools``."""

    def __init__(self, registry: Registry, plugin: str, info: PluginInfo) -> None:
        self._registry = registry
        self._plugin = plugin
        self._info = info

    def __call__(self, obj: Tool | Any, **options: Any) -> Tool:
        item = obj if isinstance(obj, Tool) else tool(obj, **options)
        self._registry.add(item, self._plugin, announce=False)
        return item

    def problem(self, text: str) -> None:
        self._info.problems.append(text)

    def deferred(self, loader: Callable[[Registrar], None]) -> None:
        """Register tools later: ``loader(register)`` runs the first time the
        tools are listed or an unknown name is looked up. A loader that raises
        becomes one of the plugin's problems."""

        def run() -> None:
            try:
                loader(self)
            except Exception as e:
                self.problem(f"loading tools failed: {one_line(e)}")
            self._info.tools = self._registry.of_plugin(self._plugin)

        self._registry.defer(run)


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    detail = text[0] if text else ""
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


def split_names(value: str | None) -> list[str]:
    return [n.strip() for n in (value or "").split(",") if n.strip()]


class Plugins:
    """The pluggy manager plus the record of what loaded and what failed."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager("agenthost")
        self.pm.add_hookspecs(hookspecs)
        self.infos: dict[str, PluginInfo] = {}

    def load_installed(self, only: list[str] | None, disable: Iterable[str]) -> None:
        found = sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
        blocked = set(disable)
        names = {ep.name for ep in found}
        for ep in found:
            if (only is not None and ep.name not in only) or ep.name in blocked:
                continue
            self._load(ep)
        for missing in [n for n in (only or []) if n not in names and n not in blocked]:
            self.infos[missing] = PluginInfo(
                missing,
                status="failed",
                error=f"no installed plugin is named {missing!r} "
                f"(installed: {', '.join(sorted(names)) or 'none'})",
            )

    def _load(self, ep: EntryPoint) -> None:
        info = PluginInfo(ep.name, ep.dist)
        self.infos[ep.name] = info
        try:
            self.pm.register(ep.load(), name=ep.name)
        except BaseException as e:  # a plugin's import may even call sys.exit
            if isinstance(e, KeyboardInterrupt):
                raise
            self.fail(ep.name, f"failed to import: {one_line(e)}")

    def add(self, obj: Any, name: str | None = None) -> str:
        """Register an in-process hook object (``Host(hooks=[...])``)."""
        name = name or getattr(obj, "__name__", None) or f"{type(obj).__name__}-{id(obj):x}"
        self.pm.register(obj, name=name)
        self.infos.setdefault(name, PluginInfo(name))
        return name

    def fail(self, name: str, error: str, registry: Registry | None = None) -> None:
        info = self.infos.setdefault(name, PluginInfo(name))
        info.status, info.error = "failed", error
        log.warning("plugin %s: %s", name, error)
        if registry is not None:
            for tool_name in registry.of_plugin(name):
                registry.remove(tool_name, announce=False)
        info.tools = []
        if self.pm.get_plugin(name) is not None:
            self.pm.unregister(name=name)

    def register_tools(self, registry: Registry, config: Any, host: Any) -> None:
        for impl in self.pm.hook.agenthost_register_tools.get_hookimpls():
            name = impl.plugin_name
            info = self.infos.setdefault(name, PluginInfo(name))
            try:
                registrar = Registrar(registry, name, info)
                impl.function(**_arguments(impl, register=registrar, config=config, host=host))
            except Exception as e:
                self.fail(name, f"register_tools failed: {one_line(e)}", registry)
                continue
            info.tools = registry.of_plugin(name)

    def _impls(self, hook: str) -> list[Any]:
        # pluggy calls the last registered first; keep that order
        return list(reversed(getattr(self.pm.hook, hook).get_hookimpls()))

    def has(self, hook: str) -> bool:
        return bool(getattr(self.pm.hook, hook).get_hookimpls())

    def emit(self, hook: str, **kwargs: Any) -> None:
        """Call every implementation of an event hook; one that raises is logged."""
        for impl in self._impls(hook):
            _guarded(impl, hook, kwargs)

    async def broadcast(self, hook: str, **kwargs: Any) -> None:
        """Like ``emit``, awaiting implementations that return awaitables."""
        for impl in self._impls(hook):
            value = _guarded(impl, hook, kwargs)
            if inspect.isawaitable(value):
                try:
                    await value
                except Exception as e:
                    _log_failure(impl, hook, e)

    async def first(self, hook: str, **kwargs: Any) -> Any:
        """The first non-None answer of a service hook (awaited), or None."""
        for impl in self._impls(hook):
            value = impl.function(**_arguments(impl, **kwargs))
            if inspect.isawaitable(value):
                value = await value
            if value is not None:
                return value
        return None

    def collect(self, hook: str, **kwargs: Any) -> list[Any]:
        """Every implementation's answer to a list-returning hook, flattened."""
        items: list[Any] = []
        for impl in self._impls(hook):
            items.extend(_guarded(impl, hook, kwargs) or [])
        return items


def _guarded(impl: Any, hook: str, kwargs: dict[str, Any]) -> Any:
    """One implementation's answer, or None (logged) when it raises."""
    try:
        return impl.function(**_arguments(impl, **kwargs))
    except Exception as e:
        _log_failure(impl, hook, e)
        return None


def _log_failure(impl: Any, hook: str, error: Exception) -> None:
    log.warning("plugin %s: %s raised %s", impl.plugin_name, hook, one_line(error))


def _arguments(impl: Any, **available: Any) -> dict[str, Any]:
    return {name: available[name] for name in impl.argnames}
