"""``Param`` limits and ``Section`` tables: pydantic's checks without importing
pydantic where they are declared (listing tools must not pay for it)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import pytest

from agenthost import ConfigError, Host, Param, Section, hookimpl, tool
from agenthost.config import Config

if TYPE_CHECKING:  # never imported: the schema must not need them
    from agenthost.context import ToolContext
    from agenthost.results import Block


@dataclass
class Span:
    """A nested parameter object: a dataclass, unknown keys refused."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    start: Annotated[int, Param("first line", ge=1)]
    end: Annotated[int | None, Param(ge=1)] = None


@tool
def pick(
    spans: Annotated[list[Span], Param(min_length=1, max_length=3)],
    word: Annotated[str, Param(pattern=r"^[a-z]+$")] = "all",
    limit: Annotated[int, Param(ge=1, le=100)] = 10,
) -> str:
    """Report what arrived.

    :param spans: line spans
    """
    return json.dumps({"types": [type(s).__name__ for s in spans], "word": word, "limit": limit})


def test_limits_and_descriptions_reach_the_schema() -> None:
    schema = pick.input_schema
    props = schema["properties"]
    assert props["limit"]["minimum"] == 1 and props["limit"]["maximum"] == 100
    assert props["word"]["pattern"] == "^[a-z]+$"
    assert props["spans"]["minItems"] == 1 and props["spans"]["maxItems"] == 3
    assert props["spans"]["description"] == "line spans"
    span = schema["$defs"]["Span"]
    assert span["additionalProperties"] is False
    assert span["properties"]["start"] == {"description": "first line", "minimum": 1, "type": "integer"}


class PickPlugin:
    @hookimpl
    def agenthost_register_tools(self, register: Any) -> None:
        register(pick)


async def test_limits_are_enforced_and_nested_objects_arrive_as_their_class(workspace: Path) -> None:
    async with Host(workspace, plugins=[], hooks=[PickPlugin()]) as host, host.session() as session:
        ok = await session.call("pick", {"spans": [{"start": 2}], "limit": 5})
        assert ok.ok, ok.text
        assert json.loads(ok.text) == {"types": ["Span"], "word": "all", "limit": 5}
        for arguments, words in [
            ({"spans": [{"start": 2}], "limit": 500}, "limit"),
            ({"spans": [{"start": 0}]}, "spans"),
            ({"spans": [{"start": 1, "stop": 3}]}, "stop"),
            ({"spans": []}, "spans"),
            ({"spans": [{"start": 1}], "word": "Not A Word"}, "word"),
        ]:
            bad = await session.call("pick", arguments)
            assert not bad.ok and bad.error is not None and bad.error.type == "invalid_arguments"
            assert words in bad.text, bad.text


@tool
def typed_for_checkers(n: Annotated[int, Param(ge=0)], ctx: ToolContext = None) -> list[Block]:  # type: ignore[assignment]
    """A tool whose context and return types are imported for type checking only."""
    return []


def test_context_and_return_types_may_be_type_checking_imports() -> None:
    assert "ToolContext" not in globals() and "Block" not in globals()
    assert typed_for_checkers.input_schema["properties"] == {"n": {"minimum": 0, "type": "integer"}}


def test_unknown_param_keyword_is_refused_where_it_is_written() -> None:
    with pytest.raises(TypeError, match="unknown keywords: maximum"):
        Param(maximum=3)


def _even(value: int) -> None:
    if value % 2:
        raise ValueError(f"{value} is odd; give an even number")


class PartSettings(Section):
    size: Annotated[int, Param(ge=2, check=_even)] = 4


class ToolSettings(Section):
    """A plugin's table with a nested table and a check across keys."""

    name: str = "x"
    tags: list[str] = field(default_factory=list)
    part: PartSettings = field(default_factory=PartSettings)
    low: int = 0
    high: int = 10

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError("low must not exceed high")


def config_with(workspace: Path, table: dict[str, Any]) -> Config:
    return Config.load(workspace, {"plugins": {"tool": table}})


def test_sections_are_dataclasses_with_defaults(workspace: Path) -> None:
    settings = Config.load(workspace).section("tool", ToolSettings)
    assert settings == ToolSettings() and settings.part.size == 4 and settings.tags == []
    assert ToolSettings().tags is not ToolSettings().tags


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"nmae": "y"}, "the config: plugins.tool.nmae: unknown key"),
        ({"part": {"size": 3}}, "the config: plugins.tool.part.size: 3 is odd; give an even number"),
        ({"part": {"size": 0}}, "plugins.tool.part.size: Input should be greater than or equal to 2 (got 0)"),
        ({"low": 5, "high": 1}, "the config: plugins.tool: low must not exceed high"),
        ({"tags": "a"}, "plugins.tool.tags: Input should be a valid list"),
    ],
)
def test_section_errors_name_the_key(workspace: Path, table: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        config_with(workspace, table).section("tool", ToolSettings)
    assert message in str(info.value)


def test_given_tables_are_validated_into_the_dataclass(workspace: Path) -> None:
    settings = config_with(workspace, {"name": "y", "part": {"size": 6}}).section("tool", ToolSettings)
    assert isinstance(settings, ToolSettings) and isinstance(settings.part, PartSettings)
    assert (settings.name, settings.part.size, settings.high) == ("y", 6, 10)


def test_defaults_and_listing_import_no_pydantic(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from agenthost.config import Config\n"
        "from agenthost.host import Host\n"
        "config = Config.load(__import__('pathlib').Path(sys.argv[1]))\n"
        "Host(sys.argv[1], config={}, plugins=[])\n"
        "print('pydantic' in sys.modules, 'asyncio' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_a_pydantic_model_still_serves_as_a_section(workspace: Path) -> None:
    from pydantic import BaseModel, ConfigDict

    class Legacy(BaseModel):  # how third-party plugins wrote tables before Section was a dataclass
        model_config = ConfigDict(extra="forbid")
        size: int = 1

    assert Config.load(workspace).section("tool", Legacy) == Legacy()
    assert config_with(workspace, {"size": 3}).section("tool", Legacy).size == 3
    with pytest.raises(ConfigError, match=r"plugins\.tool\.sise: unknown key"):
        config_with(workspace, {"sise": 3}).section("tool", Legacy)


def test_a_table_is_validated_once_per_config(workspace: Path) -> None:
    config = config_with(workspace, {"name": "y"})
    first = config.section("tool", ToolSettings)
    assert config.section("tool", ToolSettings) is first
    assert Config.load(workspace).section("tool", ToolSettings) is not first  # another config, its own
    bad = config_with(workspace, {"nmae": "y"})
    for _ in range(2):  # a bad table fails on every call, not only the first
        with pytest.raises(ConfigError, match="unknown key"):
            bad.section("tool", ToolSettings)
