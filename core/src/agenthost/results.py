"""The shape of every tool call's answer (ARCHITECTURE.md, Results)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

ErrorType = Literal[
    "invalid_arguments",
    "unknown_tool",
    "denied",
    "timeout",
    "cancelled",
    "not_found",
    "outside_workspace",
    "unavailable",
    "tool_error",
]


@dataclass(frozen=True, slots=True)
class TextBlock:
    text: str
    type: Literal["text"] = "text"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}


@dataclass(frozen=True, slots=True)
class ImageBlock:
    data: str  # base64
    mime_type: str = "image/png"
    type: Literal["image"] = "image"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "image", "data": self.data, "mime_type": self.mime_type}


@dataclass(frozen=True, slots=True)
class JsonBlock:
    data: Any
    type: Literal["json"] = "json"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "json", "data": self.data}


Block = TextBlock | ImageBlock | JsonBlock


@dataclass(frozen=True, slots=True)
class ToolError:
    type: ErrorType
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "message": self.message}


@dataclass(slots=True)
class ToolResult:
    ok: bool
    content: list[Block] = field(default_factory=list)
    error: ToolError | None = None
    call_id: str = ""
    duration_ms: float = 0.0

    @property
    def text(self) -> str:
        """Text blocks joined, JSON blocks rendered as JSON, or the error message."""
        if self.error is not None:
            return self.error.message
        parts: list[str] = []
        for block in self.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif isinstance(block, JsonBlock):
                parts.append(json.dumps(block.data, ensure_ascii=False, indent=2, default=str))
        return "\n".join(parts)

    @property
    def data(self) -> Any:
        """The first JSON block's data, or None."""
        for block in self.content:
            if isinstance(block, JsonBlock):
                return block.data
        return None

    @classmethod
    def failure(cls, type: ErrorType, message: str, call_id: str = "") -> ToolResult:
        return cls(ok=False, error=ToolError(type, message), call_id=call_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "content": [b.to_dict() for b in self.content],
            "error": self.error.to_dict() if self.error else None,
            "call_id": self.call_id,
            "duration_ms": round(self.duration_ms, 3),
        }
