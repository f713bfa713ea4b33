"""Reading Agent Skills from disk: ``SKILL.md`` files (YAML front matter with
``name`` and ``description``, then the instructions), the folders holding
them, and one skill rendered for the model."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agenthost_agent.skills import shown

SKILL_FILE = "SKILL.md"
MAX_FILES = 200


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    folder: Path
    instructions: str

    def files(self) -> list[Path]:
        """The files the skill ships besides ``SKILL.md`` (hidden ones left out)."""
        found: list[Path] = []
        for root, dirs, names in os.walk(self.folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in sorted(names):
                path = Path(root) / name
                if name.startswith(".") or path == self.folder / SKILL_FILE:
                    continue
                found.append(path)
                if len(found) >= MAX_FILES:
                    return found
        return found


def parse_skill(path: Path) -> Skill:
    """Read one ``SKILL.md``; raises ``ValueError`` saying what is wrong."""
    import yaml  # only when there are skills to read

    text = path.read_text(encoding="utf-8-sig")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise ValueError("does not start with YAML front matter (a line '---')")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise ValueError("front matter is not closed by a line '---'")
    try:
        meta = yaml.safe_load("".join(lines[1:end])) or {}
    except yaml.YAMLError as e:
        raise ValueError(f"front matter is not valid YAML: {str(e).splitlines()[0]}") from None
    if not isinstance(meta, dict):
        raise ValueError("front matter must be a mapping with name and description")
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("front matter has no name")
    if not isinstance(description, str) or not description.strip():
        raise ValueError("front matter has no description")
    name = name.strip()
    if len(name) > 64 or any(c.isspace() for c in name):
        raise ValueError(f"name {name!r} must be at most 64 characters without spaces")
    return Skill(name, " ".join(description.split()), path.parent, "".join(lines[end + 1 :]).strip())


def discover(folders: Iterable[Path]) -> tuple[dict[str, Skill], list[str]]:
    """Skills found in ``folders`` (``<folder>/<skill>/SKILL.md``), and one line
    per skill that could not be read. The first of two equal names wins."""
    skills: dict[str, Skill] = {}
    problems: list[str] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for child in sorted(folder.iterdir()):
            path = child / SKILL_FILE
            if child.name.startswith(".") or not path.is_file():
                continue
            try:
                skill = parse_skill(path)
            except (OSError, UnicodeDecodeError, ValueError) as e:
                problems.append(f"skill {path}: {e}")
                continue
            if skill.name in skills:
                problems.append(
                    f"skill {path}: name {skill.name!r} already used by {skills[skill.name].folder}"
                )
                continue
            skills[skill.name] = skill
    return skills, problems


def render(skill: Skill, workspace: Path) -> str:
    parts: list[Any] = [
        f"Skill: {skill.name}",
        f"Description: {skill.description}",
        f"Folder: {shown(skill.folder, workspace)}",
        "",
        skill.instructions or "(SKILL.md has no instructions below its front matter)",
        "",
    ]
    files = skill.files()
    if files:
        parts.append(
            "Files in this skill (paths from the workspace; read or run them as the instructions say):"
        )
        parts.extend(f"- {shown(f, workspace)}" for f in files)
        if len(files) >= MAX_FILES:
            parts.append(f"(only the first {MAX_FILES} files are listed)")
    else:
        parts.append("This skill ships no other files.")
    return "\n".join(parts)
