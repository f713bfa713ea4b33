"""The ripgrep grep engine: runs `rg` with flags that mirror walk.py's rules
and reads its output into ``Found``."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil

from agenthost import InvalidArguments
from agenthost_fs.grep_query import ContentLines, Found, Query, path_key

RG_INSTALL = "apt-get install ripgrep"


class RegexSyntax(Exception):
    """rg could not parse the pattern (the Python engine may still)."""


def rg_args(query: Query) -> list[str]:
    args = [
        "--no-config",
        "--hidden",
        "--no-require-git",
        "--no-ignore-dot",
        "--no-ignore-exclude",
        "--no-ignore-global",
        "--no-messages",
        "--glob",
        "!.git",
    ]
    for g in query.globs:
        args += ["--glob", g]
    if query.type_globs:
        for g in query.type_globs:
            args += ["--type-add", f"agenthost:{g}"]
        args += ["--type", "agenthost"]
    if query.ignore_case:
        args.append("--ignore-case")
    else:
        args.append("--case-sensitive")
    if query.multiline:
        args += ["--multiline", "--multiline-dotall"]
    if query.mode == "files_with_matches":
        args += ["--files-with-matches", "--null"]
    elif query.mode == "count":
        args += ["--count", "--with-filename", "--null"]
    else:
        args += ["--json", "--sort", "path"]
        if query.before:
            args += ["--before-context", str(query.before)]
        if query.after:
            args += ["--after-context", str(query.after)]
    return [*args, "--regexp", query.pattern, "--", query.root_arg]


def _strip_dot(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _json_text(node: dict[str, str]) -> str:
    if "text" in node:
        return node["text"]
    return base64.b64decode(node.get("bytes", "")).decode("utf-8", "replace")


def _json_path(node: dict[str, str]) -> str:
    if "text" in node:
        return node["text"]
    return os.fsdecode(base64.b64decode(node.get("bytes", "")))


async def rg_search(query: Query, rg: str) -> Found:
    proc = await asyncio.create_subprocess_exec(
        rg,
        *rg_args(query),
        cwd=query.workspace,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=16 * 1024 * 1024,
    )
    found = Found(engine="rg")
    try:
        assert proc.stdout is not None and proc.stderr is not None
        if query.mode == "content":
            out = ContentLines(query.need, query.before > 0 or query.after > 0)
            full = False
            async for raw in proc.stdout:
                message = json.loads(raw)
                kind = message.get("type")
                if kind not in ("match", "context"):
                    continue
                data = message["data"]
                path = _strip_dot(_json_path(data["path"]))
                text = _json_text(data["lines"])
                number = data["line_number"]
                if text.endswith("\n"):
                    text = text[:-1]
                for offset, line in enumerate(text.split("\n")):
                    if out.add(
                        path, number + offset, line[:-1] if line.endswith("\r") else line, kind == "match"
                    ):
                        full = True
                        break
                if full:
                    break
            found.lines = out.lines
            if full:
                return found
            stderr = await proc.stderr.read()
        else:
            stdout, stderr = await proc.communicate()
            if query.mode == "files_with_matches":
                found.files = sorted(
                    (_strip_dot(os.fsdecode(p)) for p in stdout.split(b"\0") if p), key=path_key
                )
            else:
                counts = []
                for row in stdout.splitlines():
                    name, _, number = row.rpartition(b"\0")
                    if name:
                        counts.append((_strip_dot(os.fsdecode(name)), int(number)))
                found.counts = sorted(counts, key=lambda item: path_key(item[0]))
        code = await proc.wait()
        if code == 2 and not (found.files or found.counts or found.lines):
            message = stderr.decode("utf-8", "replace").strip()
            if "regex" in message.lower() or "pattern" in message.lower():
                raise RegexSyntax(message)
            raise InvalidArguments(f"ripgrep failed: {message.splitlines()[-1] if message else code}")
        return found
    finally:
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
            await proc.wait()


def find_rg() -> str | None:
    return shutil.which("rg")
