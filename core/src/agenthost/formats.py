"""Tool definitions and results in the shapes of the APIs agents use:
OpenAI function calling, Anthropic tools, MCP tools."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from agenthost.results import ImageBlock, JsonBlock, TextBlock, ToolResult
from agenthost.tool import Tool

Format = Literal["openai", "anthropic", "mcp"]
FORMATS: tuple[Format, ...] = ("openai", "anthropic", "mcp")


def definition(tool: Tool, format: str = "openai") -> dict[str, Any]:
    if format == "openai":
        return {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.input_schema,
            },
        }
    if format == "anthropic":
        return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
    if format == "mcp":
        return {
            "name": tool.name,
            "description": tool.description,
            "inputSchema": tool.input_schema,
            "annotations": tool.annotations,
        }
    raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")


def definitions(tools: Iterable[Tool], format: str = "openai") -> list[dict[str, Any]]:
    return [definition(t, format) for t in tools]


def result_message(result: ToolResult, format: str, tool_call_id: str = "") -> dict[str, Any]:
    """``result`` as the tool-result message an agent loop sends back."""
    if format == "openai":
        text = result.text
        images = sum(isinstance(b, ImageBlock) for b in result.content)
        if images:  # chat-completions tool messages carry text only
            text += f"\n[{images} image(s) returned; not representable in an OpenAI tool message]"
        return {"role": "tool", "tool_call_id": tool_call_id, "content": text}
    if format == "anthropic":
        content: list[dict[str, Any]] = []
        if result.error is not None:
            content.append({"type": "text", "text": result.error.message})
        for block in result.content:
            if isinstance(block, ImageBlock):
                content.append(
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": block.mime_type, "data": block.data},
                    }
                )
            else:
                content.append({"type": "text", "text": _block_text(block)})
        message: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_call_id, "content": content}
        if not result.ok:
            message["is_error"] = True
        return message
    if format == "mcp":
        blocks: list[dict[str, Any]] = []
        if result.error is not None:
            blocks.append({"type": "text", "text": result.error.message})
        for block in result.content:
            if isinstance(block, ImageBlock):
                blocks.append({"type": "image", "data": block.data, "mimeType": block.mime_type})
            else:
                blocks.append({"type": "text", "text": _block_text(block)})
        mcp: dict[str, Any] = {"content": blocks, "isError": not result.ok}
        if isinstance(result.data, dict):
            mcp["structuredContent"] = result.data
        return mcp
    raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")


def _block_text(block: TextBlock | JsonBlock) -> str:
    if isinstance(block, TextBlock):
        return block.text
    return ToolResult(ok=True, content=[block]).text
