"""Go-style time layouts (``2006-01-02 15:04:05``) for ``utils.formatTime``
and ``utils.parseTime``, as seed 004 shows them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

RFC3339 = "2006-01-02T15:04:05Z07:00"

# Longest first at each position, as Go's nextStdChunk decides.
_TOKENS = (
    "January", "Monday", "Jan", "Mon", "MST",
    "2006", "002", "_2", "01", "02", "03", "04", "05", "06", "15",
    "Z07:00:00", "-07:00:00", "Z07:00", "-07:00", "Z0700", "-0700", "Z07", "-07",
    "PM", "pm", "1", "2", "3", "4", "5",
)  # fmt: skip
_FRACTION = re.compile(r"[.,](0+|9+)(?![0-9])")


def _chunks(layout: str) -> list[tuple[bool, str]]:
    """(is_token, text) pieces of a layout."""
    out: list[tuple[bool, str]] = []
    i = 0
    literal = ""
    while i < len(layout):
        m = _FRACTION.match(layout, i)
        if m:
            if literal:
                out.append((False, literal))
                literal = ""
            out.append((True, m.group(0)))
            i = m.end()
            continue
        for token in _TOKENS:
            if layout.startswith(token, i):
                if literal:
                    out.append((False, literal))
                    literal = ""
                out.append((True, token))
                i += len(token)
                break
        else:
            literal += layout[i]
            i += 1
    if literal:
        out.append((False, literal))
    return out


def _offset(dt: datetime, token: str) -> str:
    delta = dt.utcoffset() or timedelta(0)
    if token.startswith("Z") and delta == timedelta(0):
        return "Z"
    seconds = int(delta.total_seconds())
    sign = "-" if seconds < 0 else "+"
    seconds = abs(seconds)
    hh, mm, ss = seconds // 3600, seconds // 60 % 60, seconds % 60
    body = token.lstrip("Z-")
    if body == "07":
        return f"{sign}{hh:02d}"
    if body == "0700":
        return f"{sign}{hh:02d}{mm:02d}"
    if body == "07:00":
        return f"{sign}{hh:02d}:{mm:02d}"
    return f"{sign}{hh:02d}:{mm:02d}:{ss:02d}"


def _zone_name(dt: datetime) -> str:
    name = dt.tzname() or ""
    if not name or (name.startswith("UTC") and len(name) > 3):  # no abbreviation: Go prints -0700
        return _offset(dt, "-0700")
    return name


def format_time(dt: datetime, layout: str = RFC3339) -> str:
    parts: list[str] = []
    for is_token, text in _chunks(layout):
        if not is_token:
            parts.append(text)
            continue
        hour12 = dt.hour % 12 or 12
        value = {
            "January": dt.strftime("%B"),
            "Jan": dt.strftime("%b"),
            "Monday": dt.strftime("%A"),
            "Mon": dt.strftime("%a"),
            "MST": _zone_name(dt),
            "2006": f"{dt.year:04d}",
            "06": f"{dt.year % 100:02d}",
            "01": f"{dt.month:02d}",
            "1": str(dt.month),
            "02": f"{dt.day:02d}",
            "_2": f"{dt.day:2d}",
            "2": str(dt.day),
            "002": f"{dt.timetuple().tm_yday:03d}",
            "15": f"{dt.hour:02d}",
            "03": f"{hour12:02d}",
            "3": str(hour12),
            "04": f"{dt.minute:02d}",
            "4": str(dt.minute),
            "05": f"{dt.second:02d}",
            "5": str(dt.second),
            "PM": "PM" if dt.hour >= 12 else "AM",
            "pm": "pm" if dt.hour >= 12 else "am",
        }.get(text)
        if value is None and text[0] in "Z-":
            value = _offset(dt, text)
        if value is None:  # .000 / .999: fractional seconds
            digits = len(text) - 1
            frac = f"{dt.microsecond:06d}{'0' * 3}"[:digits]
            if text[1] == "9":
                frac = frac.rstrip("0")
                value = text[0] + frac if frac else ""
            else:
                value = text[0] + frac
        parts.append(value)
    return "".join(parts)


_STRPTIME = {
    "January": "%B", "Jan": "%b", "Monday": "%A", "Mon": "%a", "MST": "%Z",
    "2006": "%Y", "06": "%y", "01": "%m", "1": "%m", "02": "%d", "_2": "%d", "2": "%d",
    "002": "%j", "15": "%H", "03": "%I", "3": "%I", "04": "%M", "4": "%M", "05": "%S",
    "5": "%S", "PM": "%p", "pm": "%p",
}  # fmt: skip


def parse_time(text: str, layout: str | None = None, local: timezone | None = None) -> datetime:
    """Parse ``text``: ISO 8601 / RFC 3339 without a layout, else by the Go layout.
    A time without an offset is read in ``local`` (the machine's zone if None)."""
    if not layout:
        value = text.strip()
        if value.endswith(("Z", "z")):
            value = value[:-1] + "+00:00"
        dt = datetime.fromisoformat(value)
    else:
        fmt: list[str] = []
        for is_token, chunk in _chunks(layout):
            if not is_token:
                fmt.append(chunk.replace("%", "%%"))
            elif chunk in _STRPTIME:
                fmt.append(_STRPTIME[chunk])
            elif chunk[0] in "Z-":
                fmt.append("%z")
            else:  # .000 / .999: fractional seconds
                fmt.append(chunk[0] + "%f")
        dt = datetime.strptime(text, "".join(fmt))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=local) if local is not None else dt.astimezone()
    return dt
