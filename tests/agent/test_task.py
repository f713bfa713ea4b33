"""task: the run_subagent hook first, else the built-in sub-agent over a
(loopback, scripted) OpenAI-compatible endpoint."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agenthost import hookimpl

from .fake_openai import FakeOpenAI, answer, calls, tool_call


def llm_config(base_url: str, **task: Any) -> dict[str, Any]:
    section: dict[str, Any] = {"llm": {"base_url": base_url, "model": "fake-model"}}
    if task:
        section["task"] = task
    return {"plugins": {"agent": section}}


class SubagentHook:
    def __init__(self, reply: Any = "the hook's report") -> None:
        self.reply = reply
        self.seen: list[dict[str, Any]] = []

    @hookimpl
    def agenthost_run_subagent(self, description, prompt, subagent_type, session):
        self.seen.append(
            {"description": description, "prompt": prompt, "type": subagent_type, "session": session}
        )
        return self.reply


async def test_task_not_registered_without_hook_or_llm(make_host):
    host = await make_host(plugins=["agent"])
    assert "task" not in host.tools
    assert "todo_write" in host.tools  # the plugin did load


async def test_task_delegates_to_the_run_subagent_hook(make_host):
    hook = SubagentHook()
    host = await make_host(plugins=["agent"], hooks=[hook])
    assert "task" in host.tools
    async with host.session() as session:
        result = await session.call(
            "task", {"description": "find config", "prompt": "Where is X set?", "subagent_type": "explore"}
        )
    assert result.ok, result.text
    assert result.text == "the hook's report"
    assert hook.seen == [
        {"description": "find config", "prompt": "Where is X set?", "type": "explore", "session": session}
    ]


async def test_async_hook_answer_is_awaited(make_host):
    class AsyncHook:
        @hookimpl
        async def agenthost_run_subagent(self, description, prompt):
            return f"async: {description} / {prompt}"

    host = await make_host(plugins=["agent"], hooks=[AsyncHook()])
    result = await host.call("task", {"description": "d", "prompt": "p"})
    assert result.ok and result.text == "async: d / p"


async def test_hook_that_declines_without_llm_is_unavailable(make_host):
    host = await make_host(plugins=["agent"], hooks=[SubagentHook(reply=None)])
    result = await host.call("task", {"description": "d", "prompt": "p"})
    assert not result.ok
    assert result.error.type == "unavailable"
    assert "[plugins.agent.llm]" in result.text


async def test_hook_that_declines_falls_back_to_the_builtin_subagent(make_host):
    with FakeOpenAI([answer("built-in did it")]) as server:
        host = await make_host(
            plugins=["agent"], config=llm_config(server.base_url), hooks=[SubagentHook(None)]
        )
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert result.ok and result.text == "built-in did it"
    assert len(server.requests) == 1


async def test_builtin_subagent_runs_a_tool_loop_over_the_hosts_tools(make_host):
    script = [
        calls(
            tool_call(
                "memory",
                {"action": "write", "key": "release-date", "content": "Release 2.0 ships on 14 March"},
            )
        ),
        calls(tool_call("memory", {"action": "search", "query": "release ships"}, call_id="c2")),
        answer("Saved the release date; search finds it under release-date."),
    ]
    with FakeOpenAI(script) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url))
        assert "task" in host.tools
        result = await host.call(
            "task",
            {"description": "remember date", "prompt": "Store the release date.", "subagent_type": "ops"},
        )
    assert result.ok, result.text
    assert result.text == "Saved the release date; search finds it under release-date."
    assert len(server.requests) == 3
    first = server.requests[0]
    assert first["model"] == "fake-model"
    offered = {t["function"]["name"] for t in first["tools"]}
    assert "memory" in offered and "todo_write" in offered
    assert "task" not in offered  # never nested
    system, user = first["messages"][0], first["messages"][1]
    assert system["role"] == "system" and "'ops'" in system["content"]
    assert "Store the release date." in user["content"] and "remember date" in user["content"]
    # the second request carries the first tool's real result
    tool_message = server.requests[1]["messages"][-1]
    assert tool_message["role"] == "tool"
    assert json.loads(tool_message["content"])["status"] == "created"
    # the third carries the real search result, found in the real database
    search_message = server.requests[2]["messages"][-1]
    assert search_message["tool_call_id"] == "c2"
    assert json.loads(search_message["content"])["results"][0]["key"] == "release-date"
    # and the memory outlives the sub-agent
    read = await host.call("memory", {"action": "read", "key": "release-date"})
    assert read.ok and read.data["content"] == "Release 2.0 ships on 14 March"


async def test_builtin_subagent_runs_in_its_own_session(make_host):
    script = [
        calls(tool_call("todo_write", {"todos": [{"content": "child step", "status": "pending"}]})),
        answer("done"),
    ]
    with FakeOpenAI(script) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url))
        async with host.session() as parent:
            await parent.call("todo_write", {"todos": [{"content": "parent step", "status": "in_progress"}]})
            result = await parent.call("task", {"description": "d", "prompt": "p"})
            assert result.ok, result.text
            todos = parent.peek("agent.todos")
            assert [t.content for t in todos.items] == ["parent step"]
    assert "child step" in server.requests[1]["messages"][-1]["content"]


async def test_tool_subset_and_errors_reach_the_model(make_host):
    script = [
        calls(
            tool_call("todo_write", {"todos": []}, call_id="a"),
            tool_call("memory", "{not json", call_id="b"),
            tool_call("memory", {"action": "read", "key": "nope"}, call_id="c"),
        ),
        answer("gave up"),
    ]
    with FakeOpenAI(script) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url, tools=["mem*"]))
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert result.ok and result.text == "gave up"
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == ["memory"]
    replies = {m["tool_call_id"]: m["content"] for m in server.requests[1]["messages"] if m["role"] == "tool"}
    assert "'todo_write' is not available" in replies["a"]
    assert "not valid JSON" in replies["b"]
    assert replies["c"].startswith("error (not_found)")


async def test_max_turns_then_a_last_request_without_tools(make_host):
    looping = calls(tool_call("memory", {"action": "list"}))
    script = [looping, looping, answer("partial: listed memories twice")]
    with FakeOpenAI(script) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url, max_turns=2))
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert result.ok and result.text == "partial: listed memories twice"
    assert len(server.requests) == 3
    assert "tool_choice" not in server.requests[1]
    assert server.requests[2]["tool_choice"] == "none"
    assert "used all 2 turns" in server.requests[2]["messages"][-1]["content"]


async def test_max_turns_exhausted_is_an_error(make_host):
    with FakeOpenAI([calls(tool_call("memory", {"action": "list"}))], repeat_last=True) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url, max_turns=3))
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert not result.ok
    assert "max_turns=3" in result.text
    assert len(server.requests) == 4


async def test_api_key_comes_from_the_named_environment_variable(make_host, monkeypatch):
    with FakeOpenAI([answer("ok")]) as server:
        config = llm_config(server.base_url)
        config["plugins"]["agent"]["llm"]["api_key_env"] = "AGENT_TEST_LLM_KEY"
        host = await make_host(plugins=["agent"], config=config)
        monkeypatch.delenv("AGENT_TEST_LLM_KEY", raising=False)
        missing = await host.call("task", {"description": "d", "prompt": "p"})
        assert not missing.ok and missing.error.type == "unavailable"
        assert "AGENT_TEST_LLM_KEY" in missing.text
        assert server.requests == []
        monkeypatch.setenv("AGENT_TEST_LLM_KEY", "sk-test-123")
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert result.ok
    assert server.headers[0]["authorization"] == "Bearer sk-test-123"


async def test_endpoint_errors_are_reported(make_host):
    with FakeOpenAI([(503, '{"error": {"message": "overloaded"}}')]) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url))
        result = await host.call("task", {"description": "d", "prompt": "p"})
        base_url = server.base_url
    assert not result.ok and result.error.type == "tool_error"
    assert "HTTP 503" in result.text and "overloaded" in result.text
    # the server is gone now: nothing listens on that port
    host2 = await make_host(plugins=["agent"], config=llm_config(base_url))
    gone = await host2.call("task", {"description": "d", "prompt": "p"})
    assert not gone.ok and gone.error.type == "unavailable"
    assert "cannot reach" in gone.text


@pytest.mark.parametrize("body", ['{"choices": []}', "not json"])
async def test_malformed_endpoint_answers_are_errors(make_host, body):
    with FakeOpenAI([(200, body)]) as server:
        host = await make_host(plugins=["agent"], config=llm_config(server.base_url))
        result = await host.call("task", {"description": "d", "prompt": "p"})
    assert not result.ok and "no chat-completions answer" in result.text
