"""Exceptions a tool raises to fail with a specific error type.

The executor turns these into `ToolResult` errors; any other exception becomes
a `tool_error` whose message is the exception's one-line text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # results are not needed to raise a failure
    from agenthost.results import ErrorType


class ToolFailure(Exception):
    """A tool fault the model can act on; `message` should say what to do next."""

    type: ErrorType = "tool_error"

    def __init__(self, message: str, type: ErrorType | None = None) -> None:
        super().__init__(message)
        self.message = message
        if type is not None:
            self.type = type


class InvalidArguments(ToolFailure):
    type: ErrorType = "invalid_arguments"


class NotFound(ToolFailure):
    type: ErrorType = "not_found"


class OutsideWorkspace(ToolFailure):
    type: ErrorType = "outside_workspace"


class Denied(ToolFailure):
    type: ErrorType = "denied"


class Unavailable(ToolFailure):
    """Something the tool needs is missing; the message names how to get it."""

    type: ErrorType = "unavailable"


class ConfigError(Exception):
    """A config file problem; the message names the file and the key."""


class DuplicateToolError(Exception):
    """A tool name registered twice; the message names both plugins."""
