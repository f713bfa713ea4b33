"""``todo_write``: the session's task list, replaced whole on every call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from agenthost import InvalidArguments, Param, tool

if TYPE_CHECKING:
    from agenthost import ToolContext

STATE_KEY = "agent.todos"
MAX_ITEMS = 100
_MARK = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}


@dataclass
class TodoItem:
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}  # unknown keys are errors

    content: Annotated[str, Param(min_length=1, max_length=2000, description="what to do, imperative")]
    status: Literal["pending", "in_progress", "completed"]
    activeForm: Annotated[
        str | None,
        Param(description="the same task as it is being done, e.g. 'Running the tests'"),
    ] = None


class TodoList:
    """The session's list; embedding apps read it with ``session.peek("agent.todos")``."""

    def __init__(self) -> None:
        self.items: list[TodoItem] = []

    def replace(self, items: list[TodoItem]) -> None:
        self.items = list(items)

    def render(self) -> str:
        if not self.items:
            return "The todo list is now empty."
        counts = {s: sum(i.status == s for i in self.items) for s in _MARK}
        lines = [
            f"Todo list updated: {len(self.items)} item(s), {counts['completed']} completed, "
            f"{counts['in_progress']} in progress, {counts['pending']} pending."
        ]
        for n, item in enumerate(self.items, 1):
            line = f"{_MARK[item.status]} {n}. {item.content}"
            if item.status == "in_progress" and item.activeForm:
                line += f"  (now: {item.activeForm})"
            lines.append(line)
        if counts["in_progress"] == 0 and counts["pending"]:
            lines.append("Nothing is in progress: mark the item you start next as in_progress.")
        return "\n".join(lines)


@tool(level="read")
def todo_write(todos: list[TodoItem], ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Create and manage the task list for this session. Each call replaces the whole
    list, so send every item each time (completed ones too). Use it for work with
    three or more steps: add the steps, mark one in_progress before starting it,
    and mark it completed as soon as it is done. At most one item is in_progress
    at a time. Send an empty list to clear it.

    :param todos: the complete list, in order; each item has content, status
        (pending, in_progress, completed) and optionally activeForm.
    """
    if len(todos) > MAX_ITEMS:
        raise InvalidArguments(f"at most {MAX_ITEMS} todo items; merge or drop some")
    doing = [i + 1 for i, item in enumerate(todos) if item.status == "in_progress"]
    if len(doing) > 1:
        raise InvalidArguments(
            f"only one item may be in_progress at a time, got items {', '.join(map(str, doing))}; "
            "mark the others pending or completed"
        )
    seen: dict[str, int] = {}
    for n, item in enumerate(todos, 1):
        text = " ".join(item.content.split())
        if not text:
            raise InvalidArguments(f"todo item {n} has empty content")
        if text in seen:
            raise InvalidArguments(f"todo items {seen[text]} and {n} are the same; keep one")
        seen[text] = n
    todo_list = ctx.state(STATE_KEY, TodoList)
    todo_list.replace(todos)
    return todo_list.render()
