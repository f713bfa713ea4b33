"""The plugin authors' test kit: fixtures for a host with chosen plugins and a
temporary workspace, and a conformance check every tool must pass.

Use it from a ``conftest.py``::

    pytest_plugins = ["agenthost.testing"]

    async def test_hello(make_host):
        host = await make_host(plugins=["hello"])
        result = await host.call("hello", {"name": "Ada"})
        assert result.ok

Tests never autoload every installed plugin: ``make_host`` loads only the
plugins named (none by default) plus in-process hook objects.

``list_fresh`` lists tools in a new interpreter and reports what that
imported: ``agenthost tools`` imports every installed plugin, so a plugin's
entry point should import only what declares its tools.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from agenthost.host import Host
from agenthost.results import ToolResult

HostFactory = Callable[..., Awaitable[Host]]

# What listing tools must not import: each costs tens of milliseconds.
HEAVY_FOR_LISTING = ("asyncio", "concurrent.futures", "pydantic", "agenthost.results")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest_asyncio.fixture
async def make_host(workspace: Path) -> AsyncIterator[HostFactory]:
    """``await make_host(plugins=[...], config={...}, hooks=[...], workspace=...)``;
    every host made is closed after the test."""
    hosts: list[Host] = []

    async def factory(
        plugins: Iterable[str] = (),
        config: dict[str, Any] | str | Path | None = None,
        hooks: Iterable[Any] = (),
        workspace_dir: Path | None = None,
    ) -> Host:
        host = Host(
            workspace=workspace_dir or workspace,
            config=config if config is not None else {},
            plugins=list(plugins),
            hooks=hooks,
        )
        hosts.append(host)
        await host.start()
        return host

    yield factory
    for host in reversed(hosts):
        await host.aclose()


async def check_conformance(host: Host, name: str, *, run_examples: bool = True) -> list[str]:
    """What ``name`` gets wrong as an agenthost tool (an empty list: nothing).

    Checks a valid name and description, a valid object schema, that each of
    the tool's ``examples`` validates (and, with ``run_examples``, runs to a
    structured result), that unknown arguments are refused as
    ``invalid_arguments``, and that the definition renders in every format.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    from agenthost import validation
    from agenthost.formats import FORMATS, definition
    from agenthost.tool import LEVELS, TOOL_NAME

    problems: list[str] = []
    tool = host.tools[name]
    if not TOOL_NAME.match(tool.name):
        problems.append(f"name {tool.name!r} is not 1-64 letters, digits, '_' or '-'")
    if not tool.description.strip():
        problems.append("no description: the model reads it to decide when to call the tool")
    if tool.level not in LEVELS:
        problems.append(f"level {tool.level!r} is not one of {LEVELS}")
    schema = tool.input_schema
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        problems.append(f"input schema is not valid JSON Schema: {e.message}")
        return problems
    if schema.get("type") != "object":
        problems.append("input schema must have type 'object'")
    for prop, sub in schema.get("properties", {}).items():
        if isinstance(sub, dict) and not (sub.get("description") or "$ref" in sub):
            problems.append(f"argument {prop!r} has no description")
    for fmt in FORMATS:
        try:
            definition(tool, fmt)
        except Exception as e:
            problems.append(f"{fmt} definition fails: {e}")
    for example in tool.examples:
        problem = validation.problem(schema, example)
        if problem:
            problems.append(f"example {example} does not validate: {problem}")
        elif run_examples:
            result = await host.call(name, example)
            problems.extend(_result_problems(result, f"example {example}"))
    if schema.get("additionalProperties") is False:
        result = await host.call(name, {"__not_an_argument__": 1})
        if result.ok or result.error is None or result.error.type != "invalid_arguments":
            problems.append("an unknown argument was not refused as invalid_arguments")
    return problems


def _result_problems(result: ToolResult, what: str) -> list[str]:
    if not isinstance(result, ToolResult):
        return [f"{what}: did not give a ToolResult"]
    if result.ok:
        return []
    error = result.error
    if error is None or not error.message.strip():
        return [f"{what}: failed without an error message"]
    if "\n" in error.message.strip():
        return [f"{what}: error message is not one line: {error.message!r}"]
    if error.type == "tool_error" and " failed: " in error.message:
        return [
            f"{what}: raised an unexpected exception ({error.message}); raise ToolFailure with advice instead"
        ]
    return []


@dataclass
class Listing:
    """What listing tools in a fresh interpreter did."""

    tools: list[str]  # names, sorted
    modules: list[str]  # every module imported by the time the tools were listed, sorted
    schemas: dict[str, list[str]]  # each tool's argument names, built after listing
    failed: dict[str, str]  # plugin -> why it did not load

    def loaded(self, package: str) -> list[str]:
        """The modules of ``package`` (itself included) that listing imported."""
        return [m for m in self.modules if m == package or m.startswith(package + ".")]

    def imported(self, *names: str) -> list[str]:
        """Which of ``names`` (default: ``HEAVY_FOR_LISTING``) listing imported."""
        return [n for n in names or HEAVY_FOR_LISTING if n in self.modules]


_LISTING_PROBE = """
import json, sys
from agenthost.host import Host

host = Host(workspace=sys.argv[1], plugins=json.loads(sys.argv[2]), config=json.loads(sys.argv[3]))
for t in host.tools.values():  # what `agenthost tools` reads
    (t.name, t.level, t.plugin, t.description, t.annotations)
modules = sorted(sys.modules)
schemas = {t.name: sorted(t.input_schema.get("properties", {})) for t in host.tools.values()}
failed = {i.name: i.error for i in host.plugin_infos if i.status == "failed"}
print(json.dumps({"tools": sorted(host.tools), "modules": modules, "schemas": schemas, "failed": failed}))
"""


def list_fresh(
    plugins: Iterable[str],
    workspace: Path,
    config: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
) -> Listing:
    """Load ``plugins`` and list their tools in a new interpreter, as ``agenthost tools`` does."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _LISTING_PROBE,
            str(workspace),
            json.dumps(list(plugins)),
            json.dumps(config or {}),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=workspace,
    )
    if done.returncode:
        raise AssertionError(f"listing failed: {done.stderr.strip()}")
    return Listing(**json.loads(done.stdout.strip().splitlines()[-1]))
