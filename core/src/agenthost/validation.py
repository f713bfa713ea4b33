"""Argument validation: a compiled validator on the hot path, jsonschema for
the message when it fails (its errors name the field and the rule)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# compiled validators by schema identity; cleared when run-time tools churn past the bound
_compiled: dict[int, tuple[dict[str, Any], Callable[[Any], Any]]] = {}
_MAX_COMPILED = 2048


def is_valid(schema: dict[str, Any], arguments: Any) -> bool:
    import fastjsonschema

    entry = _compiled.get(id(schema))
    if entry is None or entry[0] is not schema:
        if len(_compiled) >= _MAX_COMPILED:
            _compiled.clear()
        entry = (schema, fastjsonschema.compile(schema))
        _compiled[id(schema)] = entry
    try:
        entry[1](arguments)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def problem(schema: dict[str, Any], arguments: Any) -> str | None:
    """One line naming the field and the rule it broke, or None when valid."""
    if not isinstance(arguments, dict):
        return f"arguments must be a JSON object, not {type(arguments).__name__}"
    if is_valid(schema, arguments):
        return None
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(schema).iter_errors(arguments))
    if error is None:  # the validators disagree; jsonschema is the reference
        return None
    return _describe(error, schema)


def _describe(error: Any, schema: dict[str, Any]) -> str:
    where = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "required":
        missing = [r for r in error.validator_value if r not in error.instance]
        name = ".".join(filter(None, [where, missing[0] if missing else "?"]))
        return f"{name}: missing required argument"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        prefix = f"{where}: " if where else ""
        return (
            f"{prefix}unknown argument {', '.join(map(repr, extra))}"
            f" (allowed: {', '.join(allowed) or 'none'})"
        )
    message = error.message
    if len(message) > 300:
        message = message[:300] + "..."
    return f"{where or 'arguments'}: {message}"
