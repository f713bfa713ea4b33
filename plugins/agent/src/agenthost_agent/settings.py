"""The ``[plugins.agent]`` config table."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from agenthost import Param
from agenthost.config import Section


class LlmSettings(Section):
    """An OpenAI-compatible chat-completions endpoint for the built-in sub-agent."""

    base_url: str = ""  # e.g. "http://127.0.0.1:8080/v1"; `/chat/completions` is appended
    model: str = ""
    api_key_env: str = ""  # name of the environment variable holding the key; empty = no key
    timeout_s: Annotated[float, Param(gt=0)] = 120  # per request
    temperature: float | None = None
    max_tokens: Annotated[int | None, Param(gt=0)] = None

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


class TaskSettings(Section):
    """The built-in sub-agent's loop."""

    tools: list[str] = field(default_factory=list)  # names or globs; empty = every tool but `task`
    max_turns: Annotated[int, Param(ge=1, le=200)] = 12
    timeout_s: Annotated[float, Param(gt=0)] = 900  # the whole `task` call
    system_prompt: str = ""


class AgentSettings(Section):
    memory_db: str = "memory.sqlite3"  # relative to the host's state_dir
    skills_dirs: list[str] = field(default_factory=lambda: ["skills"])  # relative to the workspace
    llm: LlmSettings = field(default_factory=lambda: LlmSettings())
    task: TaskSettings = field(default_factory=lambda: TaskSettings())
