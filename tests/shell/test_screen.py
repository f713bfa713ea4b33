"""The danger screen, the allow-list and the child environment."""

from __future__ import annotations

import pytest

from agenthost import ConfigError, Host

from .helpers import shell_config

BLOCKED = [
    ("rm -rf /", "rm-recursive-root"),
    ("rm -fr /*", "rm-recursive-root"),
    ("sudo rm -r -f ~", "rm-recursive-root"),
    ("rm -rf $HOME", "rm-recursive-root"),
    ("rm -Rf /usr", "rm-recursive-root"),
    ("cd /tmp && rm --recursive /etc", "rm-recursive-root"),
    ("rm -rf --no-preserve-root /", "rm-recursive-root"),
    ("rm --no-preserve-root -r x", "rm-no-preserve-root"),
    ("mkfs.ext4 /dev/sdb1", "mkfs"),
    ("dd if=/dev/zero of=/dev/sda bs=1M", "dd-if"),
    ("echo x > /dev/sda", "raw-device-write"),
    ("cat image >/dev/nvme0n1", "raw-device-write"),
    (":(){ :|:& };:", "fork-bomb"),
    ("bomb(){ bomb|bomb& };bomb", "fork-bomb-named"),
    ("shutdown -h now", "power"),
    ("make && sudo reboot", "power"),
    ("systemctl poweroff", "power"),
    ("chmod -R 777 /", "chmod-chown-root"),
    ("format c:", "windows-format"),
    ("del /f /q x", "windows-del"),
]

ALLOWED = [
    "rm -rf build node_modules",
    "rm -rf ./dist/*",
    "git log --format=%H -n1 || true",
    "grep -c shutdown notes.txt || true",
    "echo 'reboot later' > plan.txt",
    "python3 -c 'print(1)'",
    "dd --version | head -1",
]


@pytest.mark.parametrize(("command", "rule"), BLOCKED)
async def test_dangerous_commands_are_refused_naming_the_rule(make_host, workspace, command, rule):
    (workspace / "canary").write_text("still here")
    host = await make_host(plugins=["shell"])
    result = await host.call("bash", {"command": command})
    assert not result.ok
    assert result.error.type == "denied"
    assert f"rule {rule!r}" in result.text
    assert (workspace / "canary").read_text() == "still here"


@pytest.mark.parametrize("command", ALLOWED)
async def test_everyday_commands_pass_the_screen(make_host, workspace, command):
    (workspace / "build").mkdir()
    (workspace / "notes.txt").write_text("shutdown\n")
    host = await make_host(plugins=["shell"])
    result = await host.call("bash", {"command": command})
    assert result.ok, result.text


async def test_the_builtin_screen_can_be_turned_off(make_host):
    host = await make_host(plugins=["shell"], config=shell_config(builtin_screen=False))
    result = await host.call("bash", {"command": "echo 'dd if=x' | cat"})
    assert result.ok
    assert "dd if=x" in result.text


async def test_configured_deny_patterns_are_added(make_host):
    host = await make_host(plugins=["shell"], config=shell_config(deny_patterns=[r"\bcurl\b"]))
    result = await host.call("bash", {"command": "echo a && curl -V"})
    assert result.error.type == "denied"
    assert "deny_patterns[0]" in result.text
    assert (await host.call("bash", {"command": "echo curly"})).ok


async def test_the_allow_list_checks_every_part_of_a_compound_command(make_host):
    host = await make_host(plugins=["shell"], config=shell_config(allow_patterns=[r"echo\b", r"ls\b"]))
    assert (await host.call("bash", {"command": "echo hi && ls"})).ok
    result = await host.call("bash", {"command": "echo hi && touch evil"})
    assert result.error.type == "denied"
    assert "'touch evil'" in result.text
    result = await host.call("bash", {"command": "echo $(id)"})
    assert result.error.type == "denied"
    assert "'id'" in result.text


def test_an_invalid_pattern_is_a_config_error_naming_the_key(workspace):
    from agenthost.config import Config
    from agenthost_shell import ShellSettings

    config = Config.load(workspace, shell_config(deny_patterns=["("]))
    with pytest.raises(ConfigError, match=r"plugins\.shell\.deny_patterns"):
        config.section("shell", ShellSettings)
    host = Host(workspace, config=config, plugins=["shell"])
    info = next(i for i in host.plugin_infos if i.name == "shell")
    assert info.status == "failed" and "deny_patterns" in info.error
    assert "bash" not in host.tools


async def test_children_do_not_inherit_secret_looking_variables(make_host, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-1")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-2")
    monkeypatch.setenv("DB_PASSWORD", "pw-3")
    monkeypatch.setenv("APP_SECRET", "s-4")
    monkeypatch.setenv("AGENTHOST_TOKEN", "t-5")
    monkeypatch.setenv("PLAIN_SETTING", "visible-6")
    host = await make_host(plugins=["shell"])
    result = await host.call("bash", {"command": "env"})
    assert result.ok
    for secret in ("sk-1", "ghp-2", "pw-3", "s-4", "t-5"):
        assert secret not in result.text
    assert "PLAIN_SETTING=visible-6" in result.text


async def test_env_passthrough_lets_named_secrets_through(make_host, monkeypatch):
    monkeypatch.setenv("NPM_TOKEN", "npm-1")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-2")
    host = await make_host(plugins=["shell"], config=shell_config(env_passthrough=["NPM_*"]))
    result = await host.call("bash", {"command": "echo [$NPM_TOKEN] [$GITHUB_TOKEN]"})
    assert "[npm-1] []" in result.text
