"""ask_user: the ask_user hook, then the session's front end, else an error."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time

from agenthost import Frontend, hookimpl


class AskHook:
    def __init__(self, answer):
        self.answer = answer
        self.asked: list[tuple] = []

    @hookimpl
    def agenthost_ask_user(self, question, options, multi_select, session):
        self.asked.append((question, options, multi_select, session.id))
        return self.answer


async def test_hook_answers(make_host):
    hook = AskHook("blue")
    host = await make_host(plugins=["agent"], hooks=[hook])
    async with host.session(id="s1") as session:
        result = await session.call(
            "ask_user", {"question": "Which colour?", "options": ["red", "blue", " "]}
        )
    assert result.ok, result.text
    assert result.data == {"question": "Which colour?", "answer": "blue"}
    assert hook.asked == [("Which colour?", ["red", "blue"], False, "s1")]


async def test_multi_select_answers_are_lists(make_host):
    host = await make_host(plugins=["agent"], hooks=[AskHook(["a", "c"])])
    result = await host.call(
        "ask_user", {"question": "Which?", "options": ["a", "b", "c"], "multi_select": True}
    )
    assert result.ok and result.data["answer"] == ["a", "c"]


async def test_async_hook_and_hook_order(make_host):
    class Declines:
        @hookimpl
        def agenthost_ask_user(self, question):
            return None

    class AsyncHook:
        @hookimpl
        async def agenthost_ask_user(self, question, options):
            return f"async answer to {question}"

    host = await make_host(plugins=["agent"], hooks=[AsyncHook(), Declines()])
    result = await host.call("ask_user", {"question": "Why?"})
    assert result.ok and result.data["answer"] == "async answer to Why?"


async def test_front_end_answers_when_no_hook_does(make_host):
    class ScriptedFrontend(Frontend):
        def __init__(self):
            self.questions = []

        async def ask_user(self, question, options, multi_select):
            self.questions.append(question)
            return options[-1]

    front = ScriptedFrontend()
    host = await make_host(plugins=["agent"], hooks=[AskHook(None)])
    async with host.session(frontend=front) as session:
        result = await session.call("ask_user", {"question": "Proceed?", "options": ["yes", "no"]})
    assert result.ok and result.data["answer"] == "no"
    assert front.questions == ["Proceed?"]


async def test_nobody_to_ask_is_an_error_saying_so(make_host):
    host = await make_host(plugins=["agent"])
    result = await host.call("ask_user", {"question": "Anyone there?"})
    assert not result.ok
    assert result.error.type == "unavailable"
    assert "nobody can be asked" in result.text


async def test_bad_arguments(make_host):
    host = await make_host(plugins=["agent"], hooks=[AskHook("x")])
    for args, words in [
        ({"question": "Pick", "multi_select": True}, "needs options"),
        ({"question": "Pick", "options": ["a", "a"]}, "repeat"),
        ({"question": "  "}, "empty"),
        ({}, "question"),
    ]:
        result = await host.call("ask_user", args)
        assert not result.ok and result.error.type == "invalid_arguments", args
        assert words in result.text, (args, result.text)


def test_terminal_prompt_through_the_command(workspace):
    """A person at a terminal: `agenthost call ask_user` prompts on the TTY and
    takes the number typed."""
    exe = os.path.join(os.path.dirname(sys.executable), "agenthost")
    if not os.path.exists(exe):
        exe = None
    command = [exe] if exe else [sys.executable, "-m", "agenthost.cli"]
    args = {"question": "Deploy now?", "options": ["later", "now"]}
    controller, terminal = pty.openpty()
    env = {**os.environ, "AGENTHOST_PLUGINS": "agent"}
    proc = subprocess.Popen(
        [*command, "call", "ask_user", json.dumps(args), "--json", "--workspace", str(workspace)],
        stdin=terminal,
        stderr=terminal,
        stdout=subprocess.PIPE,
        env=env,
    )
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"answer with a number" not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([controller], [], [], 1)
            if ready:
                try:
                    seen += os.read(controller, 4096)
                except OSError:  # the command exited: show what it said
                    raise AssertionError((seen, proc.communicate(timeout=10))) from None
        assert b"Deploy now?" in seen and b"2. now" in seen
        os.write(controller, b"2\n")
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(controller)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    result = json.loads(out)
    assert result["ok"] is True
    assert result["content"][0]["data"]["answer"] == "now"
