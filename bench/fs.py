"""Benchmarks for the file tools, each beside its baseline measured in the same run.

    python bench/fs.py [--dir DIR] [--files 20000] [--tree-mb 250] [--big-gb 1] [--edit-mb 50] [--repeat 3]

Figures (goal in brackets):
  grep, rg engine            vs bare `rg -l` on the same query     (<= 1.5x)
  grep, Python engine        vs bare `rg -l` on the same query     (<= 12x)
  read_file lines 1-2000     vs `head -n 2000` of a >= 1 GB file   (<= 3x)
  edit of a 50 MB file       vs read-replace-write with temp file, fsync, rename (<= 1.5x)

Free disk is checked first; when short, the sizes are scaled down and the run says so.
Each figure is the best of --repeat runs with a warm page cache.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from agenthost import Host

NEEDLE = "zebracorn_needle"


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


async def abest(fn: Callable[[], Awaitable[object]], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return min(times)


def text_pool(size: int, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10)))
        for _ in range(5000)
    ]
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 14))) + "\n"
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()


def make_tree(root: Path, files: int, total_bytes: int) -> int:
    """``files`` files of about total_bytes/files each, in 100 files per folder;
    every 500th file holds the needle. Slices of one pool keep this fast."""
    pool = text_pool(4 * 1024 * 1024)
    per_file = max(64, total_bytes // files)
    rng = random.Random(1)
    written = 0
    for i in range(files):
        folder = root / f"d{i // 100:04d}"
        if i % 100 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        start = rng.randrange(0, len(pool) - per_file - 1)
        start = pool.index(b"\n", start) + 1
        data = pool[start : start + per_file]
        if i % 500 == 0:
            data += f"found the {NEEDLE} here\n".encode()
        with open(folder / f"f{i:05d}.txt", "wb") as f:
            f.write(data)
        written += len(data)
    (root / ".gitignore").write_text("ignored/\n")
    return written


def make_big(path: Path, size: int) -> None:
    block = text_pool(1024 * 1024, seed=3)
    with open(path, "wb") as f:
        done = 0
        while done < size:
            f.write(block)
            done += len(block)


def plain_edit(path: Path, old: str, new: str) -> None:
    """The baseline: read, replace, write a temp file, fsync, rename."""
    text = path.read_text(encoding="utf-8")
    text = text.replace(old, new, 1)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def row(name: str, ours: float, base: float, base_name: str, goal: float) -> bool:
    ratio = ours / base if base else float("inf")
    ok = ratio <= goal
    print(
        f"{name:<34} {ours * 1000:9.1f} ms   {base_name:<26} {base * 1000:9.1f} ms   "
        f"ratio {ratio:5.2f}x   goal <= {goal:g}x   {'OK' if ok else 'MISSED'}"
    )
    return ok


async def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where to generate the data")
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--tree-mb", type=int, default=250)
    parser.add_argument("--big-gb", type=float, default=1.0)
    parser.add_argument("--edit-mb", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rg = shutil.which("rg")
    if rg is None:
        print("rg (ripgrep) is not on PATH: apt-get install ripgrep; the baselines need it")
        return 2
    base_dir = Path(args.dir)
    need = (args.tree_mb + args.big_gb * 1024 + 2 * args.edit_mb) * 1024 * 1024 * 1.2
    free = shutil.disk_usage(base_dir).free
    scale = 1.0
    if free < need:
        scale = max(0.01, free / need * 0.8)
        print(
            f"only {free / 2**30:.1f} GB free in {base_dir}, {need / 2**30:.1f} GB needed: "
            f"scaling every size down to {scale:.0%}"
        )
    files = max(100, int(args.files * scale))
    tree_bytes = int(args.tree_mb * scale * 1024 * 1024)
    big_bytes = int(args.big_gb * scale * 1024**3)
    edit_bytes = int(args.edit_mb * scale * 1024 * 1024)

    ws = Path(tempfile.mkdtemp(prefix="agenthost-bench-fs-", dir=base_dir))
    try:
        t = time.perf_counter()
        written = make_tree(ws / "tree", files, tree_bytes)
        make_big(ws / "big.txt", big_bytes)
        (ws / "edit.txt").write_bytes(text_pool(edit_bytes, seed=5)[:edit_bytes])
        with open(ws / "edit.txt", "r+b") as f:
            f.seek(edit_bytes // 2)
            f.readline()
            f.write(b"UNIQUE_MARKER_LINE\n")
        print(
            f"generated {files:,} files / {written / 2**20:.0f} MB, a {big_bytes / 2**30:.2f} GB file and a "
            f"{edit_bytes / 2**20:.0f} MB file in {time.perf_counter() - t:.1f} s ({ws})"
        )
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {subprocess.run([rg, '--version'], capture_output=True, text=True).stdout.splitlines()[0]}"
        )
        print()
        all_ok = True

        def bare_rg() -> None:
            subprocess.run([rg, "-l", NEEDLE, "tree"], cwd=ws, capture_output=True, check=True)

        bare_rg()  # warm the page cache
        rg_time = best(bare_rg, args.repeat)
        expected = files // 500 + (1 if files % 500 else 0)
        for engine, goal in (("rg", 1.5), ("python", 12.0)):
            config = {"audit": {"enabled": False}, "plugins": {"fs": {"grep_engine": engine}}}
            async with Host(workspace=ws, config=config, plugins=["fs"]) as host, host.session() as session:

                async def grep() -> None:
                    result = await session.call("grep", {"pattern": NEEDLE, "path": "tree", "head_limit": 0})
                    assert result.ok, result.text
                    assert result.text.startswith(f"{expected} files match"), result.text[:80]

                await grep()
                ours = await abest(grep, args.repeat)
                all_ok &= row(f"grep ({engine} engine), {files:,} files", ours, rg_time, "bare rg -l", goal)

        # room for all 2000 lines (the default output cap would cut them short)
        config = {"audit": {"enabled": False}, "host": {"max_output_chars": 10_000_000}}
        async with Host(workspace=ws, config=config, plugins=["fs"]) as host, host.session() as s:

            async def read() -> None:
                result = await s.call("read_file", {"path": "big.txt", "start_line": 1, "end_line": 2000})
                assert result.ok and "start_line=2001" in result.text, result.text[-200:]

            def head() -> None:
                subprocess.run(["head", "-n", "2000", str(ws / "big.txt")], capture_output=True, check=True)

            await read()
            head()
            ours = await abest(read, args.repeat * 3)
            base = best(head, args.repeat * 3)
            all_ok &= row(f"read_file 1-2000 of {big_bytes / 2**30:.2f} GB", ours, base, "head -n 2000", 3.0)

            marker = ["UNIQUE_MARKER_LINE", "UNIQUE_MARKER_LINE_EDITED"]
            copy = ws / "edit_plain.txt"
            shutil.copyfile(ws / "edit.txt", copy)
            edit_times, plain_times = [], []
            for i in range(args.repeat):
                old, new = marker[i % 2], marker[(i + 1) % 2]
                start = time.perf_counter()
                result = await s.call(
                    "edit", {"path": "edit.txt", "old_str": old + "\n", "new_str": new + "\n"}
                )
                edit_times.append(time.perf_counter() - start)
                assert result.ok, result.text
                start = time.perf_counter()
                plain_edit(copy, old + "\n", new + "\n")
                plain_times.append(time.perf_counter() - start)
            all_ok &= row(
                f"edit of a {edit_bytes / 2**20:.0f} MB file",
                min(edit_times),
                min(plain_times),
                "read-replace-fsync-rename",
                1.5,
            )
        print()
        print("all goals met" if all_ok else "some goals missed (see MISSED)")
        return 0
    finally:
        shutil.rmtree(ws, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
