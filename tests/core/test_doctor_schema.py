"""`agenthost doctor` and `agenthost schema` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from .test_cli import agenthost


def test_doctor_reports_pieces_and_fixes(workspace: Path) -> None:
    (workspace / "agenthost.toml").write_text("[plugins.nosuch]\nx = 1\n")
    out = agenthost("doctor", "--json", cwd=workspace, env={"AGENTHOST_PLUGINS": "sample,broken"})
    assert out.returncode == 0, out.stderr
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    assert rows["config [plugins.nosuch]"]["ok"] is False
    assert rows["plugin broken"]["ok"] is False and "frobnicate" in rows["plugin broken"]["detail"]
    assert rows["plugin sample"] == {"name": "plugin sample", "ok": True, "detail": "2 tools", "fix": ""}
    for row in rows.values():
        assert set(row) == {"name", "ok", "detail", "fix"}
        assert row["ok"] or row["fix"], row
    text = agenthost("doctor", cwd=workspace, env={"AGENTHOST_PLUGINS": "sample"})
    assert "fix: remove [plugins.nosuch] or install the plugin" in text.stdout


def test_schema_in_three_formats(workspace: Path) -> None:
    env = {"AGENTHOST_PLUGINS": "sample"}
    openai = json.loads(agenthost("schema", cwd=workspace, env=env).stdout)
    assert [d["function"]["name"] for d in openai] == ["greet", "add"] or [
        d["function"]["name"] for d in openai
    ] == ["add", "greet"]
    anthropic = json.loads(
        agenthost("schema", "--format", "anthropic", "greet", cwd=workspace, env=env).stdout
    )
    assert anthropic == [
        {
            "name": "greet",
            "description": "Greet someone by name.",
            "input_schema": {
                "type": "object",
                "properties": {"name": {"type": "string", "description": "who to greet"}},
                "required": ["name"],
                "additionalProperties": False,
            },
        }
    ]
    mcp = json.loads(agenthost("schema", "--format", "mcp", "add", cwd=workspace, env=env).stdout)
    assert mcp[0]["inputSchema"]["properties"]["b"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 100,
        "default": 1,
        "description": "the second number, 0 to 100",
    }
    assert mcp[0]["annotations"]["readOnlyHint"] is True
    bad = agenthost("schema", "nosuch", cwd=workspace, env=env)
    assert bad.returncode == 2 and "unknown tool(s): nosuch" in bad.stderr
