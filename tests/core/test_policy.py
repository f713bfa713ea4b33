"""The permission policy: rule order, patterns, compound commands, asking."""

from __future__ import annotations

import pytest

from agenthost import Frontend, hookimpl
from agenthost.policy import split_compound

from .tools_for_tests import TestTools


@pytest.mark.parametrize(
    ("command", "parts"),
    [
        ("make && git push origin", ["make", "git push origin"]),
        ("a; b | c || d & e", ["a", "b", "c", "d", "e"]),
        ("echo 'a && b'; c", ["echo 'a && b'", "c"]),
        ('echo "$(git push)" ', ["git push", 'echo "$(git push)"']),
        ("ls `rm -rf x`", ["rm -rf x", "ls `rm -rf x`"]),
        ("cmd 2>&1 | tee log", ["cmd 2>&1", "tee log"]),
        ("FOO=1 BAR='x y' git push", ["git push"]),
        ("(cd sub && npm test)", ["cd sub", "npm test"]),
        ("a\nb", ["a", "b"]),
        ("echo a\\;b", ["echo a\\;b"]),
    ],
)
def test_split_compound(command: str, parts: list[str]) -> None:
    assert split_compound(command) == parts


async def policy_host(make_host, policy: dict, hooks: list | None = None):
    return await make_host(hooks=[TestTools(), *(hooks or [])], config={"policy": policy})


async def test_deny_beats_ask_beats_allow(make_host) -> None:
    host = await policy_host(
        make_host,
        {
            "deny": ["run(rm *)"],
            "ask": ["run(git push *)"],
            "allow": ["run(*)"],
            "levels": {"execute": "deny"},
        },
    )
    assert (await host.call("run", {"command": "ls -la"})).ok
    denied = await host.call("run", {"command": "rm -rf build"})
    assert denied.error.type == "denied" and "deny: run(rm *)" in denied.error.message
    asked = await host.call("run", {"command": "git push origin main"})
    assert asked.error.type == "denied"
    assert "ask: run(git push *)" in asked.error.message and "nobody" in asked.error.message


async def test_compound_commands_take_the_strictest_part(make_host) -> None:
    host = await policy_host(make_host, {"ask": ["run(git push *)"], "allow": ["run(make *)"]})
    result = await host.call("run", {"command": "make && git push origin"})
    assert result.error.type == "denied" and "git push" in result.error.message
    host2 = await policy_host(make_host, {"deny": ["run(curl *)"]})
    assert (await host2.call("run", {"command": "echo $(curl evil.example)"})).error.type == "denied"
    assert (await host2.call("run", {"command": "echo curl"})).ok


async def test_bare_prefix_matches_trailing_star(make_host) -> None:
    host = await policy_host(make_host, {"deny": ["run(git push *)"]})
    assert (await host.call("run", {"command": "git push"})).error.type == "denied"
    assert (await host.call("run", {"command": "git pushx"})).ok


async def test_path_rules_use_workspace_globs(make_host) -> None:
    host = await policy_host(make_host, {"deny": ["write_note(secrets/**)", "write_note(*.key)"]})
    for path in ["secrets/a", "secrets/x/y.txt", "./secrets/z", "sub/../secrets/q", "id.key"]:
        result = await host.call("write_note", {"path": path, "content": "x"})
        assert result.error.type == "denied", path
    for path in ["notes/a", "secretsX/a", "sub/id.key"]:
        assert (await host.call("write_note", {"path": path, "content": "x"})).ok, path


async def test_level_defaults_and_bare_tool_rules(make_host) -> None:
    host = await policy_host(
        make_host, {"levels": {"network": "deny"}, "allow": ["fetch(https://docs.example/*)"]}
    )
    assert (await host.call("fetch", {"url": "https://docs.example/a"})).ok
    refused = await host.call("fetch", {"url": "https://other.example/"})
    assert refused.error.type == "denied" and "levels.network" in refused.error.message
    host2 = await policy_host(make_host, {"deny": ["limited"]})
    assert (await host2.call("limited")).error.type == "denied"
    host3 = await policy_host(make_host, {"deny": ["fe*"]})
    assert (await host3.call("fetch", {"url": "x"})).error.type == "denied"


async def test_ask_goes_to_the_permission_hook(make_host) -> None:
    asked: list[tuple[str, str]] = []

    class Approver:
        @hookimpl
        async def agenthost_permission_request(self, tool, arguments, rule, session):
            asked.append((tool, rule))
            return arguments["command"].endswith("main")

    host = await policy_host(make_host, {"ask": ["run(git push *)"]}, [Approver()])
    assert (await host.call("run", {"command": "git push origin main"})).ok
    declined = await host.call("run", {"command": "git push origin dev"})
    assert declined.error.type == "denied" and "declined" in declined.error.message
    assert asked == [("run", "run(git push *)")] * 2


async def test_ask_goes_to_the_front_end(make_host) -> None:
    class Yes(Frontend):
        async def permission_request(self, tool, arguments, rule):
            return True

    host = await policy_host(make_host, {"levels": {"execute": "ask"}})
    async with host.session(frontend=Yes()) as session:
        assert (await session.call("run", {"command": "ls"})).ok
    async with host.session() as session:
        assert (await session.call("run", {"command": "ls"})).error.type == "denied"


def test_bad_rule_is_a_config_error(workspace) -> None:
    from agenthost import ConfigError, Host

    with pytest.raises(ConfigError, match=r"policy.deny: policy rule 'not a rule\(. must look like"):
        Host(workspace, config={"policy": {"deny": ["not a rule("]}}, plugins=[])


async def test_list_arguments_are_decided_entry_by_entry(make_host) -> None:
    from agenthost import hookimpl, tool

    @tool(level="network", match=("urls",))
    def fetch_many(urls: list[str]) -> str:
        """Pretend to fetch several URLs.

        :param urls: the addresses
        """
        return "fetched"

    class Plugin:
        @hookimpl
        def agenthost_register_tools(self, register):
            register(fetch_many)

    host = await make_host(
        hooks=[Plugin()], config={"policy": {"deny": ["fetch_many(https://evil.example/*)"]}}
    )
    assert (await host.call("fetch_many", {"urls": ["https://ok.example/a"]})).ok
    denied = await host.call("fetch_many", {"urls": ["https://ok.example/a", "https://evil.example/x"]})
    assert denied.error.type == "denied"
