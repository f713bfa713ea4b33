"""The agent plugin as a whole: which tools it registers when, conformance,
doctor rows."""

from __future__ import annotations

from agenthost import hookimpl
from agenthost.testing import check_conformance


class AllServices:
    @hookimpl
    def agenthost_run_subagent(self, prompt):
        return "done: " + prompt

    @hookimpl
    def agenthost_compact(self, focus):
        return "compacted"

    @hookimpl
    def agenthost_ask_user(self, question, options):
        return options[0] if options else "yes"


async def test_registered_tools_follow_the_services_present(make_host):
    bare = await make_host(plugins=["agent"])
    assert sorted(bare.tools) == ["ask_user", "memory", "skill", "todo_write"]
    full = await make_host(plugins=["agent"], hooks=[AllServices()])
    assert sorted(full.tools) == ["ask_user", "compact", "memory", "skill", "task", "todo_write"]
    assert {full.tools[n].level for n in full.tools} == {"read", "write", "execute"}
    assert full.tools["memory"].level == "write" and full.tools["task"].level == "execute"


async def test_every_tool_conforms(make_host, workspace):
    skill = workspace / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: A demo skill.\n---\nSteps.\n")
    host = await make_host(plugins=["agent"], hooks=[AllServices()])
    for name in host.tools:
        assert await check_conformance(host, name) == [], name


async def test_doctor_reports_fts5_llm_and_skills(make_host, workspace, monkeypatch):
    (workspace / "skills" / "broken").mkdir(parents=True)
    (workspace / "skills" / "broken" / "SKILL.md").write_text("no front matter")
    monkeypatch.delenv("AGENT_DOCTOR_KEY", raising=False)
    config = {
        "plugins": {
            "agent": {
                "llm": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": "AGENT_DOCTOR_KEY"}
            }
        }
    }
    host = await make_host(plugins=["agent"], config=config)
    rows = {row["name"]: row for row in host.plugins.collect("agenthost_doctor", config=host.config)}
    assert rows["agent: SQLite FTS5 (memory)"]["ok"] is True
    llm = rows["agent: sub-agent model"]
    assert llm["ok"] is False and llm["fix"] == "export AGENT_DOCTOR_KEY=..."
    skills = rows["agent: skills"]
    assert skills["ok"] is False and "broken" in skills["detail"]
