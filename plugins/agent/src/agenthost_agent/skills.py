"""Agent Skills: folders holding a ``SKILL.md`` (YAML front matter with
``name`` and ``description``, then the instructions) and any files the
instructions use. The ``skill`` tool's description lists them; calling it
returns one skill's instructions and files.

Reading them (skill_files.py, and YAML) is imported only when a skills folder
exists: listing tools must not pay for it otherwise."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from agenthost import NotFound, Tool, tool

if TYPE_CHECKING:
    from agenthost import ToolContext
    from agenthost_agent.skill_files import Skill

MAX_SUMMARY_CHARS = 300


def skill_folders(dirs: Iterable[str], workspace: Path) -> list[Path]:
    folders = []
    for d in dirs:
        p = Path(d).expanduser()
        folders.append(p if p.is_absolute() else workspace / p)
    return folders


def describe(skills: dict[str, Skill], folders: list[Path], workspace: Path) -> str:
    head = (
        "Load an Agent Skill: instructions (and the files that come with them) for a particular "
        "kind of task. When the task at hand matches a skill below, call this tool with the "
        "skill's name before starting, then follow the instructions it returns."
    )
    if not skills:
        where = ", ".join(shown(f, workspace) for f in folders) or "a skills folder"
        return head + f"\n\nNo skills are installed (a skill is <folder>/<name>/SKILL.md in {where})."
    listing = []
    for skill in skills.values():
        summary = skill.description
        if len(summary) > MAX_SUMMARY_CHARS:
            summary = summary[:MAX_SUMMARY_CHARS] + "…"
        listing.append(f"- {skill.name}: {summary}")
    return head + "\n\nAvailable skills:\n" + "\n".join(listing)


def shown(path: Path, workspace: Path) -> str:
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return str(path)


def discover(folders: list[Path]) -> tuple[dict[str, Skill], list[str]]:
    """``skill_files.discover``, which finds nothing where no folder exists."""
    if not any(folder.is_dir() for folder in folders):
        return {}, []
    from agenthost_agent import skill_files

    return skill_files.discover(folders)


def make_skill_tool(folders: list[Path], workspace: Path) -> tuple[Tool, list[str]]:
    skills, problems = discover(folders)

    def skill(name: str, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
        """:param name: the skill's name, as listed in this tool's description."""
        from agenthost_agent.skill_files import render

        current, _ = discover(folders)  # read again: skills may have been added or edited
        found = current.get(name.strip()) or next(
            (s for s in current.values() if s.name.lower() == name.strip().lower()), None
        )
        if found is None:
            names = ", ".join(current) or "none"
            raise NotFound(f"no skill is named {name!r}; available skills: {names}")
        return render(found, workspace)

    return tool(skill, level="read", description=describe(skills, folders, workspace)), problems
