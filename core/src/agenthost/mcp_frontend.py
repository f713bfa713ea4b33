"""``agenthost serve``: asking the person through the MCP client
(elicitation), for ``ask_user`` and policy ``ask`` rules.

Part of the MCP server (see ``agenthost.mcp_server``); like the other
``mcp_*`` modules it imports the MCP SDK, so only ``agenthost serve`` loads it.
"""

from __future__ import annotations

import contextvars
import json
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from agenthost.host import Frontend

# The request being served, so a tool that asks the person (elicitation)
# sends its question on the stream of the call that asked (HTTP: that POST's
# SSE stream).
current_request: contextvars.ContextVar[Any] = contextvars.ContextVar("agenthost_mcp_request", default=None)


def connection_of(ctx: Any) -> Any:
    """The SDK's per-client ``Connection`` behind a request context.

    ``ServerRequestContext`` does not expose it publicly in mcp 2.3 (the
    planned ``Context.connection`` is not built by the runner yet); it is the
    one place where per-connection state and teardown (``state``,
    ``exit_stack``) live, so reach it through the request's session.
    """
    connection = getattr(ctx.session, "_connection", None)
    if connection is None:  # pragma: no cover - guards an SDK change
        raise MCPError(code=types.INTERNAL_ERROR, message="agenthost: this MCP SDK exposes no connection")
    return connection


class McpFrontend(Frontend):
    """Asks the person through MCP elicitation, when the client supports it."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @property
    def can_elicit(self) -> bool:
        caps = self.connection.client_capabilities
        return caps is not None and caps.elicitation is not None

    async def _elicit(self, message: str, schema: dict[str, Any]) -> types.ElicitResult | None:
        if not self.can_elicit:
            return None
        ctx = current_request.get()
        if ctx is not None and connection_of(ctx) is self.connection:
            return await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(message=message, requested_schema=schema)
        )
        return await self.connection.send_request(request)  # type: ignore[no-any-return]

    async def ask_user(self, question: str, options: list[str] | None, multi_select: bool) -> Any:
        from agenthost.errors import Denied

        answer: dict[str, Any] = {"type": "string", "title": "Answer"}
        if options:
            if multi_select:
                answer = {"type": "array", "title": "Answer", "items": {"type": "string", "enum": options}}
            else:
                answer["enum"] = options
        schema = {"type": "object", "properties": {"answer": answer}, "required": ["answer"]}
        result = await self._elicit(question, schema)
        if result is None:
            return None
        if result.action != "accept":
            raise Denied(
                f"the user {result.action}d the question; go on without an answer or ask differently"
            )
        value = (result.content or {}).get("answer")
        if value is None:
            raise Denied("the user gave no answer; go on without one")
        return value

    async def permission_request(self, tool: str, arguments: dict[str, Any], rule: str) -> bool | None:
        shown = json.dumps(arguments, ensure_ascii=False)
        if len(shown) > 500:
            shown = shown[:500] + "..."
        schema = {
            "type": "object",
            "properties": {
                "allow": {"type": "boolean", "title": f"Allow {tool}", "default": False},
            },
            "required": ["allow"],
        }
        result = await self._elicit(f"Allow {tool} {shown}? (policy rule ask: {rule})", schema)
        if result is None:
            return None
        return result.action == "accept" and bool((result.content or {}).get("allow"))
