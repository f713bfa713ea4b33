"""The first screen in front of the shell: danger patterns, an optional
allow-list, and the environment children inherit.

The screen catches accidents, not attackers (a determined command line can
always be obfuscated); the bubblewrap sandbox is the real boundary.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from agenthost.errors import Denied
from agenthost.policy import split_compound
from agenthost_shell.settings import ShellSettings

# Where a command word may stand: the start, after a separator or `sudo`/`exec`.
_CMD = r"(?:^|[;&|(`]\s*|\$\(\s*|\b(?:sudo|exec|nohup|xargs)\s+(?:-\S+\s+)*)"
_SYSTEM_DIRS = r"(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|run|sbin|srv|sys|usr|var)"
_END = r"(?=$|[\s;&|)`])"


_COMPILED: dict[str, re.Pattern[str]] = {}


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    source: str
    why: str

    @property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on the first check, not at import (listing tools must stay cheap)."""
        found = _COMPILED.get(self.source)
        if found is None:
            found = _COMPILED[self.source] = re.compile(self.source, re.I)
        return found


def _rule(name: str, pattern: str, why: str) -> Rule:
    return Rule(name, pattern, why)


# Seed 003's DANGEROUS_PATTERNS and nanobot's exec guard, narrowed where the
# originals refuse everyday work (nanobot refuses every `rm -rf build`, and a
# bare `\bformat\b` refuses `git log --format=...`).
BUILTIN_RULES: tuple[Rule, ...] = (
    _rule(
        "rm-recursive-root",
        r"\brm\s+(?:-\S+\s+)*(?:-[a-z]*r[a-z]*|--recursive)\s+(?:-\S+\s+)*"
        rf"[\"']?(?:/+\*?|/+{_SYSTEM_DIRS}/*\*?|~/*\*?|\$\{{?HOME\}}?/*\*?|\.\./*|\*)[\"']?{_END}",
        "recursive delete of /, a system folder, the home folder or everything here",
    ),
    _rule("rm-no-preserve-root", r"--no-preserve-root\b", "rm --no-preserve-root"),
    _rule("mkfs", r"\bmkfs(?:\.\w+)?\b", "formats a file system"),
    _rule("dd-if", r"\bdd\s+if=", "raw disk copy (dd if=...)"),
    _rule(
        "raw-device-write",
        r">\s*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|mem|kmem|port)",
        "writes to a raw disk or memory device",
    ),
    _rule("wipefs", rf"{_CMD}(?:wipefs|shred\s+(?:-\S+\s+)*/dev/)", "wipes a disk"),
    _rule(
        "power",
        rf"{_CMD}(?:shutdown|reboot|poweroff|halt|init\s+[06]|systemctl\s+(?:poweroff|reboot|halt|kexec))\b",
        "shuts down or reboots the machine",
    ),
    _rule("fork-bomb", r":\s*\(\)\s*\{.*\}\s*;\s*:", "fork bomb"),
    _rule(
        "fork-bomb-named",  # a named group: the rules are also joined into one pattern
        r"\b(?P<bomb>\w+)\s*\(\)\s*\{\s*(?P=bomb)\s*\|\s*(?P=bomb)\s*&\s*\}",
        "fork bomb",
    ),
    _rule(
        "chmod-chown-root",
        rf"\bch(?:mod|own|grp)\s+(?:-\S+\s+)*-[a-z]*R[a-z]*\s+(?:\S+\s+)?/+{_END}",
        "recursive permission change of /",
    ),
    _rule("windows-format", r"(?:^|[;&|]\s*)(?:format\s+[a-z]:|diskpart\b)", "formats a disk (Windows)"),
    _rule("windows-del", r"\bdel\s+/[fqs]\b|\brmdir\s+/s\b", "forced recursive delete (Windows)"),
)


_ANY_RULE: list[re.Pattern[str]] = []


def _any_rule() -> re.Pattern[str]:
    """Every built-in rule joined into one pattern, compiled on the first check:
    a command that matches none (nearly all) costs one search, not one per rule."""
    if not _ANY_RULE:
        _ANY_RULE.append(re.compile("|".join(f"(?:{rule.source})" for rule in BUILTIN_RULES), re.I))
    return _ANY_RULE[0]


def check(command: str, settings: ShellSettings) -> None:
    """Raise ``Denied`` naming the rule when ``command`` is refused."""
    if settings.builtin_screen and _any_rule().search(command):
        for rule in BUILTIN_RULES:
            if rule.pattern.search(command):
                raise Denied(
                    f"bash refused this command: safety screen rule {rule.name!r} ({rule.why}); "
                    "do something narrower, or ask the user to run it"
                )
    for i, pattern in enumerate(settings.deny_patterns):
        if re.search(pattern, command):
            raise Denied(
                f"bash refused this command: [plugins.shell] deny_patterns[{i}] {pattern!r} matches it; "
                "do it another way or ask the user"
            )
    if settings.allow_patterns:
        for part in split_compound(command) or [command]:
            if not any(re.match(p, part) for p in settings.allow_patterns):
                raise Denied(
                    f"bash refused this command: {part!r} matches none of [plugins.shell] allow_patterns "
                    f"({', '.join(map(repr, settings.allow_patterns))}); use an allowed command"
                )


# environment names are bytes here (os.environb): matched without decoding
_SECRET_NAME_BYTES = re.compile(
    rb"(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?)S?$|^AGENTHOST_TOKEN$", re.I
)


@functools.lru_cache(maxsize=4096)
def _secret_name(name: bytes) -> bool:
    """Memoized: the same few dozen variable names come back on every command."""
    return _SECRET_NAME_BYTES.search(name) is not None


# (names of the source environment, env_passthrough) -> the names to drop; one entry,
# replaced whenever the host's environment gained or lost a variable
_DROP: list[tuple[frozenset[bytes], list[str], tuple[bytes, ...]]] = []


def child_environment(
    settings: ShellSettings, source: Mapping[bytes, bytes] | None = None
) -> dict[bytes, bytes]:
    """``source`` (the host's environment, as bytes: no decoding round trip
    on every command) without secret-looking variables, except those
    ``env_passthrough`` names."""
    if source is None:
        # os.environb's own dict when it has one: copying it skips a per-key round trip
        source = getattr(os.environb, "_data", None) or os.environb
    env = dict(source)  # a snapshot: the checks below see one consistent set of names
    keep = settings.env_passthrough
    # The names to drop depend only on the set of names: comparing that set with
    # the last one is cheaper than screening every name on every command.
    cached = _DROP[0] if _DROP else None
    if cached is not None and cached[1] == keep and env.keys() == cached[0]:
        drop = cached[2]
    else:
        drop = tuple(
            name
            for name in env
            if _secret_name(name) and not any(fnmatch.fnmatchcase(os.fsdecode(name), k) for k in keep)
        )
        _DROP[:] = [(frozenset(env), list(keep), drop)]
    for name in drop:
        del env[name]
    return env
