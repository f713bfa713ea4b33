"""Config: unknown or ill-typed keys name the key and the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthost import ConfigError, Host, Section, hookimpl
from agenthost.config import Config


def write(workspace: Path, text: str) -> Path:
    path = workspace / "agenthost.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file(workspace: Path) -> None:
    config = Config.load(workspace)
    assert config.host.timeout_s == 120 and config.policy.levels.execute == "allow"
    assert config.state_dir == workspace / ".agenthost"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[host]\ntimeout = 5\n", "agenthost.toml: host.timeout: unknown key"),
        ("[host]\ntimeout_s = 'soon'\n", "agenthost.toml: host.timeout_s: Input should be a valid number"),
        ("[policy]\nlevels = { write = 'maybe' }\n", "agenthost.toml: policy.levels.write: Input should be"),
        ("[hots]\n", "agenthost.toml: hots: unknown key"),
        ("[host\n", "agenthost.toml: invalid TOML"),
    ],
)
def test_errors_name_key_and_file(workspace: Path, text: str, message: str) -> None:
    write(workspace, text)
    with pytest.raises(ConfigError) as info:
        Host(workspace, plugins=[])
    assert message in str(info.value)
    assert str(workspace) in str(info.value)


def test_config_is_found_by_argument_then_environment(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    write(workspace, "[host]\ntimeout_s = 1\n")
    other = tmp_path / "other.toml"
    other.write_text("[host]\ntimeout_s = 2\n")
    monkeypatch.setenv("AGENTHOST_CONFIG", str(other))
    assert Host(workspace, plugins=[]).config.host.timeout_s == 2
    third = tmp_path / "third.toml"
    third.write_text("[host]\ntimeout_s = 3\n")
    assert Host(workspace, config=third, plugins=[]).config.host.timeout_s == 3
    monkeypatch.delenv("AGENTHOST_CONFIG")
    assert Host(workspace, plugins=[]).config.host.timeout_s == 1


def test_missing_config_file_is_an_error(workspace: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        Host(workspace, config=workspace / "nope.toml", plugins=[])


class GreeterSettings(Section):
    greeting: str = "Hello"
    times: int = 1


def test_plugin_sections_are_validated_by_the_plugin(workspace: Path) -> None:
    seen: list[GreeterSettings] = []

    class Greeter:
        @hookimpl
        def agenthost_register_tools(self, register, config):
            seen.append(config.section("greeter", GreeterSettings))

    write(workspace, "[plugins.greeter]\ngreeting = 'Hi'\n")
    Host(workspace, plugins=[], hooks=[Greeter()])
    assert seen[0].greeting == "Hi" and seen[0].times == 1

    write(workspace, "[plugins.greeter]\ngreting = 'Hi'\n")
    host = Host(workspace, plugins=[], hooks=[Greeter()])
    failed = [i for i in host.plugin_infos if i.status == "failed"]
    assert len(failed) == 1
    assert "agenthost.toml: plugins.greeter.greting: unknown key" in failed[0].error


def test_workspace_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a folder"):
        Host(tmp_path / "missing", plugins=[])
