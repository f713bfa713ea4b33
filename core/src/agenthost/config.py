"""``agenthost.toml`` read into pydantic models.

The core validates its own tables; each plugin validates its own
``[plugins.<name>]`` table through ``Config.section``. Every problem is one
line naming the file and the key.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agenthost.errors import ConfigError

Decision = Literal["allow", "ask", "deny"]
CONFIG_NAME = "agenthost.toml"
M = TypeVar("M", bound=BaseModel)


class Section(BaseModel):
    """Base for config tables: unknown keys are errors."""

    # Validators are built on first use: with no config file, start-up never
    # builds them (listing tools must stay cheap).
    model_config = ConfigDict(extra="forbid", defer_build=True)


class HostSettings(Section):
    state_dir: str = ".agenthost"
    restrict_to_workspace: bool = True
    load: list[str] = Field(default_factory=list)
    disable: list[str] = Field(default_factory=list)
    timeout_s: float = Field(120, gt=0)
    max_output_chars: int = Field(100_000, gt=0)
    max_image_bytes: int = Field(5 * 1024 * 1024, gt=0)


class LevelDefaults(Section):
    read: Decision = "allow"
    write: Decision = "allow"
    execute: Decision = "allow"
    network: Decision = "allow"


class PolicySettings(Section):
    levels: LevelDefaults = Field(default_factory=LevelDefaults.model_construct)
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)
    allow: list[str] = Field(default_factory=list)


class AuditSettings(Section):
    enabled: bool = True


class NetSettings(Section):
    allow: list[str] = Field(default_factory=list)


class ConfigFile(Section):
    host: HostSettings = Field(default_factory=HostSettings.model_construct)
    policy: PolicySettings = Field(default_factory=PolicySettings.model_construct)
    audit: AuditSettings = Field(default_factory=AuditSettings.model_construct)
    net: NetSettings = Field(default_factory=NetSettings.model_construct)
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Config:
    """The parsed config plus the folders it resolves against."""

    def __init__(self, data: ConfigFile, workspace: Path, path: Path | None = None) -> None:
        self.data = data
        self.workspace = workspace
        self.path = path
        state = Path(data.host.state_dir)
        self.state_dir = state if state.is_absolute() else workspace / state

    @property
    def host(self) -> HostSettings:
        return self.data.host

    @property
    def policy(self) -> PolicySettings:
        return self.data.policy

    @property
    def audit(self) -> AuditSettings:
        return self.data.audit

    @property
    def net(self) -> NetSettings:
        return self.data.net

    @property
    def source(self) -> str:
        return str(self.path) if self.path else "the config"

    def section(self, name: str, model: type[M]) -> M:
        """Validate ``[plugins.<name>]`` against ``model`` (defaults if absent)."""
        raw = self.data.plugins.get(name)
        if not raw:  # defaults need no validation
            return model.model_construct()
        try:
            return model.model_validate(raw)
        except ValidationError as e:
            raise ConfigError(_describe(e, self.source, prefix=f"plugins.{name}")) from None

    @classmethod
    def load(
        cls,
        workspace: Path,
        source: str | os.PathLike[str] | dict[str, Any] | Config | None = None,
    ) -> Config:
        """``source`` is a path, a parsed dict or a Config; None looks for
        ``AGENTHOST_CONFIG``, then ``<workspace>/agenthost.toml``."""
        if isinstance(source, Config):
            return source
        if isinstance(source, dict):
            return cls(_validate(source, "the config"), workspace)
        path: Path | None
        if source is not None:
            path = Path(source)
            if not path.is_file():
                raise ConfigError(f"{path}: config file not found")
        elif env := os.environ.get("AGENTHOST_CONFIG"):
            path = Path(env)
            if not path.is_file():
                raise ConfigError(f"{path}: config file not found (from AGENTHOST_CONFIG)")
        else:
            candidate = workspace / CONFIG_NAME
            path = candidate if candidate.is_file() else None
        if path is None:
            return cls(ConfigFile.model_construct(), workspace)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: invalid TOML: {e}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: cannot read: {e}") from None
        return cls(_validate(raw, str(path)), workspace, path.resolve())


def _validate(raw: dict[str, Any], source: str) -> ConfigFile:
    try:
        return ConfigFile.model_validate(raw)
    except ValidationError as e:
        raise ConfigError(_describe(e, source)) from None


def _describe(error: ValidationError, source: str, prefix: str = "") -> str:
    errors = error.errors()
    first = errors[0]
    key = ".".join(filter(None, [prefix, *(str(p) for p in first["loc"])]))
    if first["type"] == "extra_forbidden":
        what = "unknown key"
    elif first["type"] == "missing":
        what = "required key is missing"
    else:
        what = f"{first['msg']} (got {first.get('input')!r})"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{source}: {key}: {what}{more}"
