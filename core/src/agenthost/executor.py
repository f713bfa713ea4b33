"""One tool call: look up, validate, apply policy, run, cap, audit.

It never raises for tool or input faults: every outcome is a ``ToolResult``.
An outside cancellation (the caller's task cancelled, an MCP cancel) is
audited and then propagated, so what the call started is torn down by the
tool's own ``finally`` blocks and the caller sees a normal cancellation.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from agenthost import validation
from agenthost.audit import redact
from agenthost.context import CallInfo, ToolContext
from agenthost.errors import ToolFailure
from agenthost.plugins import one_line
from agenthost.results import Block, ImageBlock, JsonBlock, TextBlock, ToolError, ToolResult

if TYPE_CHECKING:
    from agenthost.host import Host, Session
    from agenthost.tool import Tool

log = logging.getLogger("agenthost.executor")


async def execute(
    host: Host,
    session: Session,
    name: str,
    arguments: dict[str, Any] | None,
    timeout: float | None = None,
) -> ToolResult:
    started = time.perf_counter()
    call = CallInfo(os.urandom(6).hex(), name, arguments if arguments is not None else {}, session)
    tool = host.registry.known(name)
    if tool is None and host.registry.has_pending:
        await asyncio.to_thread(host.registry.load_pending)
        tool = host.registry.known(name)
    try:
        if tool is None:
            result = _unknown(host, name)
        else:
            result = await _checked_run(host, session, tool, call, timeout)
    except asyncio.CancelledError:
        _finish(host, call, ToolResult.failure("cancelled", f"{name} was cancelled"), started)
        raise
    return _finish(host, call, result, started)


def _unknown(host: Host, name: str) -> ToolResult:
    close = host.registry.closest(name)
    hint = f"did you mean {' or '.join(map(repr, close))}?" if close else "run `agenthost tools` to list them"
    return ToolResult.failure("unknown_tool", f"unknown tool {name!r}; {hint}")


async def _checked_run(
    host: Host, session: Session, tool: Tool, call: CallInfo, timeout: float | None
) -> ToolResult:
    problem = validation.problem(tool.input_schema, call.arguments)
    if problem:
        return ToolResult.failure("invalid_arguments", f"{problem} (tool {tool.name})")
    decision = host.policy.decide(tool, call.arguments)
    call.decision, call.rule = decision.effect, decision.rule
    if decision.effect == "ask":
        answer = await session.request_permission(tool.name, call.arguments, decision.rule)
        if answer is None:
            call.decision = "deny"
            return ToolResult.failure(
                "denied",
                f"{tool.name} needs permission (policy rule ask: {decision.rule}) and nobody "
                "is there to answer; ask the user to allow it in agenthost.toml",
            )
        call.decision = "allow" if answer else "deny"
        if not answer:
            return ToolResult.failure(
                "denied", f"the user declined {tool.name} (rule ask: {decision.rule}); try another way"
            )
    elif decision.effect == "deny":
        return ToolResult.failure(
            "denied", f"{tool.name} is denied by policy rule deny: {decision.rule}; do not retry it"
        )
    if host.plugins.has("agenthost_tool_call_start"):
        host.plugins.emit("agenthost_tool_call_start", call=call)
    return await _run(host, session, tool, call, timeout)


async def _run(host: Host, session: Session, tool: Tool, call: CallInfo, timeout: float | None) -> ToolResult:
    limit = timeout or tool.timeout_s or host.config.host.timeout_s
    deadline = asyncio.timeout(limit)
    try:
        kwargs = tool.prepare(call.arguments)
        if tool.takes_context:
            kwargs = {**kwargs, "ctx": ToolContext(host, session, call.call_id, tool)}
        work = tool.fn(**kwargs) if tool.is_async else asyncio.to_thread(tool.fn, **kwargs)
        async with deadline:
            value = await work
        return ToolResult(ok=True, content=to_content(value))
    except TimeoutError:
        if deadline.expired():
            return ToolResult.failure(
                "timeout",
                f"{tool.name} did not finish within {limit:g} s and was stopped; "
                "ask for less or give it a longer timeout",
            )
        return ToolResult.failure("tool_error", f"{tool.name}: timed out inside the tool")
    except ToolFailure as e:
        return ToolResult.failure(e.type, e.message)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        return ToolResult.failure("cancelled", f"{tool.name} was cancelled")
    except Exception as e:
        if type(e).__name__ == "ValidationError":  # pydantic, from prepare()
            return ToolResult.failure("invalid_arguments", f"{tool.name}: {one_line(e)}")
        log.debug("tool %s raised", tool.name, exc_info=True)
        return ToolResult.failure("tool_error", f"{tool.name} failed: {one_line(e)}")


def to_content(value: Any) -> list[Block]:
    """A tool's return value as content blocks."""
    if value is None:
        return []
    if isinstance(value, str):
        return [TextBlock(value)]
    if isinstance(value, (TextBlock, ImageBlock, JsonBlock)):
        return [value]
    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(v, (TextBlock, ImageBlock, JsonBlock)) for v in value)
    ):
        return list(value)
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    return [JsonBlock(value)]


def cap(result: ToolResult, max_chars: int, max_image_bytes: int) -> None:
    """Cut text to ``max_chars`` (head and tail kept) and drop oversized images,
    each with a note saying what was cut."""
    capped: list[Block] = []
    budget = max_chars
    for block in result.content:
        if isinstance(block, ImageBlock):
            size = len(block.data) * 3 // 4
            if size > max_image_bytes:
                block = TextBlock(
                    f"[image of {size:,} bytes left out: over max_image_bytes={max_image_bytes:,}; "
                    "ask for a smaller region or size]"
                )
            capped.append(block)
            continue
        if isinstance(block, JsonBlock):
            if not isinstance(block.data, (dict, list, str)):  # a number or a flag is always small
                capped.append(block)
                continue
            rendered = json.dumps(block.data, ensure_ascii=False, default=str)
            if len(rendered) <= budget:
                budget -= len(rendered)
                capped.append(block)
                continue
            block = TextBlock(rendered)
        text = block.text
        if len(text) > budget:
            text = _cut(text, max(budget, 0), max_chars)
        budget -= len(text)
        capped.append(TextBlock(text))
    result.content = capped


def _cut(text: str, keep: int, max_chars: int) -> str:
    head = keep * 4 // 5
    tail = keep - head
    omitted = len(text) - keep
    note = (
        f"\n[... {omitted:,} characters cut: output is over max_output_chars={max_chars:,}; "
        "ask for a narrower part ...]\n"
    )
    return text[:head] + note + (text[-tail:] if tail else "")


def _finish(host: Host, call: CallInfo, result: ToolResult, started: float) -> ToolResult:
    result.call_id = call.call_id
    if result.ok:
        cap(result, host.config.host.max_output_chars, host.config.host.max_image_bytes)
    result.duration_ms = (time.perf_counter() - started) * 1000
    if host.plugins.has("agenthost_tool_call_end"):
        host.plugins.emit("agenthost_tool_call_end", call=call, result=result)
    if host.audit is not None:
        host.audit.write(_audit_record(call, result))
    return result


def _audit_record(call: CallInfo, result: ToolResult) -> dict[str, Any]:
    error: ToolError | None = result.error
    return {
        "ts": time.time(),
        "call_id": call.call_id,
        "session": call.session.id,
        "tool": call.tool,
        "arguments": redact(call.arguments),
        "decision": call.decision or None,
        "rule": call.rule or None,
        "status": "ok" if result.ok else error.type if error else "error",
        "duration_ms": round(result.duration_ms, 3),
        "summary": redact(_summary(result)),
    }


def _summary(result: ToolResult) -> str:
    """The first 200 characters of what the call said, without rendering it all."""
    if result.error is not None:
        return result.error.message[:200]
    for block in result.content:
        if isinstance(block, TextBlock):
            return block.text[:200]
        if isinstance(block, JsonBlock):
            if isinstance(block.data, (dict, list, str)):
                return json.dumps(block.data, ensure_ascii=False, default=str)[:200]
            return str(block.data)
    return f"{len(result.content)} block(s)" if result.content else ""
