from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest

from agenthost import ImageBlock

from .conftest import write


async def test_numbered_lines_and_end_of_file(call, workspace: Path) -> None:
    write(workspace, "a.txt", "alpha\nbeta\ngamma\n")
    result = await call("read_file", path="a.txt")
    assert result.ok, result.text
    lines = result.text.splitlines()
    assert lines[:3] == ["     1\talpha", "     2\tbeta", "     3\tgamma"]
    assert "end of file: 3 lines" in lines[3]


async def test_window_says_how_to_read_on(call, workspace: Path) -> None:
    write(workspace, "n.txt", "".join(f"line {i}\n" for i in range(1, 101)))
    result = await call("read_file", path="n.txt", start_line=10, end_line=12)
    assert result.ok
    assert result.text.splitlines()[:3] == ["    10\tline 10", "    11\tline 11", "    12\tline 12"]
    assert "start_line=13" in result.text
    assert "100 lines" not in result.text  # the total is not known without reading on


async def test_default_cap_is_2000_lines(call, workspace: Path) -> None:
    write(workspace, "big.txt", "".join(f"{i}\n" for i in range(1, 2501)))
    result = await call("read_file", path="big.txt")
    assert result.ok
    numbered = [row for row in result.text.splitlines() if "\t" in row]
    assert len(numbered) == 2000
    assert numbered[-1] == "  2000\t2000"
    assert "start_line=2001" in result.text


async def test_start_past_end(call, workspace: Path) -> None:
    write(workspace, "a.txt", "one\ntwo\n")
    result = await call("read_file", path="a.txt", start_line=5)
    assert result.error and result.error.type == "invalid_arguments"
    assert "2 lines" in result.text


async def test_end_before_start(call, workspace: Path) -> None:
    write(workspace, "a.txt", "one\ntwo\n")
    result = await call("read_file", path="a.txt", start_line=2, end_line=1)
    assert result.error and result.error.type == "invalid_arguments"


async def test_empty_file(call, workspace: Path) -> None:
    write(workspace, "e.txt", "")
    result = await call("read_file", path="e.txt")
    assert result.ok and "empty" in result.text


async def test_long_line_is_cut(call, workspace: Path) -> None:
    write(workspace, "long.txt", "x" * 5000 + "\nnext\n")
    result = await call("read_file", path="long.txt")
    assert result.ok
    first, second = result.text.splitlines()[:2]
    assert first.count("x") == 2000 and "3,000 more bytes" in first
    assert second == "     2\tnext"


async def test_reads_only_what_it_returns(call, workspace: Path, monkeypatch) -> None:
    """A window near the start of a large file must not read the whole file."""
    path = write(workspace, "huge.txt", b"")
    line = b"0123456789" * 9 + b"\n"  # 100 bytes
    with open(path, "wb") as f:
        for _ in range(200):  # 200 x 100 KB = 20 MB
            f.write(line * 1000)
    read_bytes = 0
    real_open = io.open

    class Counting(io.BufferedReader):
        def read(self, size=-1):  # type: ignore[override]
            nonlocal read_bytes
            data = super().read(size)
            read_bytes += len(data)
            return data

        def readline(self, size=-1):  # type: ignore[override]
            nonlocal read_bytes
            data = super().readline(size)
            read_bytes += len(data)
            return data

    def counting_open(file, mode="r", *args, **kwargs):
        if str(file) == str(path) and mode == "rb":
            return Counting(io.FileIO(file, "rb"))
        return real_open(file, mode, *args, **kwargs)

    import agenthost_fs.reading as reading

    monkeypatch.setattr(reading, "open", counting_open, raising=False)
    result = await call("read_file", path="huge.txt", start_line=50, end_line=60)
    assert result.ok
    assert result.text.splitlines()[0] == "    50\t" + line.decode().strip()
    assert 0 < read_bytes < 2 * 1024 * 1024, read_bytes


async def test_image_comes_back_as_image(call, workspace: Path) -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), (255, 0, 0)).save(buffer, format="PNG")
    write(workspace, "pic.png", buffer.getvalue())
    result = await call("read_file", path="pic.png")
    assert result.ok
    images = [b for b in result.content if isinstance(b, ImageBlock)]
    assert len(images) == 1 and images[0].mime_type == "image/png"
    assert base64.b64decode(images[0].data) == buffer.getvalue()


@pytest.mark.parametrize("fmt,mime", [("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")])
async def test_other_image_kinds(call, workspace: Path, fmt: str, mime: str) -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), (0, 0, 255)).save(buffer, format=fmt)
    write(workspace, f"pic.{fmt.lower()}", buffer.getvalue())
    result = await call("read_file", path=f"pic.{fmt.lower()}")
    assert result.ok
    assert [b.mime_type for b in result.content if isinstance(b, ImageBlock)] == [mime]


def _pdf(pages: list[str]) -> bytes:
    """A small PDF with one line of text per page, written by hand."""
    objects: list[bytes] = []
    kids = []
    n = len(pages)
    font_id = 3 + 2 * n
    for i, text in enumerate(pages):
        page_id, content_id = 3 + 2 * i, 4 + 2 * i
        kids.append(f"{page_id} 0 R")
        stream = f"BT /F1 12 Tf 50 700 Td ({text}) Tj ET".encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
    tree = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {n} >>".encode()
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    allobjs = [catalog, tree, *objects, font]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(allobjs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(allobjs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(allobjs) + 1, xref)
    return bytes(out)


async def test_pdf_text_and_pages(call, workspace: Path) -> None:
    write(workspace, "doc.pdf", _pdf(["First page words", "Second page words", "Third page words"]))
    result = await call("read_file", path="doc.pdf")
    assert result.ok, result.text
    assert "First page words" in result.text and "Third page words" in result.text
    result = await call("read_file", path="doc.pdf", pages="2")
    assert result.ok
    assert "Second page words" in result.text and "First page" not in result.text
    bad = await call("read_file", path="doc.pdf", pages="9")
    assert bad.error and bad.error.type == "invalid_arguments" and "3 pages" in bad.text


async def test_binary_file_is_refused_with_size_and_kind(call, workspace: Path) -> None:
    write(workspace, "a.gz", b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4)
    result = await call("read_file", path="a.gz")
    assert not result.ok
    assert "binary" in result.text and "gzip" in result.text and "1.0 KB" in result.text
    write(workspace, "blob.bin", b"\x00\x01\x02junk" * 10)
    result = await call("read_file", path="blob.bin")
    assert not result.ok and "binary data" in result.text and "70 B" in result.text


async def test_other_encodings_are_decoded_and_named(call, workspace: Path) -> None:
    write(workspace, "latin.txt", "café au lait, déjà vu, naïve façade\n".encode("cp1252") * 20)
    result = await call("read_file", path="latin.txt")
    assert result.ok
    assert "café au lait" in result.text
    assert "decoded from" in result.text
    write(workspace, "u16.txt", "héllo\nwörld\n".encode("utf-16"))
    result = await call("read_file", path="u16.txt")
    assert result.ok
    assert result.text.splitlines()[:2] == ["     1\théllo", "     2\twörld"]


async def test_stray_bad_bytes_are_reported_not_hidden(call, workspace: Path) -> None:
    body = ("plain ascii line\n" * 5000).encode() + b"bad \xff\xfe byte\n"
    write(workspace, "mixed.txt", body)
    result = await call("read_file", path="mixed.txt", start_line=4999)
    assert result.ok
    assert "5001" in result.text and "not valid" in result.text


async def test_folder_and_missing(call, workspace: Path) -> None:
    (workspace / "d").mkdir()
    result = await call("read_file", path="d")
    assert result.error and result.error.type == "invalid_arguments" and "list_dir" in result.text
    result = await call("read_file", path="nope.txt")
    assert result.error and result.error.type == "not_found"


async def test_crlf_lines(call, workspace: Path) -> None:
    write(workspace, "w.txt", b"one\r\ntwo\r\n")
    result = await call("read_file", path="w.txt")
    assert result.text.splitlines()[:2] == ["     1\tone", "     2\ttwo"]


@pytest.mark.parametrize(
    ("content", "window"),
    [
        (b"one\ntwo\nthree\n", {}),
        (b"one\ntwo\nthree", {}),
        (b"a\r\nb\r\nc\r\n", {"start_line": 2}),
        (b"".join(b"line %d\n" % i for i in range(1, 5001)), {}),
        (b"".join(b"line %d\n" % i for i in range(1, 5001)), {"start_line": 4990, "end_line": 5000}),
        (b"".join(b"line %d\n" % i for i in range(1, 5001)), {"start_line": 100, "end_line": 120}),
        (b"".join(b"line %d\n" % i for i in range(1, 101)), {"start_line": 1, "end_line": 100}),
        ("caf\u00e9\nna\u00efve\n".encode(), {"start_line": 2}),
    ],
)
async def test_plain_window_matches_the_line_by_line_path(
    call, workspace: Path, monkeypatch, content, window
) -> None:
    """The one-piece fast path gives exactly what the careful path gives."""
    import agenthost_fs.textwindow as textwindow

    write(workspace, "f.txt", content)
    original, answers = textwindow._plain_window, []
    monkeypatch.setattr(textwindow, "_plain_window", lambda *a: answers.append(original(*a)) or answers[-1])
    fast = await call("read_file", path="f.txt", **window)
    assert answers and answers[0] is not None  # the fast path really answered
    monkeypatch.setattr(textwindow, "_plain_window", lambda *a: None)
    careful = await call("read_file", path="f.txt", **window)
    assert fast.ok and careful.ok
    assert fast.text == careful.text
