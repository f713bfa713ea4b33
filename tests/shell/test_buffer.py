"""OutputBuffer: head + ring tail, omission marker, UTF-8 split across reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agenthost_shell.buffer import OutputBuffer, incomplete_suffix


def test_small_output_is_kept_whole_and_drained_once():
    buf = OutputBuffer(10, 1024)
    buf.feed(b"hello ")
    buf.feed(b"world\n")
    assert buf.drain() == "hello world\n"
    assert buf.drain() == ""
    buf.feed(b"more")
    assert buf.drain() == "more"


def test_long_output_keeps_head_and_tail_with_a_count_of_what_was_dropped():
    buf = OutputBuffer(head_limit=5, tail_limit=1024)
    data = b"HEAD!" + b"x" * 10_000 + b"y" * 1024
    for i in range(0, len(data), 333):
        buf.feed(data[i : i + 333])
    text = buf.drain(final=True)
    head, marker, tail = text.split("\n", 2)
    assert head == "HEAD!"
    assert marker == "[... 10,000 bytes omitted ...]"
    assert tail == "y" * 1024
    assert buf.total == len(data)


def test_memory_stays_bounded_while_a_gigabyte_worth_of_chunks_flows():
    buf = OutputBuffer(head_limit=100, tail_limit=4096)
    chunk = b"z" * 65536
    for _ in range(2000):  # 128 MiB
        buf.feed(chunk)
        assert buf._tail_len <= 4096
        assert sum(len(c) for c in buf._tail) <= 4096 + len(chunk)
    assert len(buf._head) == 100


def test_a_character_split_across_reads_waits_for_its_other_bytes():
    buf = OutputBuffer(100, 1024)
    euro = "€".encode()  # three bytes
    buf.feed(b"price: " + euro[:1])
    assert buf.drain() == "price: "
    buf.feed(euro[1:] + b"5")
    assert buf.drain() == "€5"


def test_a_split_character_at_the_end_of_a_closed_stream_is_replaced():
    buf = OutputBuffer(100, 1024)
    buf.feed(b"ok " + "€".encode()[:2])
    assert buf.drain(final=True) == "ok \ufffd"


def test_invalid_bytes_are_replaced_not_fatal():
    buf = OutputBuffer(100, 1024)
    buf.feed(b"a\xffb\xfe")
    assert buf.drain(final=True) == "a\ufffdb\ufffd"


def test_cut_points_never_leave_half_characters():
    buf = OutputBuffer(head_limit=4, tail_limit=1024)
    data = "ééééé".encode() + "ü".encode() * 2000
    buf.feed(data)
    text = buf.drain(final=True)
    assert "\ufffd" not in text
    head, marker, tail = text.split("\n", 2)
    assert head == "éé"
    assert set(tail) == {"ü"}
    dropped = int(marker.split()[1].replace(",", ""))
    assert len(head.encode()) + dropped + len(tail.encode()) == len(data)


@given(st.text(max_size=300), st.lists(st.integers(1, 7), max_size=80))
def test_incremental_reads_reassemble_the_text(text, sizes):
    data = text.encode()
    buf = OutputBuffer(head_limit=10_000, tail_limit=10_000)
    out, pos = [], 0
    for size in sizes:
        buf.feed(data[pos : pos + size])
        pos += size
        out.append(buf.drain())
    buf.feed(data[pos:])
    out.append(buf.drain(final=True))
    assert "".join(out) == text


@given(st.text(min_size=1, max_size=20), st.data())
def test_cutting_valid_text_anywhere_leaves_a_decodable_prefix(text, data):
    encoded = text.encode()
    cut = data.draw(st.integers(0, len(encoded)))
    prefix = encoded[:cut]
    keep = incomplete_suffix(prefix)
    assert 0 <= keep <= 3
    prefix[: len(prefix) - keep].decode("utf-8", "strict")  # raises if a character was split
    assert (prefix[len(prefix) - keep :] + encoded[cut:]).decode("utf-8", "strict") or cut == len(encoded)
