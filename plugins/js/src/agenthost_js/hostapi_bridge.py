"""The bridge itself: a script's ``(op, args_json)`` call is checked against
the tool's granted permissions, dispatched to its ``op_*`` method and answered
in JSON, ``{"v": value}`` or ``{"e": message, "t": error_type, "n": error_name}``
(never an exception into QuickJS). The ops live in the ``hostapi_*`` modules
by area; ``hostapi.ScriptHost`` puts them together.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost.errors import Denied, InvalidArguments, ToolFailure, Unavailable
from agenthost_js.engine import Run
from agenthost_js.settings import PERMISSIONS, JsSettings

if TYPE_CHECKING:
    from agenthost.context import ToolContext

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

_OP_NAMES = {
    "console": "table",
    "Base64": "encode decode",
    "fs": "readFile writeFile appendFile exists isDir isFile listDir getInfo mkdir rmdir deleteFile copyFile moveFile",
    "http": "get post postJSON request download",
    "shell": "exec execWithTimeout execInDir pipe",
    "utils": "now formatTime parseTime sleep env envOr cwd hostname uuid",
}
OPS = tuple(f"{group}.{name}" for group, names in _OP_NAMES.items() for name in names.split())


@dataclass
class HostLink:
    """What a run may reach: None while a file is being loaded (no call, no host)."""

    ctx: ToolContext
    loop: asyncio.AbstractEventLoop


class ApiBase:
    """What every area of the API shares: dispatch, permission checks, paths
    and waiting on the host's loop."""

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
            raise InvalidArguments(f"{what} must be a string, not {js_type(value)}")
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


def js_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def text_arg(value: Any, what: str = "text") -> str:
    if not isinstance(value, str):
        raise InvalidArguments(f"{what} must be a string, not {js_type(value)}")
    return value
