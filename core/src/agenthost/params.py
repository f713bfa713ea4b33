"""``Param``: a description and limits for a tool parameter or a settings field.

It does what ``pydantic.Field`` does inside ``Annotated[...]`` without
importing pydantic where it is written: pydantic costs about 100 ms to import,
and listing tools must not pay for it. Pydantic reads the limits only when a
schema or validator is first built, through the hook below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any


class Param:
    """``Annotated[int, Param("how many", ge=1, le=100)]``.

    Accepts ``description`` and the constraint keywords of ``pydantic.Field``
    (``ge``, ``gt``, ``le``, ``lt``, ``multiple_of``, ``min_length``,
    ``max_length``, ``pattern``), ``examples``, and ``check``: a function
    that raises ``ValueError`` for a bad value (the error names the key).
    """

    __slots__ = ("check", "limits")

    _KEYWORDS = frozenset(
        {"ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern", "examples"}
    )

    def __init__(
        self, description: str | None = None, *, check: Callable[[Any], object] | None = None, **limits: Any
    ) -> None:
        unknown = set(limits) - self._KEYWORDS
        if unknown:
            raise TypeError(f"Param() got unknown keywords: {', '.join(sorted(unknown))}")
        if description is not None:
            limits["description"] = description
        self.limits = limits
        self.check = check

    def __repr__(self) -> str:
        return f"Param({', '.join(f'{k}={v!r}' for k, v in self.limits.items())})"

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        import pydantic  # only here: when a schema or validator is being built

        schema = handler(Annotated[source, pydantic.Field(**self.limits)])
        if self.check is None:
            return schema
        from pydantic_core import core_schema

        return core_schema.no_info_after_validator_function(self._checked, schema)

    def _checked(self, value: Any) -> Any:
        assert self.check is not None
        self.check(value)
        return value
