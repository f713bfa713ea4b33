"""Agent tools for agenthost: todo_write, memory (SQLite FTS5), ask_user, task,
compact, skill.

Several of them need what only the embedding agent has (the person, the model,
the conversation) and reach it through core service hooks:
``agenthost_ask_user``, ``agenthost_run_subagent``, ``agenthost_compact``.
"""

from __future__ import annotations

import weakref
from typing import Any

from agenthost import hookimpl
from agenthost_agent.ask import ask_user
from agenthost_agent.compact import compact
from agenthost_agent.memory import MemoryStore, fts5_available
from agenthost_agent.memory_tool import make_memory_tool
from agenthost_agent.settings import AgentSettings
from agenthost_agent.skills import discover, make_skill_tool, skill_folders
from agenthost_agent.subagent import make_task_tool
from agenthost_agent.todo import TodoItem, TodoList, todo_write

__all__ = ["AgentSettings", "MemoryStore", "TodoItem", "TodoList"]

_stores: weakref.WeakKeyDictionary[Any, MemoryStore] = weakref.WeakKeyDictionary()


@hookimpl
def agenthost_register_tools(register: Any, config: Any, host: Any) -> None:
    settings = config.section("agent", AgentSettings)
    register(todo_write)
    store = MemoryStore(config.state_dir / settings.memory_db)
    _stores[host] = store
    register(make_memory_tool(store))
    register(ask_user)
    if host.plugins.has("agenthost_run_subagent") or settings.llm.configured:
        register(make_task_tool(settings))
    if host.plugins.has("agenthost_compact"):
        register(compact)
    skill_tool, problems = make_skill_tool(
        skill_folders(settings.skills_dirs, config.workspace), config.workspace
    )
    register(skill_tool)
    for problem in problems:
        register.problem(problem)


@hookimpl
def agenthost_host_shutdown(host: Any) -> None:
    store = _stores.pop(host, None)
    if store is not None:
        store.close()


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
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
