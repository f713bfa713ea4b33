"""JavaScript tools for agenthost: tools written and created at run time in a sandboxed engine.

``.js`` / ``.tool`` files in the workspace's ``tools/`` folder load at start;
``create_tool`` makes new ones (saved there, added to the registry at once),
``list_tools`` and ``delete_tool`` manage them. Each call runs in a fresh
QuickJS context with memory and time limits (see ``engine``); the script API
(``hostapi``) is guarded by the tool's permissions under the
``[plugins.js.permissions]`` ceiling and by the host's own rules.

Listing tools imports this module and the settings only: the engine, the
script code and asyncio are imported inside the functions that use them (the
first call, or start-up when the tools folder holds tool files).
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost import hookimpl, tool
from agenthost.errors import Denied, InvalidArguments, NotFound, ToolFailure
from agenthost_js.settings import PERMISSIONS, JsSettings

if TYPE_CHECKING:
    from agenthost import ToolContext
    from agenthost_js.scripts import ScriptSpec

PLUGIN = "js"
SUFFIXES = (".js", ".tool")

CREATE_EXAMPLE: dict[str, Any] = {
    "name": "word_count",
    "description": "Count the words in a text",
    "code": "function execute(params) {\n"
    "    var words = params.text.split(/\\s+/).filter(Boolean);\n"
    "    return JSON.stringify({words: words.length});\n"
    "}",
    "parameters": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text"}},
        "required": ["text"],
    },
    "permissions": {},
}


class JsTools:
    """One host's JS tools: the loaded specs and the tools folder."""

    def __init__(self, host: Any, settings: JsSettings) -> None:
        self.host = host
        self.settings = settings
        folder = Path(settings.tools_dir).expanduser()
        self.folder = folder if folder.is_absolute() else Path(host.workspace.root) / folder
        self.specs: dict[str, ScriptSpec] = {}
        self._lock = threading.Lock()

    @property
    def workspace(self) -> Path:
        return Path(self.host.workspace.root)

    def load_folder(self, register: Any) -> None:
        """Load every tool file; a broken one becomes a problem and the others load."""
        files = tool_files(self.folder)
        if not files:
            return
        from agenthost_js.engine import ScriptError
        from agenthost_js.scripts import make_tool, spec_from_source

        for path in files:
            shown = self._shown(path)
            try:
                source = path.read_text(encoding="utf-8")
                spec = spec_from_source(source, self.settings, self.workspace, path, path.stem)
            except ScriptError as e:
                where = f" line {e.line}" if e.line else ""
                register.problem(f"{shown}{where}: {e.message}")
                continue
            except (ToolFailure, OSError, UnicodeDecodeError, ValueError) as e:
                register.problem(f"{shown}: {getattr(e, 'message', None) or e}")
                continue
            if spec.name in self.specs:
                register.problem(
                    f"{shown}: tool {spec.name!r} is already defined by {self._shown(self.specs[spec.name].path)}"
                )
                continue
            try:
                register(make_tool(spec, self.settings))
            except Exception as e:  # a name another plugin took first
                register.problem(f"{shown}: {e}")
                continue
            self.specs[spec.name] = spec

    def _shown(self, path: Path | None) -> str:
        if path is None:
            return "(no file)"
        try:
            return str(path.relative_to(self.workspace))
        except ValueError:
            return str(path)


_hosts: weakref.WeakKeyDictionary[Any, JsTools] = weakref.WeakKeyDictionary()


def _tools_of(ctx: ToolContext) -> JsTools:
    state = _hosts.get(ctx.host)
    if state is None:
        raise ToolFailure("the js plugin did not load for this host; see `agenthost plugins`")
    return state


# -- the three management tools -------------------------------------------------------


@tool(level="write")
async def create_tool(
    name: str,
    description: str,
    code: str,
    parameters: dict[str, Any] | None = None,
    permissions: dict[str, bool] | None = None,
    overwrite: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> dict[str, Any]:
    """Create a JavaScript tool that is available at once and saved in the workspace's tools folder.

    The code must define `function execute(params)`, which returns a string
    (often JSON.stringify(...)) or a JSON value. Scripts can use console,
    JSON.pretty, Base64, utils, and, with permissions, fs (fileRead, fileWrite,
    fileDelete), http (network) and shell (exec). Run list_tools for an example.

    :param name: tool name: 2-50 letters, digits or '_', not starting with a digit
    :param description: what the tool does, for the model that will call it
    :param code: JavaScript that defines execute(params)
    :param parameters: JSON Schema of the tool's arguments (an object schema)
    :param permissions: e.g. {"fileRead": true, "network": true}; keys fileRead, fileWrite, fileDelete, network, exec
    :param overwrite: replace a tool made earlier with create_tool
    """
    import asyncio

    from agenthost_js.engine import ScriptError
    from agenthost_js.scripts import (
        check_name,
        check_parameters,
        check_permissions,
        created_source,
        make_tool,
        spec_from_source,
    )

    state = _tools_of(ctx)
    check_name(name)
    if not description.strip():
        raise InvalidArguments("description must say what the tool does")
    schema = check_parameters(parameters)
    declared = check_permissions(permissions)
    existing = state.specs.get(name)
    other = ctx.host.tools.get(name)
    if existing is None and other is not None:
        raise InvalidArguments(f"{name!r} is a built-in tool of plugin {other.plugin!r}; choose another name")
    if existing is not None and not overwrite:
        raise InvalidArguments(f"a JS tool named {name!r} already exists; pass overwrite: true to replace it")
    if existing is not None and not existing.created:
        raise Denied(
            f"{name!r} was written by hand in {state._shown(existing.path)}; only tools made with "
            "create_tool can be replaced; choose another name or edit that file"
        )
    source = created_source(name, description, schema, declared, code)
    offset = source[: source.rindex(code.rstrip())].count("\n")  # header lines before the code
    path = state.folder / f"{name}.js"
    try:
        spec = await asyncio.to_thread(spec_from_source, source, state.settings, state.workspace, path, name)
    except ScriptError as e:
        line = f" (line {e.line - offset})" if e.line and e.line > offset else ""
        raise InvalidArguments(f"the code does not run: {e.message}{line}; fix it and try again") from None
    if spec.name != name:
        raise InvalidArguments("the code sets its own `tool` object; leave it out (create_tool writes it)")
    await asyncio.to_thread(_save, path, source)
    if existing is not None and existing.path and existing.path != path:
        existing.path.unlink(missing_ok=True)
    ctx.host.add_tool(make_tool(spec, state.settings), plugin=PLUGIN, replace=existing is not None)
    state.specs[name] = spec
    refused = {
        p: f"[plugins.js.permissions] {PERMISSIONS[p]} = false"
        for p, v in declared.items()
        if v and p not in spec.granted
    }
    answer: dict[str, Any] = {
        "created": name,
        "replaced": existing is not None,
        "file": state._shown(path),
        "level": spec.level,
        "granted": sorted(spec.granted),
    }
    if refused:
        answer["not_granted"] = refused
        answer["note"] = "calls that need a permission that is not granted fail with a denial"
    return answer


@tool(level="read")
def list_tools(ctx: ToolContext = None) -> dict[str, Any]:  # type: ignore[assignment]
    """List the available tools: built-in ones and JavaScript tools (from the tools folder or create_tool), with an example for create_tool."""
    state = _tools_of(ctx)
    builtin = [
        {"name": t.name, "plugin": t.plugin, "description": (t.description.strip().splitlines() or [""])[0]}
        for name, t in sorted(ctx.host.tools.items())
        if name not in state.specs
    ]
    dynamic = [
        {
            "name": spec.name,
            "description": spec.description,
            "file": state._shown(spec.path),
            "created": spec.created,
            "level": spec.level,
            "permissions": spec.permissions,
            "granted": sorted(spec.granted),
            "parameters": spec.parameters,
        }
        for spec in sorted(state.specs.values(), key=lambda s: s.name)
    ]
    return {"builtin_tools": builtin, "dynamic_tools": dynamic, "create_example": CREATE_EXAMPLE}


@tool(level="write", destructive=True)
def delete_tool(name: str, ctx: ToolContext = None) -> dict[str, Any]:  # type: ignore[assignment]
    """Delete a JavaScript tool made with create_tool (its file too). Built-in tools and hand-written tool files cannot be deleted.

    :param name: the tool's name
    """
    state = _tools_of(ctx)
    spec = state.specs.get(name)
    if spec is None:
        other = ctx.host.tools.get(name)
        if other is not None:
            raise Denied(
                f"{name!r} is a built-in tool of plugin {other.plugin!r}; only tools made with create_tool can be deleted"
            )
        raise NotFound(f"no JS tool named {name!r}; list_tools shows the tools")
    if not spec.created:
        raise Denied(
            f"{name!r} was written by hand in {state._shown(spec.path)}; only tools made with create_tool "
            "can be deleted (remove the file yourself if you mean it)"
        )
    with state._lock:
        if spec.path is not None:
            spec.path.unlink(missing_ok=True)
        ctx.host.remove_tool(name)
        state.specs.pop(name, None)
    return {"deleted": name, "file": state._shown(spec.path)}


def tool_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


def _save(path: Path, source: str) -> None:
    from agenthost.files import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, source.encode("utf-8"))


# -- hooks ------------------------------------------------------------------------------


# tryfirst: the core registers plugins in get_hookimpls() order, where tryfirst
# implementations come last, so JS files register after every other plugin's
# tools and a file can never take (and break) a built-in tool's name.
@hookimpl(tryfirst=True)
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section(PLUGIN, JsSettings)
    if not settings.enabled:
        return
    register(create_tool)
    register(list_tools)
    register(delete_tool)
    state = JsTools(host, settings)
    _hosts[host] = state
    state.load_folder(register)


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    rows = []
    try:
        import quickjs

        engine_ok, detail = True, "quickjs-ng (QuickJS) is importable"
    except ImportError as e:
        engine_ok, detail = False, f"quickjs-ng is missing: {e}"
    rows.append({"name": "js engine", "ok": engine_ok, "detail": detail, "fix": "pip install quickjs-ng"})
    if engine_ok:
        import quickjs

        from agenthost_js.engine import interrupts

        probe = interrupts.install(quickjs.Context(), 0)
        rows.append(
            {
                "name": "js time limit",
                "ok": probe,
                "detail": "scripts are interrupted at their deadline"
                if probe
                else f"scripts cannot be interrupted: {interrupts.error}",
                "fix": "pip install 'quickjs-ng>=0.10,<0.18'" if not probe else "",
            }
        )
    return rows
