"""The built-in sub-agent: a bounded tool loop over an OpenAI-compatible
chat-completions endpoint, in a child session of the host."""

from __future__ import annotations

import fnmatch
import json
import os
import uuid
from typing import TYPE_CHECKING, Any

from agenthost import ToolFailure, Unavailable
from agenthost.formats import definitions, result_message

if TYPE_CHECKING:
    from agenthost.host import Host, Session
    from agenthost_agent.settings import AgentSettings

TASK_TOOL = "task"
_DEFAULT_SYSTEM = (
    "You are a sub-agent working for another agent. Do the task you are given with the "
    "tools available, on your own: nobody will answer questions. Be thorough but stay on "
    "the task. When done, reply with your final answer and no tool call: a concise report "
    "of what you found or did, with the details the other agent needs (paths, names, "
    "numbers). The workspace is {workspace}."
)
_OUT_OF_TURNS = (
    "You have used all {turns} turns. Do not call any more tools: give your final answer now, "
    "saying what is done and what is not."
)


class BuiltinSubagent:
    """One run of the built-in tool loop."""

    def __init__(self, settings: AgentSettings, host: Host, parent: Session) -> None:
        self.llm = settings.llm
        self.task = settings.task
        self.host = host
        self.parent = parent
        self.turns = 0
        self.tool_calls = 0

    def allowed_tools(self) -> list[str]:
        names = [n for n in self.host.tools if n != TASK_TOOL]
        if self.task.tools:
            names = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in self.task.tools)]
        return names

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self.llm.api_key_env:
            key = os.environ.get(self.llm.api_key_env)
            if not key:
                raise Unavailable(
                    f"the sub-agent's API key is missing: set the environment variable "
                    f"{self.llm.api_key_env} ([plugins.agent.llm] api_key_env)"
                )
            headers["Authorization"] = f"Bearer {key}"
        return headers

    async def run(self, description: str, prompt: str, subagent_type: str | None) -> str:
        import httpx  # only when the built-in sub-agent runs

        headers = self._headers()
        system = (self.task.system_prompt or _DEFAULT_SYSTEM).replace(
            "{workspace}", str(self.host.workspace.root)
        )
        if subagent_type:
            system += f"\nYou act as a {subagent_type!r} sub-agent."
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Task: {description}\n\n{prompt}"},
        ]
        child = self.host.session(
            id=f"{self.parent.id}.task-{uuid.uuid4().hex[:6]}", frontend=self.parent.frontend
        )
        async with child, httpx.AsyncClient(timeout=self.llm.timeout_s, headers=headers) as client:
            allowed = self.allowed_tools()
            tools = definitions([self.host.tools[n] for n in allowed], "openai")
            while self.turns < self.task.max_turns:
                message = await self._complete(client, messages, tools)
                calls = message.get("tool_calls") or []
                if not calls:
                    return self._final(message)
                messages.append({"role": "assistant", "content": message.get("content"), "tool_calls": calls})
                for call in calls:
                    messages.append(await self._run_call(child, call, allowed))
            messages.append({"role": "user", "content": _OUT_OF_TURNS.format(turns=self.task.max_turns)})
            message = await self._complete(client, messages, tools, final=True)
            if message.get("content"):
                return self._final(message)
            raise ToolFailure(
                f"the sub-agent did not finish within max_turns={self.task.max_turns}; "
                "split the task or raise [plugins.agent.task] max_turns"
            )

    async def _complete(
        self, client: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]], final: bool = False
    ) -> dict[str, Any]:
        import httpx

        self.turns += 1
        body: dict[str, Any] = {"model": self.llm.model, "messages": messages}
        if tools:
            body["tools"] = tools
            if final:
                body["tool_choice"] = "none"
        if self.llm.temperature is not None:
            body["temperature"] = self.llm.temperature
        if self.llm.max_tokens is not None:
            body["max_tokens"] = self.llm.max_tokens
        url = self.llm.base_url.rstrip("/") + "/chat/completions"
        try:
            response = await client.post(url, json=body)
        except httpx.HTTPError as e:
            raise Unavailable(
                f"cannot reach the sub-agent's model at {url}: {type(e).__name__}: {e}"
            ) from None
        if response.status_code >= 400:
            raise ToolFailure(
                f"the sub-agent's model endpoint answered HTTP {response.status_code}: "
                f"{' '.join(response.text.split())[:300]}"
            )
        try:
            message = response.json()["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ToolFailure(
                f"the sub-agent's model endpoint gave no chat-completions answer: {response.text[:200]!r}"
            ) from None
        if not isinstance(message, dict):
            raise ToolFailure("the sub-agent's model endpoint gave a malformed message")
        return message

    async def _run_call(self, child: Session, call: dict[str, Any], allowed: list[str]) -> dict[str, Any]:
        self.tool_calls += 1
        call_id = str(call.get("id") or f"call_{self.tool_calls}")
        function = call.get("function") or {}
        name = str(function.get("name") or "")
        if name not in allowed:
            return _tool_message(
                call_id,
                f"error: tool {name!r} is not available to this sub-agent; use one of: {', '.join(allowed)}",
            )
        raw = function.get("arguments") or "{}"
        try:
            arguments = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError as e:
            return _tool_message(call_id, f"error: the arguments are not valid JSON ({e}); call again")
        if not isinstance(arguments, dict):
            return _tool_message(call_id, "error: the arguments must be a JSON object; call again")
        result = await child.call(name, arguments)
        message = result_message(result, "openai", call_id)
        if not result.ok and result.error is not None:
            message["content"] = f"error ({result.error.type}): {result.error.message}"
        return message

    def _final(self, message: dict[str, Any]) -> str:
        content = message.get("content")
        if isinstance(content, list):  # some servers send content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return str(content or "").strip() or "(the sub-agent finished without a final answer)"


def _tool_message(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}
