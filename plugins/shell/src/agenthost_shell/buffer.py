"""Bounded output buffers: the first bytes and a ring of the newest bytes of
one stream, with a count of what was dropped between them.

A process writing a gigabyte keeps at most ``head + tail`` bytes (plus the
chunk being read) per stream. Each ``drain`` returns what arrived since the
previous one, so the head is "the first bytes since the last read".
"""

from __future__ import annotations

import threading
from collections import deque


def incomplete_suffix(data: bytes | bytearray) -> int:
    """How many bytes at the end of ``data`` start a UTF-8 character that is not complete yet."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 == 0x80:  # a continuation byte: keep looking for the lead byte
            continue
        need = 4 if byte >= 0xF0 else 3 if byte >= 0xE0 else 2 if byte >= 0xC0 else 1
        return back if need > back else 0
    return 0


def _leading_continuations(data: bytes) -> int:
    n = 0
    while n < min(3, len(data)) and data[n] & 0xC0 == 0x80:
        n += 1
    return n


class OutputBuffer:
    """Head + ring tail of one stream; ``feed`` from the reader thread,
    ``drain`` from anywhere."""

    __slots__ = (
        "_head",
        "_lock",
        "_omitted",
        "_skip",
        "_tail",
        "_tail_len",
        "closed",
        "head_limit",
        "tail_limit",
        "total",
    )

    def __init__(self, head_limit: int, tail_limit: int) -> None:
        self.head_limit = head_limit
        self.tail_limit = tail_limit
        self._lock = threading.Lock()
        self._head = bytearray()
        self._tail: deque[bytes] = deque()
        self._tail_len = 0  # bytes in the tail, not counting the skipped start of the first chunk
        self._skip = 0
        self._omitted = 0
        self.total = 0  # bytes ever fed
        self.closed = False  # the stream reached its end

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        """Take ``data`` (copied: the reader reuses its read buffer)."""
        with self._lock:
            self.total += len(data)
            if not self._tail and len(self._head) < self.head_limit:
                room = self.head_limit - len(self._head)
                if len(data) <= room:
                    self._head += data
                    return
                self._head += data[:room]
                data = data[room:]
            if len(data) >= self.tail_limit:  # the chunk alone fills the tail: copy only that
                self._omitted += self._tail_len + len(data) - self.tail_limit
                self._tail.clear()
                self._skip = 0
                self._tail.append(bytes(data[len(data) - self.tail_limit :]))
                self._tail_len = self.tail_limit
                return
            self._tail.append(bytes(data))
            self._tail_len += len(data)
            excess = self._tail_len - self.tail_limit
            while excess > 0:
                available = len(self._tail[0]) - self._skip
                if available <= excess:
                    self._tail.popleft()
                    self._skip = 0
                    cut = available
                else:
                    self._skip += excess
                    cut = excess
                self._tail_len -= cut
                self._omitted += cut
                excess -= cut

    @property
    def pending(self) -> bool:
        with self._lock:
            return bool(self._head or self._tail or self._omitted)

    def drain(self, final: bool = False) -> str:
        """Everything fed since the last drain, decoded as UTF-8 (invalid bytes
        replaced), with an omission marker where bytes were dropped. Unless
        ``final``, a character split across reads waits for its other bytes."""
        with self._lock:
            if not self._head and not self._tail:  # nothing arrived (often, for a foreground stream)
                return ""
            head = bytes(self._head)
            tail = b"".join(self._tail)[self._skip :]
            omitted = self._omitted
            self._head = bytearray()
            self._tail.clear()
            self._tail_len = self._skip = self._omitted = 0
            final = final or self.closed
            if not final:
                if tail:
                    keep = incomplete_suffix(tail)
                    if keep:
                        self._head += tail[-keep:]
                        tail = tail[:-keep]
                else:
                    keep = incomplete_suffix(head)
                    if keep:
                        self._head += head[-keep:]
                        head = head[:-keep]
        if not omitted:
            return (head + tail).decode("utf-8", "replace")
        broken = incomplete_suffix(head)
        if broken:
            head = head[:-broken]
        lead = _leading_continuations(tail)
        tail = tail[lead:]
        omitted += broken + lead
        marker = f"[... {omitted:,} bytes omitted ...]"
        text = head.decode("utf-8", "replace")
        if text and not text.endswith("\n"):
            text += "\n"
        return f"{text}{marker}\n{tail.decode('utf-8', 'replace')}"
