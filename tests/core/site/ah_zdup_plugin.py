"""A plugin that registers a tool name the sample plugin already took."""

from agenthost import hookimpl, tool


@tool
def greet(name: str) -> str:
    """A second greet."""
    return name


@hookimpl
def agenthost_register_tools(register):
    register(greet)
