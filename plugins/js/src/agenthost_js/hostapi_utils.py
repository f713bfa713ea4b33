"""``utils.*``, ``Base64.*`` and ``console.table``: no file, network or
process access (secret-looking environment variables read as empty)."""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import socket
import uuid
from datetime import datetime
from typing import Any

from agenthost.errors import InvalidArguments
from agenthost_js.gotime import RFC3339, format_time, parse_time
from agenthost_js.hostapi_bridge import ApiBase, text_arg

_SECRET_NAME = re.compile(r"(_KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD|_CREDENTIALS?)$|^(AWS|GH|GITHUB)_", re.I)


class UtilsApi(ApiBase):
    """The ``utils.*``, ``Base64.*`` and ``console.table`` ops."""

    # -- console.table -------------------------------------------------------------

    def op_console_table(self, data: Any) -> str:
        return render_table(data)

    # -- Base64 ------------------------------------------------------------------

    def op_Base64_encode(self, text: Any) -> str:
        return base64.b64encode(text_arg(text).encode("utf-8")).decode("ascii")

    def op_Base64_decode(self, text: Any) -> str:
        try:
            return base64.b64decode(text_arg(text).encode("ascii"), validate=True).decode("utf-8", "replace")
        except (binascii.Error, UnicodeEncodeError, ValueError):
            raise InvalidArguments("Base64.decode: the text is not valid base64") from None

    # -- utils ---------------------------------------------------------------------

    def op_utils_now(self) -> str:
        return datetime.now().astimezone().isoformat(timespec="seconds")

    def op_utils_formatTime(self, timestamp: Any = None, layout: Any = RFC3339) -> str:
        if timestamp is None:
            moment = datetime.now().astimezone()
        elif isinstance(timestamp, (int, float)) and not isinstance(timestamp, bool):
            moment = datetime.fromtimestamp(timestamp).astimezone()
        elif isinstance(timestamp, str):
            moment = self._parse(timestamp, None, "utils.formatTime")
        else:
            raise InvalidArguments("utils.formatTime: pass a Unix timestamp in seconds and a layout")
        return format_time(moment, text_arg(layout, "layout"))

    def op_utils_parseTime(self, text: Any, layout: Any = None) -> int:
        return int(
            self._parse(text_arg(text, "text"), text_arg(layout, "layout") if layout else None).timestamp()
        )

    @staticmethod
    def _parse(text: str, layout: str | None, op: str = "utils.parseTime") -> datetime:
        try:
            return parse_time(text, layout)
        except ValueError as e:
            shown = f" with layout {layout!r}" if layout else " as RFC 3339 (2006-01-02T15:04:05Z07:00)"
            raise InvalidArguments(f"{op}: cannot read {text!r}{shown}: {e}") from None

    def op_utils_sleep(self, ms: Any) -> None:
        if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms < 0:
            raise InvalidArguments("utils.sleep: pass a number of milliseconds")
        # the deadline still holds: the interrupt handler stops the script right after
        self.run.cancelled.wait(min(ms / 1000, self.run.remaining()))

    def op_utils_env(self, name: Any) -> str:
        key = text_arg(name, "name")
        return "" if _SECRET_NAME.search(key) else os.environ.get(key, "")

    def op_utils_envOr(self, name: Any, default: Any = "") -> Any:
        key = text_arg(name, "name")
        if _SECRET_NAME.search(key) or key not in os.environ:
            return default
        return os.environ[key]

    def op_utils_cwd(self) -> str:
        return str(self.workspace)

    def op_utils_hostname(self) -> str:
        return socket.gethostname()

    def op_utils_uuid(self) -> str:
        return str(uuid.uuid4())


def render_table(data: Any) -> str:
    """console.table's text: one row per item or key, one column per field."""
    rows = (
        list(enumerate(data))
        if isinstance(data, list)
        else list(data.items())
        if isinstance(data, dict)
        else []
    )
    if not rows:
        return str(data)
    columns: list[str] = []
    for _, value in rows:
        if isinstance(value, dict):
            columns += [k for k in value if k not in columns]

    def cell(value: Any) -> str:
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    header = ["(index)", *(columns or ["Values"])]
    body = [
        [
            str(key),
            *(
                [cell(value.get(c, "")) if isinstance(value, dict) else "" for c in columns]
                if columns
                else [cell(value)]
            ),
        ]
        for key, value in rows
    ]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in body)])
