"""The `agenthost` command, run as a user would, in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import SITE


def agenthost(
    *args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess:
    inherited = {k: v for k, v in os.environ.items() if k not in ("AGENTHOST_PLUGINS", "AGENTHOST_CONFIG")}
    full_env = {**inherited, "PYTHONPATH": str(SITE), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "agenthost.cli", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


ONLY_SAMPLE = {"AGENTHOST_PLUGINS": "sample"}


def assert_one_line(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


def test_plugins_json_lists_the_broken_plugin_as_failed(workspace: Path) -> None:
    out = agenthost("plugins", "--json", cwd=workspace)
    assert out.returncode == 0, out.stderr
    plugins = {p["name"]: p for p in json.loads(out.stdout)}
    assert plugins["broken"]["status"] == "failed" and "frobnicate" in plugins["broken"]["error"]
    assert plugins["broken"]["distribution"] == "agenthost_broken_test"
    assert plugins["sample"]["status"] == "loaded" and sorted(plugins["sample"]["tools"]) == ["add", "greet"]
    others = {n: p for n, p in plugins.items() if n not in {"broken", "raising", "zdup", "sample"}}
    assert others, "the repository's own plugins should be installed in this environment"
    assert all(p["status"] == "loaded" for p in others.values()), others
    for p in plugins.values():
        assert set(p) == {"name", "distribution", "version", "status", "error", "tools", "problems"}
    text = agenthost("plugins", cwd=workspace)
    assert "broken" in text.stdout and "FAILED" in text.stdout


def test_tools_json(workspace: Path) -> None:
    out = agenthost("tools", "--json", cwd=workspace, env=ONLY_SAMPLE)
    tools = json.loads(out.stdout)
    assert [t["name"] for t in tools] == ["add", "greet"]
    assert tools[1] == {
        "name": "greet",
        "plugin": "sample",
        "level": "read",
        "description": "Greet someone by name.",
        "annotations": {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
    }
    plain = agenthost("tools", cwd=workspace, env=ONLY_SAMPLE)
    assert plain.stdout.splitlines()[1].split()[:3] == ["greet", "read", "sample"]


def test_call_success(workspace: Path) -> None:
    out = agenthost("call", "greet", '{"name": "Ada"}', cwd=workspace, env=ONLY_SAMPLE)
    assert (out.returncode, out.stdout, out.stderr) == (0, "Hello, Ada!\n", "")
    args = agenthost("call", "add", "--arg", "a=2", "--arg", "b=40", "--json", cwd=workspace, env=ONLY_SAMPLE)
    result = json.loads(args.stdout)
    assert result["ok"] and result["content"] == [{"type": "json", "data": {"sum": 42}}]
    assert set(result) == {"ok", "content", "error", "call_id", "duration_ms"}
    string = agenthost("call", "greet", "--arg", "name=42", cwd=workspace, env=ONLY_SAMPLE)
    assert string.returncode == 2 and "name: 42 is not of type 'string'" in string.stderr


def test_call_with_a_bad_argument_prints_one_line_and_exits_2(workspace: Path) -> None:
    out = agenthost("call", "add", '{"a": 1, "b": 500}', cwd=workspace, env=ONLY_SAMPLE)
    assert out.returncode == 2 and out.stdout == ""
    assert_one_line(out.stderr)
    assert "b: 500 is greater than the maximum of 100" in out.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["call", "gret", "{}"], "did you mean 'greet'"),
        (["call", "greet", "{not json"], "arguments are not valid JSON"),
        (["call", "greet", "[1]"], "must be a JSON object"),
        (["call", "greet", "--arg", "novalue"], "must look like key=value"),
        (["call"], "the following arguments are required: tool"),
        (["nosuch"], "invalid choice"),
        (["tools", "--workspace", "/nonexistent/dir"], "is not a folder"),
    ],
)
def test_usage_errors_exit_2_with_one_line(workspace: Path, args: list[str], fragment: str) -> None:
    out = agenthost(*args, cwd=workspace, env=ONLY_SAMPLE)
    assert out.returncode == 2, out
    assert_one_line(out.stderr)
    assert fragment in out.stderr


def test_tool_errors_exit_1(workspace: Path) -> None:
    (workspace / "agenthost.toml").write_text('[policy]\ndeny = ["greet"]\n')
    out = agenthost("call", "greet", '{"name": "x"}', cwd=workspace, env=ONLY_SAMPLE)
    assert out.returncode == 1
    assert_one_line(out.stderr)
    assert "denied" in out.stderr


def test_config_errors_are_one_line(workspace: Path) -> None:
    (workspace / "agenthost.toml").write_text("[host]\ntimeout_s = 'x'\nbogus = 1\n")
    out = agenthost("tools", cwd=workspace, env=ONLY_SAMPLE)
    assert out.returncode == 2
    assert_one_line(out.stderr)
    assert "agenthost.toml" in out.stderr and "host." in out.stderr


def test_version_and_help(workspace: Path) -> None:
    from agenthost import __version__

    assert agenthost("--version", cwd=workspace).stdout.strip() == f"agenthost {__version__}"
    helptext = agenthost("--help", cwd=workspace).stdout
    for command in ("tools", "call", "plugins", "schema", "serve", "doctor"):
        assert command in helptext
    assert "--arg KEY=VALUE" in agenthost("call", "--help", cwd=workspace).stdout


def test_log_level_debug_goes_to_stderr(workspace: Path) -> None:
    out = agenthost(
        "--log-level",
        "debug",
        "call",
        "greet",
        '{"name": "x"}',
        cwd=workspace,
        env={"AGENTHOST_PLUGINS": "sample,broken"},
    )
    assert out.stdout == "Hello, x!\n"
    assert "broken" in out.stderr
