"""``task``: hand a self-contained job to a sub-agent.

The embedding agent supplies one through the ``agenthost_run_subagent``
service hook. Without it, a built-in sub-agent (builtin_subagent.py, imported
on first use) runs a bounded tool loop over an OpenAI-compatible
chat-completions endpoint from ``[plugins.agent.llm]``, using this host's
tools (a configurable subset, never ``task`` itself) in a child session of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agenthost import Tool, Unavailable, tool

if TYPE_CHECKING:
    from agenthost import ToolContext
    from agenthost_agent.settings import AgentSettings


def make_task_tool(settings: AgentSettings) -> Tool:
    async def task(
        description: str,
        prompt: str,
        subagent_type: str | None = None,
        ctx: ToolContext = None,  # type: ignore[assignment]
    ) -> Any:
        """Hand a self-contained task to a sub-agent and get its final report. Use it for
        work that needs many steps of searching or reading whose details you do not need
        to see (finding where something is defined across a codebase, researching a
        question); give it everything it needs in the prompt, since it does not see this
        conversation. Its answer is not shown to the user: pass on what matters.

        :param description: a short (3-5 word) description of the task.
        :param prompt: the full instructions: the goal, what is known, what to return.
        :param subagent_type: the kind of sub-agent to use, when the agent offers several.
        """
        host = ctx.host
        if host.plugins.has("agenthost_run_subagent"):
            answer = await host.service(
                "run_subagent",
                description=description,
                prompt=prompt,
                subagent_type=subagent_type,
                session=ctx.session,
            )
            if answer is not None:
                return answer if isinstance(answer, (str, dict, list)) else str(answer)
        if settings.llm.configured:
            from agenthost_agent.builtin_subagent import BuiltinSubagent

            agent = BuiltinSubagent(settings, host, ctx.session)
            return await agent.run(description, prompt, subagent_type)
        raise Unavailable(
            "no sub-agent is available: the agent supplies none, and [plugins.agent.llm] "
            "base_url and model are not set; do the task yourself"
        )

    return tool(task, level="execute", open_world=True, timeout_s=settings.task.timeout_s)
