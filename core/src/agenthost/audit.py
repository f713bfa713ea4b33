"""The audit log: one JSONL record per call, appended before the result
returns, with secret-looking values redacted."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

SECRET_KEY = re.compile(
    r"(pass(word|wd|phrase)?|secret|token|api[_-]?key|apikey|auth(orization)?|credential|"
    r"private[_-]?key|cookie|session[_-]?id)",
    re.I,
)
SECRET_VALUE = re.compile(
    r"(sk-[A-Za-z0-9_\-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9\-]{10,}|"
    r"AKIA[0-9A-Z]{16}|Bearer\s+[A-Za-z0-9._\-]{16,}|eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]+)"
)
REDACTED = "[REDACTED]"
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, default=str
)  # built once: json.dumps with options builds one per call
MAX_VALUE_CHARS = 2000


def redact(value: Any, key: str = "") -> Any:
    """A copy of ``value`` with secret-looking values replaced and long strings cut."""
    if key and SECRET_KEY.search(key) and isinstance(value, (str, int, float)):
        return REDACTED
    if isinstance(value, dict):
        return {k: redact(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value]
    if isinstance(value, str):
        value = SECRET_VALUE.sub(REDACTED, value)
        if len(value) > MAX_VALUE_CHARS:
            value = value[:MAX_VALUE_CHARS] + f"...[{len(value) - MAX_VALUE_CHARS} chars cut]"
    return value


class AuditLog:
    """Appends to ``<folder>/YYYY-MM-DD.jsonl``; one ``write`` per record under
    a lock, with O_APPEND so several processes can share the file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._fd = -1
        self._day_ends = 0.0  # when the open file's local day ends (a clock check per record, not a strftime)

    def write(self, record: dict[str, Any]) -> None:
        line = (_ENCODER.encode(record) + "\n").encode()
        with self._lock:
            if time.time() >= self._day_ends:
                self._open()
            os.write(self._fd, line)

    def _open(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
        now = time.localtime()
        self.folder.mkdir(parents=True, exist_ok=True)
        name = time.strftime("%Y-%m-%d.jsonl", now)
        self._fd = os.open(self.folder / name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._day_ends = time.mktime((now.tm_year, now.tm_mon, now.tm_mday + 1, 0, 0, 0, 0, 0, -1))

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd, self._day_ends = -1, 0.0
