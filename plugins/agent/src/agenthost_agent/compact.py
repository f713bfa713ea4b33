"""``compact``: ask the embedding agent to compact its context (only it holds
the conversation), through the ``agenthost_compact`` service hook."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from agenthost import Unavailable, tool

if TYPE_CHECKING:
    from agenthost import ToolContext


@tool(level="read")
async def compact(focus: str | None = None, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Compact the conversation so far: the agent replaces the earlier messages with
    a summary, freeing room in the context. Use it when the context is long and
    much of it is no longer needed, typically between two parts of a task.

    :param focus: what the summary must keep (open questions, decisions, file names).
    """
    summary = await ctx.host.service("compact", focus=focus or None, session=ctx.session)
    if summary is None:
        raise Unavailable("the agent cannot compact its context right now; carry on without it")
    if isinstance(summary, str):
        return summary or "The context was compacted."
    return json.dumps(summary, ensure_ascii=False, default=str)
