"""What a grep asks (``Query``) and what it finds (``Found``), shared by both
engines: the file-type table and the content-line format (``path:N:text``)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Literal

MAX_LINE_CHARS = 500

# File types by name glob; given to rg through --type-add so both engines
# use the same table.
TYPES: dict[str, tuple[str, ...]] = {
    "py": ("*.py", "*.pyi"),
    "js": ("*.js", "*.jsx", "*.mjs", "*.cjs"),
    "ts": ("*.ts", "*.tsx", "*.mts", "*.cts"),
    "rust": ("*.rs",),
    "go": ("*.go",),
    "java": ("*.java",),
    "kotlin": ("*.kt", "*.kts"),
    "c": ("*.c", "*.h"),
    "cpp": ("*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"),
    "cs": ("*.cs",),
    "ruby": ("*.rb", "Gemfile", "Rakefile"),
    "php": ("*.php",),
    "swift": ("*.swift",),
    "lua": ("*.lua",),
    "sh": ("*.sh", "*.bash", "*.zsh", ".bashrc", ".zshrc"),
    "md": ("*.md", "*.markdown", "*.mdx"),
    "rst": ("*.rst",),
    "txt": ("*.txt",),
    "json": ("*.json", "*.jsonl"),
    "yaml": ("*.yaml", "*.yml"),
    "toml": ("*.toml",),
    "xml": ("*.xml", "*.xsd", "*.xsl"),
    "html": ("*.html", "*.htm", "*.xhtml"),
    "css": ("*.css", "*.scss", "*.sass", "*.less"),
    "sql": ("*.sql",),
    "vue": ("*.vue",),
    "svelte": ("*.svelte",),
    "make": ("Makefile", "makefile", "GNUmakefile", "*.mk"),
    "docker": ("Dockerfile", "*.dockerfile"),
    "csv": ("*.csv", "*.tsv"),
}
ALIASES = {
    "python": "py",
    "javascript": "js",
    "typescript": "ts",
    "rs": "rust",
    "rb": "ruby",
    "markdown": "md",
    "yml": "yaml",
    "bash": "sh",
    "shell": "sh",
    "c++": "cpp",
    "csharp": "cs",
    "text": "txt",
    "kt": "kotlin",
    "makefile": "make",
    "dockerfile": "docker",
}


@dataclass
class Query:
    pattern: str
    workspace: str
    root: str  # absolute path searched
    root_arg: str  # the same, as rg is given it (relative to the workspace when inside)
    globs: list[str] = field(default_factory=list)  # rg override globs ('!' excludes)
    type_globs: tuple[str, ...] = ()
    mode: Literal["files_with_matches", "content", "count"] = "files_with_matches"
    ignore_case: bool = False
    before: int = 0
    after: int = 0
    multiline: bool = False
    need: int | None = None  # content lines wanted (offset + head_limit + 1)

    def compile(self) -> re.Pattern[str]:
        flags = re.MULTILINE | (re.IGNORECASE if self.ignore_case else 0)
        if self.multiline:
            flags |= re.DOTALL
        return re.compile(self.pattern, flags)


@dataclass
class Found:
    files: list[str] = field(default_factory=list)
    counts: list[tuple[str, int]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    engine: str = ""


def path_key(path: str) -> tuple[bytes, ...]:
    return tuple(os.fsencode(part) for part in path.split("/"))


class ContentLines:
    """Content-mode output lines (`path:N:text` matches, `path-N-text` context,
    `--` between groups), the same for both engines."""

    def __init__(self, need: int | None, separators: bool) -> None:
        self.need = need
        self.separators = separators
        self.lines: list[str] = []
        self.prev: tuple[str, int] | None = None

    def add(self, path: str, number: int, text: str, is_match: bool) -> bool:
        """Add a line; True when enough lines are held."""
        if self.separators and self.prev is not None and (self.prev[0] != path or number > self.prev[1] + 1):
            self.lines.append("--")
        sep = ":" if is_match else "-"
        if len(text) > MAX_LINE_CHARS:
            text = f"{text[:MAX_LINE_CHARS]}... [{len(text) - MAX_LINE_CHARS} more characters]"
        self.lines.append(f"{path}{sep}{number}{sep}{text}")
        self.prev = (path, number)
        return self.need is not None and len(self.lines) >= self.need
