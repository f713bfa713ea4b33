"""todo_write: the session's list, replaced whole, validated, per session."""

from __future__ import annotations


def items(*pairs):
    return [{"content": c, "status": s} for c, s in pairs]


async def test_replaced_whole_and_rendered(make_host):
    host = await make_host(plugins=["agent"])
    async with host.session() as session:
        first = await session.call(
            "todo_write",
            {
                "todos": [
                    {"content": "Write the parser", "status": "completed"},
                    {"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"},
                    {"content": "Update docs", "status": "pending"},
                ]
            },
        )
        assert first.ok, first.text
        lines = first.text.splitlines()
        assert lines[0] == "Todo list updated: 3 item(s), 1 completed, 1 in progress, 1 pending."
        assert lines[1:] == [
            "[x] 1. Write the parser",
            "[~] 2. Run the tests  (now: Running the tests)",
            "[ ] 3. Update docs",
        ]
        second = await session.call("todo_write", {"todos": items(("Only this", "pending"))})
        assert second.ok
        todos = session.peek("agent.todos")
        assert [(t.content, t.status) for t in todos.items] == [("Only this", "pending")]
        assert "Nothing is in progress" in second.text
        cleared = await session.call("todo_write", {"todos": []})
        assert cleared.ok and cleared.text == "The todo list is now empty."
        assert session.peek("agent.todos").items == []


async def test_at_most_one_in_progress_and_the_list_is_kept(make_host):
    host = await make_host(plugins=["agent"])
    async with host.session() as session:
        await session.call("todo_write", {"todos": items(("a", "pending"))})
        bad = await session.call("todo_write", {"todos": items(("a", "in_progress"), ("b", "in_progress"))})
        assert not bad.ok and bad.error.type == "invalid_arguments"
        assert "items 1, 2" in bad.text
        assert [t.content for t in session.peek("agent.todos").items] == ["a"]


async def test_schema_rejects_bad_items(make_host):
    host = await make_host(plugins=["agent"])
    for todos in (
        [{"content": "x", "status": "done"}],
        [{"content": "", "status": "pending"}],
        [{"status": "pending"}],
        [{"content": "x", "status": "pending", "priority": "high"}],
        "not a list",
    ):
        result = await host.call("todo_write", {"todos": todos})
        assert not result.ok and result.error.type == "invalid_arguments", todos
    dup = await host.call("todo_write", {"todos": items(("same", "pending"), ("same ", "completed"))})
    assert not dup.ok and "same" in dup.text


async def test_each_session_has_its_own_list_released_at_the_end(make_host):
    host = await make_host(plugins=["agent"])
    one = host.session()
    two = host.session()
    async with one, two:
        await one.call("todo_write", {"todos": items(("one's task", "pending"))})
        await two.call("todo_write", {"todos": items(("two's task", "in_progress"))})
        assert [t.content for t in one.peek("agent.todos").items] == ["one's task"]
        assert [t.content for t in two.peek("agent.todos").items] == ["two's task"]
    assert one.peek("agent.todos") is None
