"""Hypothesis: whatever the arguments, every tool gives a structured result
(never the executor's 'X failed: <exception>' that marks a bug)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenthost import Host, ToolResult

from .conftest import write

PATHS = st.one_of(
    st.sampled_from(
        [
            ".",
            "",
            "a.txt",
            "sub",
            "sub/b.py",
            "new/c.txt",
            "..",
            "../x",
            "/",
            "/etc/passwd",
            "img.png",
            "blob.bin",
            "link",
            "..foo",
            "a..b",
            " ",
            "sub/",
            "./a.txt",
            "a.txt/x",
            "nope/nope",
            "~",
            "*",
        ]
    ),
    st.text(max_size=12),
)
TEXT = st.one_of(
    st.sampled_from(["hello", "a", "\n", "x\ny", "(", "[", "\\", "*", "**/*", "{a,b}", "é"]),
    st.text(max_size=12),
)
INTS = st.one_of(st.integers(min_value=-3, max_value=5), st.integers(min_value=-(2**40), max_value=2**40))
ANY = st.one_of(
    st.none(), st.booleans(), INTS, TEXT, st.lists(TEXT, max_size=2), st.dictionaries(TEXT, TEXT, max_size=2)
)


def value_for(name: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    kinds = {option.get("type") for option in schema.get("anyOf", [schema])}
    options: list[st.SearchStrategy[Any]] = []
    if "enum" in schema:
        options.append(st.sampled_from(schema["enum"]))
    if "string" in kinds:
        options.append(PATHS if name in ("path", "source", "destination") else TEXT)
    if "integer" in kinds:
        options.append(INTS)
    if "boolean" in kinds:
        options.append(st.booleans())
    if "array" in kinds:
        edit = st.fixed_dictionaries(
            {"old_str": TEXT, "new_str": TEXT}, optional={"replace_all": st.booleans()}
        )
        options.append(st.lists(edit, max_size=3))
    strategy = st.one_of(*options) if options else ANY
    return st.one_of(strategy, ANY) if options else strategy


@st.composite
def call_args(draw: st.DrawFn, tool: Any) -> dict[str, Any]:
    schema = tool.input_schema
    required = set(schema.get("required", []))
    args = {}
    for name, prop in schema.get("properties", {}).items():
        if name in required or draw(st.booleans()):
            args[name] = draw(value_for(name, prop))
    if draw(st.integers(0, 9)) == 0:
        args[draw(st.text(min_size=1, max_size=5))] = draw(ANY)
    return args


def test_any_arguments_give_a_structured_result(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws, "a.txt", "hello\nworld\n")
    write(ws, "sub/b.py", "x = 1\n")
    write(ws, "img.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 30)
    write(ws, "blob.bin", b"\0\1\2")
    (ws / "link").symlink_to(tmp_path)
    loop = asyncio.new_event_loop()
    host = Host(workspace=ws, config={"audit": {"enabled": False}}, plugins=["fs"])
    loop.run_until_complete(host.start())
    names = sorted(host.tools)
    assert len(names) == 11

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(names))
        args = data.draw(call_args(host.tools[name]))
        result = loop.run_until_complete(host.call(name, args))
        assert isinstance(result, ToolResult)
        if result.ok:
            assert result.error is None
        else:
            assert result.error is not None and result.error.message
            assert not result.error.message.startswith(f"{name} failed:"), (name, args, result.error)
            assert "\n" not in result.error.message.split(":")[0]

    try:
        check()
    finally:
        loop.run_until_complete(host.aclose())
        loop.close()
