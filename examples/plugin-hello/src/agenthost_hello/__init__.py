"""agenthost-hello: an example plugin with two tools and a config section."""

from __future__ import annotations

from typing import Annotated, Literal

from agenthost import InvalidArguments, Param, Section, ToolContext, hookimpl, tool


class HelloSettings(Section):
    """The ``[plugins.hello]`` table of agenthost.toml."""

    greeting: str = "Hello"


@tool(examples=[{"name": "Ada"}, {"name": "Grace", "style": "loud"}])
def hello(name: str, style: Literal["plain", "loud"] = "plain", ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Greet someone by name.

    :param name: who to greet
    :param style: plain, or loud for capitals
    """
    greeting = ctx.config.section("hello", HelloSettings).greeting
    text = f"{greeting}, {name}!"
    return text.upper() if style == "loud" else text


@tool(path_args=("path",), examples=[{"path": "README.md"}])
def count_words(path: str, top: Annotated[int, Param(ge=1, le=50)] = 5, ctx: ToolContext = None) -> dict:  # type: ignore[assignment]
    """Count the words of a text file in the workspace and give the most common ones.

    :param path: the file, relative to the workspace
    :param top: how many of the most common words to list (1-50)
    """
    target = ctx.resolve_path(path)
    if not target.is_file():
        raise InvalidArguments(f"{path} is not a file; pass the path of a text file")
    words = target.read_text(encoding="utf-8", errors="replace").lower().split()
    counts: dict[str, int] = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    common = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return {"words": len(words), "most_common": [{"word": w, "count": c} for w, c in common]}


@hookimpl
def agenthost_register_tools(register, config):
    config.section("hello", HelloSettings)  # fail early on a bad [plugins.hello] table
    register(hello)
    register(count_words)
