"""The permission policy: rules ``allow`` / ``ask`` / ``deny`` over tool
names and argument patterns, then each level's default.

A rule is ``tool`` or ``tool(pattern)``; the tool part may use ``*``. For path
arguments the pattern is a path glob relative to the workspace (``*`` stays in
one folder, ``**`` crosses folders); for other arguments ``*`` matches
anything, and a trailing `` *`` also matches the bare prefix (``git push *``
matches ``git push``). Each subject (a path, a URL, every part of a compound
shell command) is decided on its own; the strictest decision wins.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from typing import Any

from agenthost.config import Decision, PolicySettings
from agenthost.errors import ConfigError
from agenthost.tool import Tool

_STRICTNESS: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}
_RULE = re.compile(r"^\s*([A-Za-z0-9_*?\-]+)\s*(?:\((.*)\))?\s*$", re.S)
_ENV_PREFIX = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|\"[^\"]*\"|\S*)\s+)+")


@dataclass(frozen=True, slots=True)
class Rule:
    text: str
    tool: re.Pattern[str]
    pattern: str | None

    def matches_tool(self, name: str) -> bool:
        return self.tool.fullmatch(name) is not None


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    effect: Decision
    rule: str  # the rule that decided, or the level default that did


def parse_rule(text: str) -> Rule:
    m = _RULE.match(text)
    if not m:
        raise ValueError(f"policy rule {text!r} must look like tool or tool(pattern)")
    return Rule(text.strip(), _glob_regex(m[1], path=False), m[2])


class Policy:
    def __init__(self, settings: PolicySettings, workspace_root: str, source: str = "the config") -> None:
        self.settings = settings
        self.root = workspace_root
        self.rules: dict[str, list[Rule]] = {}
        for effect in ("deny", "ask", "allow"):
            try:
                self.rules[effect] = [parse_rule(r) for r in getattr(settings, effect)]
            except ValueError as e:
                raise ConfigError(f"{source}: policy.{effect}: {e}") from None
        self._any_rules = any(self.rules.values())
        self._defaults = {
            level: PolicyDecision(effect, f"levels.{level} = {effect!r}")
            for level, effect in vars(settings.levels).items()
        }

    def decide(self, tool: Tool, arguments: dict[str, Any]) -> PolicyDecision:
        if not self._any_rules:  # the common case: only the level defaults
            return self._defaults[tool.level]
        default = getattr(self.settings.levels, tool.level)
        candidates = {e: [r for r in rs if r.matches_tool(tool.name)] for e, rs in self.rules.items()}
        if not any(candidates.values()):  # the common case: only the level default
            return PolicyDecision(default, f"levels.{tool.level} = {default!r}")
        worst = PolicyDecision("allow", "")
        for subject, is_path in self._subjects(tool, arguments):
            decision = self._decide_one(candidates, subject, is_path, tool, default)
            if _STRICTNESS[decision.effect] > _STRICTNESS[worst.effect] or not worst.rule:
                worst = decision
            if worst.effect == "deny":
                break
        return worst

    def _decide_one(
        self,
        candidates: dict[str, list[Rule]],
        subject: str | None,
        is_path: bool,
        tool: Tool,
        default: Decision,
    ) -> PolicyDecision:
        for effect in ("deny", "ask", "allow"):
            for rule in candidates[effect]:
                if rule.pattern is None or (
                    subject is not None and _pattern_matches(rule.pattern, subject, is_path)
                ):
                    return PolicyDecision(effect, rule.text)  # type: ignore[arg-type]
        return PolicyDecision(default, f"levels.{tool.level} = {default!r}")

    def _subjects(self, tool: Tool, arguments: dict[str, Any]) -> list[tuple[str | None, bool]]:
        subjects: list[tuple[str | None, bool]] = []
        for name in tool.match:
            value = arguments.get(name)
            # a list argument (web_fetch's `urls`) is decided entry by entry
            values = value if isinstance(value, list) else [value]
            for item in values:
                if not isinstance(item, str):
                    continue
                if name == tool.command_arg:
                    subjects.extend((part, False) for part in split_compound(item))
                elif name in tool.path_args:
                    subjects.append((self._workspace_relative(item), True))
                else:
                    subjects.append((item, False))
        return subjects or [(None, False)]

    def _workspace_relative(self, path: str) -> str:
        full = os.path.normpath(os.path.join(self.root, path))
        return os.path.relpath(full, self.root) if full.startswith(self.root) else full


def _pattern_matches(pattern: str, subject: str, is_path: bool) -> bool:
    if not is_path:
        subject = " ".join(subject.split())
        pattern = " ".join(pattern.split())
        if pattern.endswith(" *") and subject == pattern[:-2]:
            return True
    return _glob_regex(pattern, path=is_path).fullmatch(subject) is not None


@functools.lru_cache(maxsize=512)
def _glob_regex(pattern: str, path: bool) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i) and path:
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*" if path else ".*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]" if path else ".")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out), re.S)


def split_compound(command: str) -> list[str]:
    """The simple commands inside a shell command line: split on ``&&``,
    ``||``, ``;``, ``|``, ``&`` and newlines outside quotes, with the insides
    of ``$(...)``, ``<(...)`` and backticks as parts of their own."""
    parts: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        text = "".join(buf).strip().lstrip("({").rstrip(")}").strip()
        text = _ENV_PREFIX.sub("", text).strip()
        if text:
            parts.append(text)
        buf.clear()

    i, n, quote = 0, len(command), ""
    while i < n:
        c = command[i]
        if quote == "'":
            buf.append(c)
            quote = "" if c == "'" else quote
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            buf.append(command[i : i + 2])
            i += 2
            continue
        if c in "$<>" and command.startswith("(", i + 1):
            end = _closing_paren(command, i + 2)
            parts.extend(split_compound(command[i + 2 : end]))
            buf.append(command[i : end + 1])
            i = end + 1
            continue
        if c == "`":
            end = command.find("`", i + 1)
            end = n if end < 0 else end
            parts.extend(split_compound(command[i + 1 : end]))
            buf.append(command[i : end + 1])
            i = end + 1
            continue
        if quote == '"':
            buf.append(c)
            quote = "" if c == '"' else quote
            i += 1
            continue
        if c in "'\"":
            quote = c
            buf.append(c)
            i += 1
            continue
        if command.startswith(("&&", "||"), i):
            flush()
            i += 2
            continue
        if c == "&" and (command[i - 1 : i] in ("<", ">") or command[i + 1 : i + 2] == ">"):
            buf.append(c)  # a redirection such as 2>&1 or &>file
            i += 1
            continue
        if c in ";|&\n":
            flush()
            i += 1
            continue
        buf.append(c)
        i += 1
    flush()
    return parts


def _closing_paren(text: str, start: int) -> int:
    depth, quote, i = 1, "", start
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)
