"""The Python side of the script API: every ``fs`` / ``http`` / ``shell`` /
``utils`` / ``Base64`` call a script makes arrives here as ``(op, args_json)``.

Each call is checked against the tool's granted permissions, then goes through
the host's own rules: paths through ``ctx.resolve_path`` (workspace
confinement, protected config and state), URLs through the core SSRF guard and
``allowed_domains``, commands through the shell plugin's ``run_command``
service. The bridge never raises into QuickJS (a Python exception there
breaks the binding): every outcome is a JSON answer, ``{"v": value}`` or
``{"e": message, "t": error_type, "n": error_name}``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import inspect
import json
import os
import re
import shutil
import socket
import stat
import tempfile
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost.errors import Denied, InvalidArguments, NotFound, ToolFailure, Unavailable
from agenthost_js.engine import Run
from agenthost_js.gotime import RFC3339, format_time, parse_time
from agenthost_js.settings import PERMISSIONS, JsSettings

if TYPE_CHECKING:
    from agenthost.context import ToolContext

_SECRET_NAME = re.compile(r"(_KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD|_CREDENTIALS?)$|^(AWS|GH|GITHUB)_", re.I)
_ERROR_NAMES = {
    "denied": "PermissionDenied",
    "outside_workspace": "OutsideWorkspace",
    "not_found": "NotFound",
    "invalid_arguments": "InvalidArguments",
    "timeout": "Timeout",
    "unavailable": "Unavailable",
    "cancelled": "Cancelled",
}

# op -> the permissions it needs (all of them)
NEEDS: dict[str, tuple[str, ...]] = {
    **{
        f"fs.{name}": ("fileRead",)
        for name in ("readFile", "exists", "listDir", "isDir", "isFile", "getInfo")
    },
    **{f"fs.{name}": ("fileWrite",) for name in ("writeFile", "appendFile", "mkdir", "copyFile", "moveFile")},
    **{f"fs.{name}": ("fileDelete",) for name in ("deleteFile", "rmdir")},
    **{f"http.{name}": ("network",) for name in ("get", "post", "postJSON", "request")},
    "http.download": ("network", "fileWrite"),
    **{f"shell.{name}": ("exec",) for name in ("exec", "execWithTimeout", "execInDir", "pipe")},
}


@dataclass
class HostLink:
    """What a run may reach: None while a file is being loaded (no call, no host)."""

    ctx: ToolContext
    loop: asyncio.AbstractEventLoop


class ScriptHost:
    """The bridge for one run of one tool."""

    def __init__(
        self,
        tool_name: str,
        granted: set[str],
        settings: JsSettings,
        run: Run,
        link: HostLink | None,
        workspace: Path,
    ) -> None:
        self.tool_name = tool_name
        self.granted = granted
        self.settings = settings
        self.run = run
        self.link = link
        self.workspace = workspace
        self._ops: dict[str, Callable[..., Any]] = {
            name: getattr(self, "op_" + name.replace(".", "_")) for name in OPS
        }

    # -- the bridge ------------------------------------------------------------

    def __call__(self, op: Any, args_json: Any) -> str:
        try:
            return json.dumps({"v": self._dispatch(str(op), args_json)}, ensure_ascii=False)
        except ToolFailure as e:
            kind = e.type
            return json.dumps({"e": e.message, "t": kind, "n": _ERROR_NAMES.get(kind, "HostError")})
        except OSError as e:
            where = f": {e.filename}" if e.filename else ""
            reason = e.strerror or str(e)
            message = f"{op} failed: {reason}{where}"
            return json.dumps({"e": message, "t": "tool_error", "n": "IOError"}, ensure_ascii=False)
        except Exception as e:  # a bug on our side: still an answer, never an exception in QuickJS
            text = str(e).strip().splitlines()
            message = f"{op} failed: {type(e).__name__}: {text[0] if text else ''}"
            return json.dumps({"e": message, "t": "tool_error", "n": "HostError"})

    def _dispatch(self, op: str, args_json: Any) -> Any:
        method = self._ops.get(op)
        if method is None:
            raise InvalidArguments(f"{op} is not part of the script API")
        args = json.loads(args_json) if isinstance(args_json, str) else None
        if not isinstance(args, list):
            raise InvalidArguments(f"{op}: arguments did not arrive as a list")
        for permission in NEEDS.get(op, ()):
            self._check(op, permission)
        try:
            inspect.signature(method).bind(*args)
        except TypeError as e:
            raise InvalidArguments(f"{op}: {e}; see the script API in the tool docs") from None
        return method(*args)

    def _check(self, op: str, permission: str) -> None:
        if permission in self.granted:
            return
        key = PERMISSIONS[permission]
        if not getattr(self.settings.permissions, key):
            raise Denied(
                f"{op} needs the {permission} permission, which [plugins.js.permissions] {key} = false "
                "switches off for every JS tool; ask the user to allow it in agenthost.toml"
            )
        raise Denied(
            f"{op} needs the {permission} permission, which tool {self.tool_name} does not declare; "
            f"recreate it with permissions: {{{permission}: true}}"
        )

    @property
    def ctx(self) -> ToolContext:
        if self.link is None:
            raise Unavailable(
                "fs, http and shell cannot be used while a tool file loads; call them inside execute()"
            )
        return self.link.ctx

    def _path(self, value: Any, what: str = "path", *, write: bool = False) -> Path:
        if not isinstance(value, str):
            raise InvalidArguments(f"{what} must be a string, not {_js_type(value)}")
        return self.ctx.resolve_path(value, write=write)

    def _shown(self, path: Path) -> str:
        return self.ctx.relative(path)

    def _wait(self, work: Coroutine[Any, Any, Any], what: str) -> Any:
        """Run a coroutine on the host's loop, bounded by the script's deadline."""
        if self.link is None:
            work.close()
            raise Unavailable(f"{what} cannot be used while a tool file loads")
        if self.run.should_stop():
            work.close()
            raise ToolFailure(f"{what} was not started: the script is out of time", "timeout")
        future = asyncio.run_coroutine_threadsafe(work, self.link.loop)
        while True:
            done, _ = concurrent.futures.wait([future], timeout=min(0.25, self.run.remaining()))
            if done:
                try:
                    return future.result()
                except concurrent.futures.CancelledError:
                    raise ToolFailure(f"{what} was cancelled", "cancelled") from None
            if self.run.should_stop():
                future.cancel()
                raise ToolFailure(
                    f"{what} was stopped: the script reached its {self.run.timeout_s:g} s limit", "timeout"
                )

    # -- console.table -------------------------------------------------------------

    def op_console_table(self, data: Any) -> str:
        return render_table(data)

    # -- Base64 ------------------------------------------------------------------

    def op_Base64_encode(self, text: Any) -> str:
        return base64.b64encode(_text(text).encode("utf-8")).decode("ascii")

    def op_Base64_decode(self, text: Any) -> str:
        try:
            return base64.b64decode(_text(text).encode("ascii"), validate=True).decode("utf-8", "replace")
        except (binascii.Error, UnicodeEncodeError, ValueError):
            raise InvalidArguments("Base64.decode: the text is not valid base64") from None

    # -- fs ----------------------------------------------------------------------

    def op_fs_readFile(self, path: Any) -> str:
        real = self._path(path)
        if not real.is_file():
            raise NotFound(f"fs.readFile: {path!r} is not a file; check the name with fs.listDir")
        size = real.stat().st_size
        if size > self.settings.max_memory:
            raise ToolFailure(
                f"fs.readFile: {path!r} is {size:,} bytes, more than the script memory limit "
                f"({self.settings.max_memory:,} bytes); read a smaller file"
            )
        return real.read_bytes().decode("utf-8", "replace")

    def op_fs_writeFile(self, path: Any, content: Any) -> bool:
        real = self._path(path, write=True)
        _atomic_write(real, _content(content))
        return True

    def op_fs_appendFile(self, path: Any, content: Any) -> bool:
        real = self._path(path, write=True)
        real.parent.mkdir(parents=True, exist_ok=True)
        with open(real, "ab") as f:
            f.write(_content(content))
        return True

    def op_fs_exists(self, path: Any) -> bool:
        return self._path(path).exists()

    def op_fs_isDir(self, path: Any) -> bool:
        return self._path(path).is_dir()

    def op_fs_isFile(self, path: Any) -> bool:
        return self._path(path).is_file()

    def op_fs_listDir(self, path: Any = ".") -> list[dict[str, Any]]:
        real = self._path(path)
        if not real.is_dir():
            raise NotFound(f"fs.listDir: {path!r} is not a folder")
        entries = []
        for entry in sorted(os.scandir(real), key=lambda e: e.name):
            info = entry.stat(follow_symlinks=False)
            entries.append(
                {
                    "name": entry.name,
                    "is_dir": entry.is_dir(),
                    "size": info.st_size,
                    "modified": _iso(info.st_mtime),
                }
            )
        return entries

    def op_fs_getInfo(self, path: Any) -> dict[str, Any]:
        real = self._path(path)
        if not real.exists():
            raise NotFound(f"fs.getInfo: {path!r} does not exist")
        info = real.stat()
        return {
            "name": real.name,
            "size": info.st_size,
            "is_dir": real.is_dir(),
            "modified": _iso(info.st_mtime),
            "mode": stat.filemode(info.st_mode),
        }

    def op_fs_mkdir(self, path: Any) -> bool:
        self._path(path, write=True).mkdir(parents=True, exist_ok=True)
        return True

    def op_fs_rmdir(self, path: Any, recursive: Any = False) -> bool:
        real = self._path(path, write=True)
        if real == self.ctx.workspace:
            raise Denied("fs.rmdir: the workspace root cannot be removed")
        if not real.is_dir():
            raise NotFound(f"fs.rmdir: {path!r} is not a folder")
        if recursive is True:
            shutil.rmtree(real)
        elif any(real.iterdir()):
            raise ToolFailure(
                f"fs.rmdir: {path!r} is not empty; pass true as the second argument to remove it all"
            )
        else:
            real.rmdir()
        return True

    def op_fs_deleteFile(self, path: Any) -> bool:
        real = self._path(path, write=True)
        if real.is_dir():
            raise InvalidArguments(f"fs.deleteFile: {path!r} is a folder; use fs.rmdir")
        if not real.exists():
            raise NotFound(f"fs.deleteFile: {path!r} does not exist")
        real.unlink()
        return True

    def op_fs_copyFile(self, source: Any, destination: Any) -> bool:
        src = self._path(source, "source")
        dst = self._path(destination, "destination", write=True)
        if not src.exists():
            raise NotFound(f"fs.copyFile: {source!r} does not exist")
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copyfile(src, dst)
        return True

    def op_fs_moveFile(self, source: Any, destination: Any) -> bool:
        src = self._path(source, "source", write=True)
        dst = self._path(destination, "destination", write=True)
        if not src.exists():
            raise NotFound(f"fs.moveFile: {source!r} does not exist")
        if src == self.ctx.workspace:
            raise Denied("fs.moveFile: the workspace root cannot be moved")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(src), str(dst))
        return True

    # -- http --------------------------------------------------------------------

    def op_http_get(self, url: Any, headers: Any = None) -> dict[str, Any]:
        return self._http("GET", url, None, headers, "http.get")

    def op_http_post(self, url: Any, body: Any = None, headers: Any = None) -> dict[str, Any]:
        return self._http("POST", url, body, headers, "http.post")

    def op_http_postJSON(self, url: Any, data: Any = None, headers: Any = None) -> dict[str, Any]:
        return self._http("POST", url, _Json(data), headers, "http.postJSON")

    def op_http_request(self, method: Any, url: Any, body: Any = None, headers: Any = None) -> dict[str, Any]:
        if not isinstance(method, str) or not re.fullmatch(r"[A-Za-z]{1,16}", method):
            raise InvalidArguments("http.request: method must be a word such as GET or POST")
        return self._http(method.upper(), url, body, headers, "http.request")

    def op_http_download(self, url: Any, path: Any, headers: Any = None) -> dict[str, Any]:
        target = self._path(path, write=True)
        client = self._client()
        checked_url = _text(url, "url")
        request_headers = _headers(headers)
        limit = self.settings.permissions.http_timeout

        async def download() -> dict[str, Any]:
            from agenthost.net import FetchTimeout, read_capped

            try:
                async with asyncio.timeout(limit):
                    async with client.stream(checked_url, headers=request_headers) as response:
                        body, truncated = await read_capped(response, _DOWNLOAD_MAX)
                        status = response.status_code
            except TimeoutError:
                raise FetchTimeout(
                    f"http.download: timed out after {limit:g} s fetching {checked_url}"
                ) from None
            if truncated:
                raise ToolFailure(f"http.download: {checked_url} is larger than {_DOWNLOAD_MAX:,} bytes")
            ok = 200 <= status < 300
            if ok:
                await asyncio.to_thread(_atomic_write, target, body)
            return {"ok": ok, "status_code": status, "path": self._shown(target), "size": len(body)}

        return self._wait(download(), "http.download")  # type: ignore[no-any-return]

    def _client(self) -> Any:
        from agenthost_js.netguard import js_client

        ctx = self.ctx
        return ctx.state(
            "js.http", lambda: js_client(ctx.config, self.settings.permissions.allowed_domains, self.settings)
        )

    def _http(self, method: str, url: Any, body: Any, headers: Any, op: str) -> dict[str, Any]:
        checked_url = _text(url, "url")
        request_headers = _headers(headers)
        content: bytes | None
        if isinstance(body, _Json) or (body is not None and not isinstance(body, str)):
            data = body.data if isinstance(body, _Json) else body
            content = json.dumps(data, ensure_ascii=False).encode("utf-8")
            if not any(k.lower() == "content-type" for k in request_headers):
                request_headers["content-type"] = "application/json"
        else:
            content = body.encode("utf-8") if isinstance(body, str) else None
        client = self._client()
        timeout = min(self.settings.permissions.http_timeout, max(self.run.remaining(), 0.001))

        async def fetch() -> dict[str, Any]:
            response = await client.fetch(
                checked_url,
                method=method,
                headers=request_headers,
                content=content,
                max_bytes=self.settings.max_memory,
                timeout=timeout,
            )
            return {
                "ok": response.ok,
                "status_code": response.status,
                "status": f"{response.status} {response.reason}".strip(),
                "headers": {k: v for k, v in response.headers.items()},
                "body": response.text(),
                "url": response.url,
                "truncated": response.truncated,
            }

        return self._wait(fetch(), op)  # type: ignore[no-any-return]

    # -- shell -------------------------------------------------------------------

    def op_shell_exec(self, command: Any) -> dict[str, Any]:
        return self._shell(command, None, None, "shell.exec")

    def op_shell_execWithTimeout(self, command: Any, timeout: Any) -> dict[str, Any]:
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
            raise InvalidArguments("shell.execWithTimeout: timeout must be a positive number of seconds")
        return self._shell(command, None, float(timeout), "shell.execWithTimeout")

    def op_shell_execInDir(self, command: Any, directory: Any) -> dict[str, Any]:
        return self._shell(command, directory, None, "shell.execInDir")

    def op_shell_pipe(self, commands: Any) -> dict[str, Any]:
        if not isinstance(commands, list) or not commands or not all(isinstance(c, str) for c in commands):
            raise InvalidArguments("shell.pipe: pass a non-empty array of command strings")
        return self._shell(" | ".join(commands), None, None, "shell.pipe")

    def _shell(self, command: Any, directory: Any, timeout: float | None, op: str) -> dict[str, Any]:
        text = _text(command, "command")
        ctx = self.ctx
        cwd = self._path(directory, "directory") if directory is not None else ctx.workspace
        if not cwd.is_dir():
            raise NotFound(f"{op}: {directory!r} is not a folder")
        limit = min(timeout or self.settings.permissions.exec_timeout, max(self.run.remaining(), 0.001))

        async def run_command() -> dict[str, Any]:
            started = time.perf_counter()
            answer = await ctx.host.service(
                "run_command", command=text, cwd=str(cwd), timeout_s=limit, session=ctx.session
            )
            if answer is None:
                raise Unavailable(
                    f"{op} needs the shell plugin (agenthost-shell), which is not loaded; "
                    "install it with: pip install agenthost-shell"
                )
            exit_code = answer.get("exit_code")
            timed_out = bool(answer.get("timed_out"))
            return {
                "stdout": answer.get("stdout", ""),
                "stderr": answer.get("stderr", ""),
                "exit_code": exit_code,
                "success": exit_code == 0 and not timed_out,
                "timed_out": timed_out,
                "duration": round(time.perf_counter() - started, 3),
            }

        return self._wait(run_command(), op)  # type: ignore[no-any-return]

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
        return format_time(moment, _text(layout, "layout"))

    def op_utils_parseTime(self, text: Any, layout: Any = None) -> int:
        return int(self._parse(_text(text, "text"), _text(layout, "layout") if layout else None).timestamp())

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
        key = _text(name, "name")
        return "" if _SECRET_NAME.search(key) else os.environ.get(key, "")

    def op_utils_envOr(self, name: Any, default: Any = "") -> Any:
        key = _text(name, "name")
        if _SECRET_NAME.search(key) or key not in os.environ:
            return default
        return os.environ[key]

    def op_utils_cwd(self) -> str:
        return str(self.workspace)

    def op_utils_hostname(self) -> str:
        return socket.gethostname()

    def op_utils_uuid(self) -> str:
        return str(uuid.uuid4())


_OP_NAMES = {
    "console": "table",
    "Base64": "encode decode",
    "fs": "readFile writeFile appendFile exists isDir isFile listDir getInfo mkdir rmdir deleteFile copyFile moveFile",
    "http": "get post postJSON request download",
    "shell": "exec execWithTimeout execInDir pipe",
    "utils": "now formatTime parseTime sleep env envOr cwd hostname uuid",
}
OPS = tuple(f"{group}.{name}" for group, names in _OP_NAMES.items() for name in names.split())

_DOWNLOAD_MAX = 100 * 1024 * 1024


@dataclass
class _Json:
    data: Any


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


def _js_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def _text(value: Any, what: str = "text") -> str:
    if not isinstance(value, str):
        raise InvalidArguments(f"{what} must be a string, not {_js_type(value)}")
    return value


def _content(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if value is None:
        return b""
    return json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8")


def _headers(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidArguments("headers must be an object of name: value strings")
    return {str(k): str(v) for k, v in value.items()}


def _iso(mtime: float) -> str:
    return datetime.fromtimestamp(mtime).astimezone().isoformat(timespec="seconds")


def _atomic_write(real: Path, data: bytes) -> None:
    real.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if real.exists():
            shutil.copymode(real, temp)
        os.replace(temp, real)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
