"""The tool model and the ``@tool`` decorator.

The input schema is built from the function's signature, pydantic types and
docstring (as llm's ``Tool.function`` and the MCP SDK's ``Tool.from_function``
do), but only when first needed: listing tools must stay cheap.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["read", "write", "execute", "network"]
LEVELS: tuple[Level, ...] = ("read", "write", "execute", "network")
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_CONTEXT_PARAM = "ctx"


@dataclass(eq=False)
class Tool:
    """One tool: a callable with a name, a schema, a level and hints."""

    name: str
    fn: Callable[..., Any]
    description: str = ""
    level: Level = "read"
    read_only: bool | None = None  # MCP readOnlyHint; None means "level == read"
    destructive: bool = False
    open_world: bool = False
    match: tuple[str, ...] = ()  # arguments that policy patterns match
    path_args: tuple[str, ...] = ()  # arguments that are workspace paths
    command_arg: str | None = None  # a shell command: policy splits compound commands
    timeout_s: float | None = None
    examples: list[dict[str, Any]] = field(default_factory=list)
    plugin: str = ""
    schema: dict[str, Any] | None = None  # explicit JSON Schema; else built from fn
    _model: Any = field(default=None, repr=False)
    _coerce: bool | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not TOOL_NAME.match(self.name):
            raise ValueError(f"tool name {self.name!r} must be 1-64 letters, digits, '_' or '-'")
        if self.level not in LEVELS:
            raise ValueError(f"tool {self.name}: level must be one of {', '.join(LEVELS)}")
        if self.read_only is None:
            self.read_only = self.level == "read"
        if not self.match:
            self.match = self.path_args or ((self.command_arg,) if self.command_arg else ())
        self.takes_context = _CONTEXT_PARAM in inspect.signature(self.fn).parameters
        self.is_async = inspect.iscoroutinefunction(self.fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    @property
    def input_schema(self) -> dict[str, Any]:
        if self.schema is None:
            self._model, self.schema = _schema_from_function(self.fn, self.name)
        return self.schema

    @property
    def annotations(self) -> dict[str, bool]:
        return {
            "readOnlyHint": bool(self.read_only),
            "destructiveHint": self.destructive,
            "openWorldHint": self.open_world,
        }

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Turn validated JSON arguments into the function's keyword arguments.

        Nested models and enums need pydantic to become their Python types;
        plain JSON types pass through untouched (the hot path).
        """
        schema = self.input_schema
        if self._coerce is None:
            self._coerce = self._model is not None and "$defs" in schema
        if not self._coerce:
            return arguments
        model = self._model.model_validate(arguments)
        return {name: getattr(model, name) for name in arguments}


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    level: Level = "read",
    read_only: bool | None = None,
    destructive: bool = False,
    open_world: bool = False,
    match: tuple[str, ...] = (),
    path_args: tuple[str, ...] = (),
    command_arg: str | None = None,
    timeout_s: float | None = None,
    schema: dict[str, Any] | None = None,
    examples: list[dict[str, Any]] | None = None,
) -> Any:
    """Make a ``Tool`` from a function; usable bare (``@tool``) or with options.

    A parameter named ``ctx`` receives the call's ``ToolContext`` and is not
    part of the schema.
    """

    def wrap(f: Callable[..., Any]) -> Tool:
        return Tool(
            name=name or f.__name__,
            fn=f,
            description=description if description is not None else _summary(f),
            level=level,
            read_only=read_only,
            destructive=destructive,
            open_world=open_world,
            match=match,
            path_args=path_args,
            command_arg=command_arg,
            timeout_s=timeout_s,
            schema=schema,
            examples=list(examples or []),
        )

    return wrap(fn) if fn is not None else wrap


# -- docstrings and signatures ---------------------------------------------

_SPHINX_PARAM = re.compile(r"^\s*:param\s+(?:[^:]*\s)?(\w+):\s*(.*)$")
_GOOGLE_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")
_GOOGLE_PARAM = re.compile(r"^\s+(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _summary(fn: Callable[..., Any]) -> str:
    """The docstring without its parameter section."""
    doc = inspect.getdoc(fn) or ""
    lines: list[str] = []
    for line in doc.splitlines():
        if _SPHINX_PARAM.match(line) or _GOOGLE_HEADER.match(line):
            break
        lines.append(line)
    return "\n".join(lines).strip()


def _param_docs(fn: Callable[..., Any]) -> dict[str, str]:
    docs: dict[str, str] = {}
    current: str | None = None
    in_google = False
    for line in (inspect.getdoc(fn) or "").splitlines():
        if m := _SPHINX_PARAM.match(line):
            current, docs[m[1]] = m[1], m[2].strip()
        elif _GOOGLE_HEADER.match(line):
            in_google, current = True, None
        elif in_google and (m := _GOOGLE_PARAM.match(line)) and line.startswith(("    ", "\t")):
            indent = len(line) - len(line.lstrip())
            if indent <= 4:
                current, docs[m[1]] = m[1], m[2].strip()
            elif current:
                docs[current] += " " + line.strip()
        elif current and line.startswith((" ", "\t")) and line.strip():
            docs[current] += " " + line.strip()
        elif not line.strip():
            current = None
    return docs


def _schema_from_function(fn: Callable[..., Any], name: str) -> tuple[Any, dict[str, Any]]:
    import pydantic  # lazily: listing tools never needs it

    params = [
        p
        for p in inspect.signature(fn).parameters.values()
        if p.name != _CONTEXT_PARAM and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    hints = _argument_hints(fn, [p.name for p in params])
    docs = _param_docs(fn)
    fields: dict[str, Any] = {}
    for param in params:
        annotation = hints.get(param.name, Any)
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (
            annotation,
            pydantic.Field(default, description=docs.get(param.name)),
        )
    model = pydantic.create_model(  # type: ignore[call-overload]
        f"{name}_arguments",
        __config__=pydantic.ConfigDict(extra="forbid"),
        **fields,
    )
    schema = model.model_json_schema()
    return model, _without_titles(schema)


def _argument_hints(fn: Callable[..., Any], names: list[str]) -> dict[str, Any]:
    """The evaluated annotations of the arguments only: ``ctx`` and the return
    type may name classes a plugin imports for type checking alone (so that
    listing its tools does not import them)."""
    annotations = getattr(fn, "__annotations__", {})
    only = types.SimpleNamespace(__annotations__={n: annotations[n] for n in names if n in annotations})
    return typing.get_type_hints(
        only, globalns=getattr(inspect.unwrap(fn), "__globals__", {}), include_extras=True
    )


def _without_titles(node: Any, in_properties: bool = False) -> Any:
    """Pydantic adds a title to everything; models read descriptions, not titles."""
    if isinstance(node, dict):
        return {
            key: _without_titles(value, key == "properties" and not in_properties)
            for key, value in node.items()
            if not (key == "title" and not in_properties and isinstance(value, str))
        }
    if isinstance(node, list):
        return [_without_titles(item) for item in node]
    return node
