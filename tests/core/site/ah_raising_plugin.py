"""A plugin whose register_tools raises after registering one tool."""

from agenthost import hookimpl, tool


@tool
def half_done() -> str:
    """Never visible: the plugin fails."""
    return "x"


@hookimpl
def agenthost_register_tools(register):
    register(half_done)
    raise RuntimeError("cannot reach the license server")
