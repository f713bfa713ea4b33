"""A small test plugin: two tools."""

from typing import Annotated

from pydantic import Field

from agenthost import hookimpl, tool


@tool
def greet(name: str) -> str:
    """Greet someone by name.

    :param name: who to greet
    """
    return f"Hello, {name}!"


@tool
def add(a: int, b: Annotated[int, Field(ge=0, le=100)] = 1) -> dict:
    """Add two numbers.

    :param a: the first number
    :param b: the second number, 0 to 100
    """
    return {"sum": a + b}


@hookimpl
def agenthost_register_tools(register):
    register(greet)
    register(add)
