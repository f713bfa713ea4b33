"""skill: Agent Skills from SKILL.md folders."""

from __future__ import annotations

from pathlib import Path


def make_skill(folder: Path, name: str, description: str, body: str, files: dict[str, str] | None = None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")
    for rel, text in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


async def test_description_lists_skills_and_call_returns_instructions_and_files(make_host, workspace):
    skills = workspace / "skills"
    make_skill(
        skills / "pdf-forms",
        "pdf-forms",
        "Fill in PDF forms and check the result.",
        "# Filling forms\n\n1. Run scripts/fill.py FORM DATA.\n2. Check with reference.md.",
        {"scripts/fill.py": "print('fill')\n", "reference.md": "fields...\n", ".hidden": "x"},
    )
    make_skill(skills / "release", "release-notes", "Write release notes from the git log.", "Use git log.")
    host = await make_host(plugins=["agent"])
    description = host.tools["skill"].description
    assert "- pdf-forms: Fill in PDF forms and check the result." in description
    assert "- release-notes: Write release notes from the git log." in description

    result = await host.call("skill", {"name": "pdf-forms"})
    assert result.ok, result.text
    text = result.text
    assert "Skill: pdf-forms" in text
    assert "Folder: skills/pdf-forms" in text
    assert "1. Run scripts/fill.py FORM DATA." in text
    assert "name: pdf-forms" not in text  # the front matter is not the instructions
    assert "- skills/pdf-forms/reference.md" in text
    assert "- skills/pdf-forms/scripts/fill.py" in text
    assert ".hidden" not in text and "SKILL.md" not in text.split("Files in this skill")[1]

    other = await host.call("skill", {"name": "release-notes"})
    assert other.ok and "Use git log." in other.text and "ships no other files" in other.text


async def test_unknown_skill_lists_the_available_ones(make_host, workspace):
    make_skill(workspace / "skills" / "a", "alpha", "First.", "Do A.")
    host = await make_host(plugins=["agent"])
    result = await host.call("skill", {"name": "beta"})
    assert not result.ok and result.error.type == "not_found"
    assert "'beta'" in result.text and "alpha" in result.text


async def test_no_skills_says_where_to_put_them(make_host):
    host = await make_host(plugins=["agent"])
    assert "No skills are installed" in host.tools["skill"].description
    result = await host.call("skill", {"name": "x"})
    assert not result.ok and "none" in result.text


async def test_broken_skills_are_problems_not_failures(make_host, workspace):
    skills = workspace / "skills"
    make_skill(skills / "good", "good", "Works.", "Fine.")
    (skills / "nofront").mkdir()
    (skills / "nofront" / "SKILL.md").write_text("# just markdown\n")
    (skills / "badyaml").mkdir()
    (skills / "badyaml" / "SKILL.md").write_text("---\nname: [unclosed\n---\nbody\n")
    make_skill(skills / "zdup", "good", "Same name.", "Second.")
    (skills / "nodesc").mkdir()
    (skills / "nodesc" / "SKILL.md").write_text("---\nname: nodesc\n---\nbody\n")
    host = await make_host(plugins=["agent"])
    info = next(i for i in host.plugin_infos if i.name == "agent")
    assert info.status == "loaded"
    problems = "\n".join(info.problems)
    assert "nofront" in problems and "front matter" in problems
    assert "badyaml" in problems and "not valid YAML" in problems
    assert "already used" in problems
    assert "no description" in problems
    assert len(info.problems) == 4
    assert "- good: Works." in host.tools["skill"].description
    result = await host.call("skill", {"name": "good"})
    assert result.ok and "Fine." in result.text


async def test_configured_folders_outside_the_workspace(make_host, workspace, tmp_path):
    shared = tmp_path / "team-skills"
    make_skill(shared / "lint", "lint", "Run the linters the team uses.", "ruff check .", {"ruff.toml": "x"})
    host = await make_host(plugins=["agent"], config={"plugins": {"agent": {"skills_dirs": [str(shared)]}}})
    assert "- lint: Run the linters" in host.tools["skill"].description
    result = await host.call("skill", {"name": "lint"})
    assert result.ok
    assert f"- {shared / 'lint' / 'ruff.toml'}" in result.text


async def test_skills_added_or_edited_later_are_read_on_call(make_host, workspace):
    skills = workspace / "skills"
    make_skill(skills / "one", "one", "First.", "Version 1.")
    host = await make_host(plugins=["agent"])
    make_skill(skills / "one", "one", "First.", "Version 2.")
    make_skill(skills / "two", "two", "Second.", "Two's steps.")
    assert (await host.call("skill", {"name": "one"})).text.count("Version 2.") == 1
    assert "Two's steps." in (await host.call("skill", {"name": "two"})).text


async def test_unknown_config_key_fails_the_plugin_naming_the_key(make_host):
    host = await make_host(plugins=["agent"], config={"plugins": {"agent": {"skill_dirs": []}}})
    info = next(i for i in host.plugin_infos if i.name == "agent")
    assert info.status == "failed"
    assert "plugins.agent.skill_dirs: unknown key" in info.error
    assert "memory" not in host.tools
