"""``agenthost.toml`` read into typed settings.

Settings tables are dataclasses (``Section``), validated by pydantic only when
a table is really given: pydantic costs about 100 ms to import, and a host
without a config file (listing tools, most runs) never pays for it. The core
validates its own tables; each plugin validates its own ``[plugins.<name>]``
table through ``Config.section``. Every problem is one line naming the file
and the key.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar, dataclass_transform

from agenthost.errors import ConfigError
from agenthost.params import Param

Decision = Literal["allow", "ask", "deny"]
CONFIG_NAME = "agenthost.toml"
S = TypeVar("S")


@dataclass_transform(field_specifiers=(dataclasses.field,))
class Section:
    """Base for config tables: every subclass is a dataclass; unknown keys are errors.

    Limits go in ``Annotated[int, Param(ge=1)]``; checks across fields in
    ``__post_init__`` (raise ``ValueError``).
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(cls)


class HostSettings(Section):
    state_dir: str = ".agenthost"
    restrict_to_workspace: bool = True
    load: list[str] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    timeout_s: Annotated[float, Param(gt=0)] = 120
    max_output_chars: Annotated[int, Param(gt=0)] = 100_000
    max_image_bytes: Annotated[int, Param(gt=0)] = 5 * 1024 * 1024


class LevelDefaults(Section):
    read: Decision = "allow"
    write: Decision = "allow"
    execute: Decision = "allow"
    network: Decision = "allow"


class PolicySettings(Section):
    levels: LevelDefaults = field(default_factory=LevelDefaults)
    deny: list[str] = field(default_factory=list)
    ask: list[str] = field(default_factory=list)
    allow: list[str] = field(default_factory=list)


class AuditSettings(Section):
    enabled: bool = True


class NetSettings(Section):
    allow: list[str] = field(default_factory=list)


class ConfigFile(Section):
    host: HostSettings = field(default_factory=HostSettings)
    policy: PolicySettings = field(default_factory=PolicySettings)
    audit: AuditSettings = field(default_factory=AuditSettings)
    net: NetSettings = field(default_factory=NetSettings)
    plugins: dict[str, dict[str, Any]] = field(default_factory=dict)


class Config:
    """The parsed config plus the folders it resolves against."""

    def __init__(self, data: ConfigFile, workspace: Path, path: Path | None = None) -> None:
        self.data = data
        self.workspace = workspace
        self.path = path
        state = Path(data.host.state_dir)
        self.state_dir = state if state.is_absolute() else workspace / state
        self._sections: dict[tuple[str, Any], Any] = {}

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

    def section(self, name: str, model: type[S]) -> S:
        """Validate ``[plugins.<name>]`` against ``model``, a ``Section`` (or any
        type pydantic validates); defaults, unvalidated, when the table is absent.

        Validated once per config: every later call (a tool's, on every call)
        gets the same object, so treat it as read-only."""
        found: S | None = self._sections.get((name, model))
        if found is None:
            raw = self.data.plugins.get(name)
            found = model() if not raw else _validate(model, raw, self.source, prefix=f"plugins.{name}")
            self._sections[name, model] = found
        return found

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
            return cls(_validate(ConfigFile, source, "the config") if source else ConfigFile(), workspace)
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
            return cls(ConfigFile(), workspace)
        import tomllib  # only when there is a file to read

        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: invalid TOML: {e}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: cannot read: {e}") from None
        return cls(_validate(ConfigFile, raw, str(path)), workspace, path.resolve())


_adapters: dict[Any, Any] = {}  # model -> pydantic.TypeAdapter, built once


def _validate(model: type[S], raw: dict[str, Any], source: str, prefix: str = "") -> S:
    import pydantic  # only when there is a table to check

    adapter = _adapters.get(model)
    if adapter is None:
        adapter = _adapters[model] = pydantic.TypeAdapter(model)
    try:
        value: S = adapter.validate_python(raw)
    except pydantic.ValidationError as e:
        raise ConfigError(_describe(e, source, prefix)) from None
    return value


def _describe(error: Any, source: str, prefix: str = "") -> str:
    errors = error.errors()
    first = errors[0]
    key = ".".join(filter(None, [prefix, *(str(p) for p in first["loc"])]))
    if first["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
        what = "unknown key"
    elif first["type"] in ("missing", "missing_argument"):
        what = "required key is missing"
    elif first["type"] == "value_error":  # a check in __post_init__: its own words
        what = str(first["ctx"]["error"])
    else:
        what = f"{first['msg']} (got {first.get('input')!r})"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{source}: {key}: {what}{more}"
