"""Definitions and results in each API's published shape: OpenAI's and
Anthropic's SDK types, and the MCP SDK's models."""

from __future__ import annotations

import base64
from typing import Any, get_type_hints

import mcp.types as mcp_types
import pytest
from anthropic.types import ToolParam, ToolResultBlockParam
from openai.types.chat import ChatCompletionToolMessageParam, ChatCompletionToolParam
from pydantic import TypeAdapter

from agenthost.formats import definition, result_message
from agenthost.results import ImageBlock, JsonBlock, TextBlock, ToolResult
from agenthost.testing import check_conformance

from .tools_for_tests import TestTools


def assert_typed_dict(kind: Any, value: dict[str, Any]) -> None:
    """Valid for the SDK's TypedDict, with no keys the type does not know."""
    TypeAdapter(kind).validate_python(value, strict=False)
    assert set(value) <= set(get_type_hints(kind)), set(value) - set(get_type_hints(kind))


@pytest.fixture
async def host(make_host):
    return await make_host(hooks=[TestTools()])


async def test_definitions_match_published_shapes(host) -> None:
    for tool in host.tools.values():
        openai = definition(tool, "openai")
        assert_typed_dict(ChatCompletionToolParam, openai)
        assert set(openai["function"]) <= {"name", "description", "parameters", "strict"}
        assert_typed_dict(ToolParam, definition(tool, "anthropic"))
        mcp_tool = mcp_types.Tool.model_validate(definition(tool, "mcp"))
        assert mcp_tool.annotations is not None
        assert mcp_tool.annotations.read_only_hint == (tool.level == "read")
    assert len(host.definitions("anthropic")) == len(host.tools)
    with pytest.raises(ValueError, match="unknown format"):
        host.definitions("gemini")


RESULTS = [
    ToolResult(ok=True, content=[TextBlock("hello")], call_id="c1"),
    ToolResult(ok=True, content=[JsonBlock({"a": 1}), TextBlock("and text")], call_id="c2"),
    ToolResult(
        ok=True, content=[TextBlock("pic"), ImageBlock(base64.b64encode(b"png").decode(), "image/png")]
    ),
    ToolResult.failure("not_found", "no such file; list the folder first", "c4"),
]


@pytest.mark.parametrize("result", RESULTS)
def test_results_match_published_shapes(result: ToolResult) -> None:
    openai = result_message(result, "openai", "call_1")
    assert_typed_dict(ChatCompletionToolMessageParam, openai)
    assert openai["tool_call_id"] == "call_1" and isinstance(openai["content"], str)
    anthropic = result_message(result, "anthropic", "toolu_1")
    assert_typed_dict(ToolResultBlockParam, anthropic)
    assert anthropic.get("is_error", False) is (not result.ok)
    mcp = mcp_types.CallToolResult.model_validate(result_message(result, "mcp"))
    assert mcp.is_error is (not result.ok)
    if result.data is not None:
        assert mcp.structured_content == result.data
    if not result.ok:
        assert result.error.message in openai["content"]
        assert mcp.content[0].text == result.error.message


async def test_every_test_tool_conforms(host) -> None:
    for name in ("where", "limited", "items", "handle", "write_note", "run", "fetch"):
        assert await check_conformance(host, name, run_examples=False) == [], name


async def test_conformance_catches_problems(make_host) -> None:
    from agenthost import hookimpl, tool

    @tool(examples=[{"n": "not a number"}, {"n": 2}])
    def undocumented(n: int) -> str:
        return str(1 / (n - 2))

    class Plugin:
        @hookimpl
        def agenthost_register_tools(self, register):
            register(undocumented)

    host = await make_host(hooks=[Plugin()])
    problems = await check_conformance(host, "undocumented")
    assert any("no description" in p for p in problems)
    assert any("argument 'n' has no description" in p for p in problems)
    assert any("does not validate" in p for p in problems)
    assert any("unexpected exception" in p and "ZeroDivisionError" in p for p in problems)
