"""``fs.*``: files and folders, every path through ``ctx.resolve_path``
(workspace confinement, protected config and state)."""

from __future__ import annotations

import json
import os
import shutil
import stat
from datetime import datetime
from pathlib import Path
from typing import Any

from agenthost import files
from agenthost.errors import Denied, InvalidArguments, NotFound, ToolFailure
from agenthost_js.hostapi_bridge import ApiBase


class FsApi(ApiBase):
    """The ``fs.*`` ops."""

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
        atomic_write(real, _content(content))
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


def _content(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if value is None:
        return b""
    return json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8")


def _iso(mtime: float) -> str:
    return datetime.fromtimestamp(mtime).astimezone().isoformat(timespec="seconds")


def atomic_write(real: Path, data: bytes) -> None:
    real.parent.mkdir(parents=True, exist_ok=True)
    files.atomic_write(real, data)
