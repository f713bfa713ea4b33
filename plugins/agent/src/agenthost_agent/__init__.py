"""Agent tools for agenthost: todo_write, memory (SQLite FTS5), ask_user, task,
compact, skill.

Several of them need what only the embedding agent has (the person, the model,
the conversation) and reach it through core service hooks:
``agenthost_ask_user``, ``agenthost_run_subagent``, ``agenthost_compact``.

Listing tools imports only the modules that declare them and the settings; the
memory store, the built-in sub-agent and SQLite are imported on first use.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from agenthost import hookimpl
from agenthost_agent.ask import ask_user
from agenthost_agent.memory_tool import StoreSlot, make_memory_tool
from agenthost_agent.settings import AgentSettings
from agenthost_agent.skills import discover, make_skill_tool, skill_folders
from agenthost_agent.todo import TodoItem, TodoList, todo_write

if TYPE_CHECKING:
    from agenthost_agent.memory import MemoryStore

__all__ = ["AgentSettings", "MemoryStore", "TodoItem", "TodoList"]

_stores: weakref.WeakKeyDictionary[Any, StoreSlot] = weakref.WeakKeyDictionary()


def __getattr__(name: str) -> Any:
    if name == "MemoryStore":  # imported on first use: listing tools must not pay for it
        from agenthost_agent.memory import MemoryStore

        return MemoryStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@hookimpl
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section("agent", AgentSettings)
    register(todo_write)
    slot = _stores[host] = StoreSlot(config.state_dir / settings.memory_db)
    register(make_memory_tool(slot))
    register(ask_user)
    # task and compact are declared (imported) only where the host can serve them
    if host.plugins.has("agenthost_run_subagent") or settings.llm.configured:
        from agenthost_agent.subagent import make_task_tool

        register(make_task_tool(settings))
    if host.plugins.has("agenthost_compact"):
        from agenthost_agent.compact import compact

        register(compact)
    skill_tool, problems = make_skill_tool(
        skill_folders(settings.skills_dirs, config.workspace), config.workspace
    )
    register(skill_tool)
    for problem in problems:
        register.problem(problem)


@hookimpl
def agenthost_host_shutdown(host: Any) -> None:
    slot = _stores.pop(host, None)
    if slot is not None:
        slot.close()


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    from agenthost_agent.memory_db import fts5_available

    settings = config.section("agent", AgentSettings)
    rows = [
        {
            "name": "agent: SQLite FTS5 (memory)",
            "ok": fts5_available(),
            "detail": "full-text search for the memory tool",
            "fix": "use a Python whose sqlite3 is built with FTS5 (python.org and Debian builds are)",
        }
    ]
    llm = settings.llm
    if llm.configured:
        import os

        key_ok = not llm.api_key_env or bool(os.environ.get(llm.api_key_env))
        rows.append(
            {
                "name": "agent: sub-agent model",
                "ok": key_ok,
                "detail": f"{llm.model} at {llm.base_url}",
                "fix": f"export {llm.api_key_env}=..." if not key_ok else "",
            }
        )
    skills, problems = discover(skill_folders(settings.skills_dirs, config.workspace))
    rows.append(
        {
            "name": "agent: skills",
            "ok": not problems,
            "detail": f"{len(skills)} skill(s)" + (f"; {'; '.join(problems)}" if problems else ""),
            "fix": "fix the SKILL.md files named" if problems else "",
        }
    )
    return rows
