"""JS tools: their definitions (seed 004's ``var tool = {...}; function
execute(params) {...}``), checks, files, and running them in the sandbox."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from agenthost.errors import InvalidArguments, ToolFailure
from agenthost.results import ErrorType, JsonBlock, TextBlock
from agenthost.tool import Tool
from agenthost_js.engine import Run, ScriptError, pool, run_script
from agenthost_js.hostapi_bridge import OPS, HostLink
from agenthost_js.settings import PERMISSIONS, JsSettings

if TYPE_CHECKING:
    from agenthost.context import ToolContext
    from agenthost.results import Block

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{1,49}$")
CREATED_MARK = "// agenthost: created by create_tool"
_CONSOLE = ("console.log", "console.info", "console.debug", "console.warn", "console.error")
PRELUDE = (
    resources.files("agenthost_js")
    .joinpath("prelude.js")
    .read_text(encoding="utf-8")
    .replace("%OPS%", " ".join(_CONSOLE + tuple(op for op in OPS if not op.startswith("console."))))
)
MAX_LOG_CHARS = 100_000
_STACK_LINE = re.compile(r"<input>:(\d+)")
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
# the error types a script may raise by name (the host's own, less those only the host gives)
_ERROR_TYPES = set(get_args(ErrorType)) - {"tool_error", "unknown_tool"}


@dataclass
class ScriptSpec:
    """One JS tool: what the model sees, what it may do, and its source."""

    name: str
    description: str
    parameters: dict[str, Any]
    permissions: dict[str, bool]
    source: str
    path: Path | None = None
    created: bool = False
    granted: set[str] = field(default_factory=set)

    @property
    def level(self) -> str:
        if "exec" in self.granted:
            return "execute"
        if "network" in self.granted:
            return "network"
        if self.granted & {"fileWrite", "fileDelete"}:
            return "write"
        return "read"


# -- checks shared by files and create_tool ------------------------------------------


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise InvalidArguments(
            f"tool name {name!r} must be 2-50 letters, digits or '_', not starting with a digit"
        )
    return name


def check_parameters(parameters: Any) -> dict[str, Any]:
    if parameters is None:
        return dict(EMPTY_SCHEMA)
    if not isinstance(parameters, dict):
        raise InvalidArguments(
            "parameters must be a JSON Schema object such as {type: 'object', properties: {...}}"
        )
    schema = dict(parameters)
    schema.setdefault("type", "object")
    if schema["type"] != "object":
        raise InvalidArguments("parameters must describe an object: set type to 'object'")
    schema.setdefault("properties", {})
    if "ctx" in schema["properties"]:
        raise InvalidArguments("parameters: the name 'ctx' is reserved by the host; rename that parameter")
    import fastjsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
        fastjsonschema.compile(schema)
    except (SchemaError, fastjsonschema.JsonSchemaException) as e:
        message = getattr(e, "message", str(e)).splitlines()[0]
        raise InvalidArguments(f"parameters is not a valid JSON Schema: {message}") from None
    return schema


def check_permissions(permissions: Any) -> dict[str, bool]:
    if permissions is None:
        return {}
    if not isinstance(permissions, dict):
        raise InvalidArguments(f"permissions must be an object with keys among {', '.join(PERMISSIONS)}")
    unknown = sorted(set(permissions) - set(PERMISSIONS))
    if unknown:
        raise InvalidArguments(
            f"unknown permission {', '.join(map(repr, unknown))}; the permissions are {', '.join(PERMISSIONS)}"
        )
    if not all(isinstance(v, bool) for v in permissions.values()):
        raise InvalidArguments("each permission must be true or false")
    return dict(permissions)


# -- running ---------------------------------------------------------------------------


def _run(
    spec_name: str,
    source: str,
    settings: JsSettings,
    granted: set[str],
    workspace: Path,
    link: HostLink | None,
    start: str,
    result: str,
) -> tuple[Run, Any]:
    from agenthost_js.hostapi import ScriptHost  # the host API groups load on the first run

    run = Run(timeout_s=settings.timeout, max_memory=settings.max_memory)
    bridge = ScriptHost(spec_name, granted, settings, run, link, workspace)
    return run, lambda: run_script(run, PRELUDE, source, bridge, start, result)


def inspect_source(source: str, settings: JsSettings, workspace: Path, label: str) -> dict[str, Any]:
    """Run a tool file's top level in the sandbox (host calls unavailable) and
    return ``{"tool": <the tool object or None>, "execute": bool}``. Blocks."""
    _, job = _run(label, source, settings, set(), workspace, None, "0", "__agenthost.describe()")
    raw = pool.submit(job).result()
    return json.loads(raw)  # type: ignore[no-any-return]


def spec_from_source(
    source: str, settings: JsSettings, workspace: Path, path: Path | None, fallback_name: str
) -> ScriptSpec:
    """Check a tool file and build its spec; raises ``ScriptError`` (the file's
    own fault, with its line) or ``InvalidArguments`` (a bad definition)."""
    found = inspect_source(source, settings, workspace, fallback_name)
    if not found.get("execute"):
        raise InvalidArguments("the code defines no execute(params) function")
    tool = found.get("tool")
    if tool is not None and not isinstance(tool, dict):
        raise InvalidArguments("`tool` must be an object: var tool = {name, description, parameters}")
    tool = tool or {}
    name = check_name(tool.get("name") or fallback_name)
    description = tool.get("description") or f"JavaScript tool {name}"
    if not isinstance(description, str):
        raise InvalidArguments("tool.description must be a string")
    spec = ScriptSpec(
        name=name,
        description=description,
        parameters=check_parameters(tool.get("parameters")),
        permissions=check_permissions(tool.get("permissions")),
        source=source,
        path=path,
        created=source.startswith(CREATED_MARK),
    )
    spec.granted = settings.granted(spec.permissions)
    return spec


def created_source(
    name: str, description: str, parameters: dict[str, Any], permissions: dict[str, bool], code: str
) -> str:
    """The file create_tool saves: seed 004's format, marked as created."""
    header = {"name": name, "description": description, "parameters": parameters}
    if permissions:
        header["permissions"] = permissions
    return (
        f"{CREATED_MARK}\nvar tool = {json.dumps(header, ensure_ascii=False, indent=4)};\n\n{code.rstrip()}\n"
    )


async def call_script(
    spec: ScriptSpec, settings: JsSettings, ctx: ToolContext, arguments: dict[str, Any]
) -> list[Block]:
    """One call of a JS tool: a fresh context on a worker thread; the awaiting
    coroutine stays free, and cancelling it stops the script."""
    link = HostLink(ctx, asyncio.get_running_loop())
    payload = json.dumps(json.dumps(arguments, ensure_ascii=False))
    run, job = _run(
        spec.name,
        spec.source,
        settings,
        spec.granted,
        ctx.workspace,
        link,
        f"__agenthost.start({payload})",
        "__agenthost.result()",
    )
    future = pool.submit(job)
    try:
        raw = await asyncio.wrap_future(future)
    except ScriptError as e:
        raise _failure(spec.name, e, settings) from None
    finally:
        if not future.done():
            run.cancel()  # the interrupt handler stops the script at its next check
    return _content(spec.name, json.loads(raw), settings)


def _failure(name: str, error: ScriptError, settings: JsSettings) -> ToolFailure:
    where = f" (line {error.line})" if error.line else ""
    if error.kind == "interrupted":
        return ToolFailure(
            f"{name}: the script ran longer than {settings.timeout:g} s and was stopped{where}; "
            "look for an endless loop or a slow call, or raise [plugins.js] timeout",
            "timeout",
        )
    if error.kind == "out_of_memory":
        return ToolFailure(
            f"{name}: the script used more than {settings.max_memory:,} bytes of memory and was stopped{where}; "
            "work on less data at a time, or raise [plugins.js] max_memory"
        )
    if error.kind == "cancelled":
        return ToolFailure(f"{name} was cancelled", "cancelled")
    return ToolFailure(f"{name}: {error.message}{where}")


def _content(name: str, answer: dict[str, Any], settings: JsSettings) -> list[Block]:
    logs = _console(answer.get("logs") or [])
    error = answer.get("error")
    if error is not None:
        raise _script_failure(name, error, logs, settings)
    blocks: list[Block] = []
    value = answer.get("value")
    if isinstance(value, str):
        parsed = _json_container(value)
        blocks.append(JsonBlock(parsed) if parsed is not None else TextBlock(value))
    elif value is not None:
        blocks.append(JsonBlock(value))
    else:
        blocks.append(TextBlock("(execute returned no value)"))
    if logs:
        blocks.append(TextBlock("console:\n" + logs))
    return blocks


def _console(entries: list[Any]) -> str:
    lines: list[str] = []
    size = 0
    for level, text in entries:
        line = text if level in ("log", "info") else f"{level}: {text}"
        if size + len(line) > MAX_LOG_CHARS:
            lines.append(f"[{len(entries) - len(lines)} more console lines left out]")
            break
        size += len(line)
        lines.append(line)
    return "\n".join(lines)


def error_line(stack: Any) -> int | None:
    """The script line of an error: the first stack frame that is not the prelude's."""
    for frame in str(stack or "").splitlines():
        if "__ah_" in frame:
            continue
        match = _STACK_LINE.search(frame)
        if match:
            return int(match[1])
    return None


def _script_failure(name: str, error: dict[str, Any], logs: str, settings: JsSettings) -> ToolFailure:
    message = str(error.get("message") or "the script failed")
    label = str(error.get("name") or "Error")
    kind = error.get("type")
    line = error_line(error.get("stack"))
    where = f" (line {line})" if line else ""
    if label == "InternalError" and "out of memory" in message:
        message = f"the script used more than {settings.max_memory:,} bytes of memory"
    elif label == "RangeError" and "call stack" in message:
        message = f"the script recursed too deeply ({message})"
    elif kind not in _ERROR_TYPES:
        message = f"{label}: {message}"
    last = logs.rsplit("\n", 1)[-1] if logs else ""
    tail = f"; last console line: {last[:200]}" if last else ""
    return ToolFailure(f"{name}: {message}{where}{tail}", kind if kind in _ERROR_TYPES else "tool_error")


def _json_container(text: str) -> Any:
    """A returned JSON object or array, parsed (seed 004's tools return
    JSON.stringify(...)); anything else stays text."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) else None


def make_tool(spec: ScriptSpec, settings: JsSettings) -> Tool:
    async def run_js_tool(ctx: ToolContext, **arguments: Any) -> list[Block]:
        return await call_script(spec, settings, ctx, arguments)

    granted = spec.granted
    return Tool(
        name=spec.name,
        fn=run_js_tool,
        description=spec.description,
        level=spec.level,  # type: ignore[arg-type]
        read_only=not (granted & {"fileWrite", "fileDelete", "network", "exec"}),
        destructive=bool(granted & {"fileDelete", "exec"}),
        open_world=bool(granted & {"network", "exec"}),
        schema=spec.parameters,
        timeout_s=settings.timeout + 5,  # the script's own limit fires first, with a clearer message
    )
