"""The ``[plugins.agent]`` config table."""

from __future__ import annotations

from pydantic import Field

from agenthost.config import Section


class LlmSettings(Section):
    """An OpenAI-compatible chat-completions endpoint for the built-in sub-agent."""

    base_url: str = ""  # e.g. "http://127.0.0.1:8080/v1"; `/chat/completions` is appended
    model: str = ""
    api_key_env: str = ""  # name of the environment variable holding the key; empty = no key
    timeout_s: float = Field(default=120, gt=0)  # per request
    temperature: float | None = None
    max_tokens: int | None = Field(default=None, gt=0)

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


class TaskSettings(Section):
    """The built-in sub-agent's loop."""

    tools: list[str] = Field(default_factory=list)  # names or globs; empty = every tool but `task`
    max_turns: int = Field(default=12, ge=1, le=200)
    timeout_s: float = Field(default=900, gt=0)  # the whole `task` call
    system_prompt: str = ""


class AgentSettings(Section):
    memory_db: str = "memory.sqlite3"  # relative to the host's state_dir
    skills_dirs: list[str] = Field(default_factory=lambda: ["skills"])  # relative to the workspace
    llm: LlmSettings = Field(default_factory=lambda: LlmSettings())
    task: TaskSettings = Field(default_factory=lambda: TaskSettings())
