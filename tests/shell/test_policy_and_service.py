"""Policy through the bash tool (the core splits compound commands), and the
run_command service the JS plugin uses."""

from __future__ import annotations

import pytest

from agenthost import Denied, hookimpl

from .helpers import find_marked, shell_config


class Answers:
    """A permission_request hook that records what it was asked."""

    def __init__(self, answer: bool) -> None:
        self.answer = answer
        self.asked: list[tuple[str, str]] = []

    @hookimpl
    def agenthost_permission_request(self, tool, arguments, rule, session):
        self.asked.append((arguments["command"], rule))
        return self.answer


def policy(**rules):
    return {"policy": rules, **shell_config()}


async def test_ask_rule_catches_a_push_hidden_in_a_compound_command(make_host, workspace):
    host = await make_host(plugins=["shell"], config=policy(ask=["bash(git push *)"]))
    command = "touch made && git push origin"
    result = await host.call("bash", {"command": command})
    assert result.error.type == "denied"
    assert "ask: bash(git push *)" in result.text
    assert not (workspace / "made").exists()
    assert (await host.call("bash", {"command": "touch made"})).ok
    assert (workspace / "made").exists()


@pytest.mark.parametrize(
    "command",
    ["make && git push origin", "make; git push", "echo $(git push origin main)", "true | git push"],
)
async def test_the_person_is_asked_with_the_rule_that_matched(make_host, command):
    answers = Answers(False)
    host = await make_host(plugins=["shell"], config=policy(ask=["bash(git push *)"]), hooks=[answers])
    result = await host.call("bash", {"command": command})
    assert answers.asked == [(command, "bash(git push *)")]
    assert result.error.type == "denied" and "declined" in result.text


async def test_deny_wins_over_allow_across_parts(make_host, workspace):
    config = policy(allow=["bash(echo *)"], deny=["bash(curl *)"])
    host = await make_host(plugins=["shell"], config=config)
    result = await host.call("bash", {"command": "echo hi > f && curl -s http://127.0.0.1:9/"})
    assert result.error.type == "denied" and "deny: bash(curl *)" in result.text
    assert not (workspace / "f").exists()


async def test_execute_level_applies_to_bash(make_host):
    host = await make_host(plugins=["shell"], config=policy(levels={"execute": "deny"}))
    assert (await host.call("bash", {"command": "true"})).error.type == "denied"
    assert host.tools["bash"].level == "execute"
    assert host.tools["bash_kill"].level == "execute"
    assert host.tools["bash_output"].level == "read"
    assert host.tools["bash_list"].level == "read"


async def test_run_command_returns_the_documented_shape(make_host, workspace):
    (workspace / "sub").mkdir()
    host = await make_host(plugins=["shell"], config=shell_config())
    async with host.session() as session:
        out = await host.service(
            "run_command", command="pwd; echo e >&2; exit 4", cwd="sub", timeout_s=10, session=session
        )
    assert out == {"stdout": f"{workspace / 'sub'}\n", "stderr": "e\n", "exit_code": 4, "timed_out": False}


async def test_run_command_times_out_and_reaps(make_host, marker):
    host = await make_host(plugins=["shell"], config=shell_config())
    async with host.session() as session:
        out = await host.service(
            "run_command", command=f"echo before; sleep 1{marker}", cwd=None, timeout_s=0.5, session=session
        )
        assert out["timed_out"] is True
        assert out["stdout"] == "before\n"
        assert out["exit_code"] is not None and out["exit_code"] < 0
        assert find_marked(marker) == []
        # background pieces it leaves behind are stopped too
        await host.service(
            "run_command", command=f"sleep 2{marker} &", cwd=None, timeout_s=5, session=session
        )
        assert find_marked(marker) == []


async def test_run_command_uses_the_screen_and_the_workspace_bounds(make_host):
    from agenthost import OutsideWorkspace

    host = await make_host(plugins=["shell"])
    async with host.session() as session:
        with pytest.raises(Denied, match="fork-bomb"):
            await host.service("run_command", command=":(){ :|:& };:", cwd=None, timeout_s=5, session=session)
        with pytest.raises(OutsideWorkspace):
            await host.service("run_command", command="true", cwd="/etc", timeout_s=5, session=session)


async def test_run_command_is_sandboxed_when_configured(make_host, tmp_path):
    from .helpers import need_bwrap

    need_bwrap()
    host = await make_host(plugins=["shell"], config=shell_config(sandbox="bwrap"))
    async with host.session() as session:
        out = await host.service(
            "run_command", command="echo x > /var/tmp/agenthost-nope", cwd=None, timeout_s=10, session=session
        )
    assert out["exit_code"] != 0 and "Read-only file system" in out["stderr"]
