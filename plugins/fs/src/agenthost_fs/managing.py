"""list_dir, file_stat, file_delete, file_move, file_copy.

The path helpers are imported inside the tools: listing tools must not pay for them.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from agenthost import Denied, InvalidArguments, Param, ToolFailure, tool
from agenthost_fs.settings import settings

if TYPE_CHECKING:
    from agenthost import ToolContext


@tool(level="read", path_args=("path",))
def list_dir(
    path: str = ".",
    recursive: bool = False,
    max_depth: Annotated[int, Param(ge=1)] | None = None,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """List a folder: `[DIR]  name` and `[FILE] name (size)` lines, sorted, with a count.

    :param path: the folder (default: the workspace root)
    :param recursive: list sub-folders too (paths shown relative to the folder)
    :param max_depth: how many levels deep to go when recursive (default: no limit)
    """
    from agenthost_fs.paths import human_size, must_exist

    real = ctx.resolve_path(path)
    must_exist(ctx, path, real, "folder")
    if not real.is_dir():
        raise InvalidArguments(f"{path!r} is a file, not a folder; use read_file or file_stat")
    limit = settings(ctx).list_limit
    depth = (max_depth or 1_000_000) if recursive else 1
    rows: list[str] = []
    total = 0
    stack: list[tuple[Path, str, int]] = [(real, "", 1)]
    while stack:
        folder, prefix, level = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            rows.append(f"[ERR]  {prefix or '.'}: cannot list ({e.strerror})")
            continue
        subdirs: list[tuple[Path, str, int]] = []
        for entry in entries:
            name = prefix + entry.name
            total += 1
            try:
                if entry.is_symlink():
                    target = os.readlink(entry.path)
                    row = f"[LINK] {name} -> {target}"
                elif entry.is_dir():
                    row = f"[DIR]  {name}"
                    if level < depth and entry.name != ".git":
                        subdirs.append((Path(entry.path), name + "/", level + 1))
                else:
                    row = f"[FILE] {name} ({human_size(entry.stat().st_size)})"
            except OSError:
                row = f"[????] {name}"
            if len(rows) < limit:
                rows.append(row)
        stack.extend(reversed(subdirs))
    shown = ctx.relative(real)
    if total == 0:
        return f"{shown} is an empty folder (0 entries)"
    if recursive:
        rows.sort(key=lambda r: r[7:])
    more = f"; {total - len(rows)} more not shown (list a sub-folder)" if total > len(rows) else ""
    return f"{shown}: {total} entries{more}\n" + "\n".join(rows)


def _permissions(mode: int) -> str:
    return stat.filemode(mode)[1:]


@tool(level="read", path_args=("path",))
def file_stat(path: str, ctx: ToolContext = None) -> dict[str, Any]:  # type: ignore[assignment]
    """Facts about a file or folder: type (file/directory/symlink), size, modified time,
    permissions, read-only, mime type.

    :param path: the file or folder
    """
    from agenthost_fs.paths import entry_path, guess_mime, human_size, must_exist

    entry = entry_path(ctx, path)
    must_exist(ctx, path, entry)
    info = os.lstat(entry)
    is_link = stat.S_ISLNK(info.st_mode)
    target = os.stat(entry) if is_link else info
    kind = "symlink" if is_link else "directory" if stat.S_ISDIR(info.st_mode) else "file"
    head: bytes | None = None
    if stat.S_ISREG(target.st_mode):
        try:
            with open(entry, "rb") as f:
                head = f.read(8192)
        except OSError:
            head = None
    facts: dict[str, Any] = {
        "path": ctx.relative(entry),
        "type": kind,
        "size": target.st_size,
        "size_human": human_size(target.st_size),
        "modified": datetime.fromtimestamp(target.st_mtime, UTC).isoformat(timespec="seconds"),
        "permissions": _permissions(target.st_mode),
        "mode": oct(stat.S_IMODE(target.st_mode)),
        "read_only": not os.access(entry, os.W_OK),
        "mime_type": "inode/directory" if stat.S_ISDIR(target.st_mode) else guess_mime(entry, head),
    }
    if is_link:
        facts["target"] = ctx.relative(os.path.realpath(entry))
        facts["target_type"] = "directory" if stat.S_ISDIR(target.st_mode) else "file"
    return facts


def _count_files(folder: Path) -> int:
    return sum(len(files) for _, _, files in os.walk(folder))


@tool(level="write", path_args=("path",), destructive=True)
def file_delete(path: str, recursive: bool = False, ctx: ToolContext = None) -> str:  # type: ignore[assignment]
    """Delete a file or an empty folder; a non-empty folder needs recursive=true.

    A symlink is removed itself, never its target. The workspace root is never deleted.

    :param path: the file or folder to delete
    :param recursive: delete a folder with everything in it
    """
    from agenthost.files import fsync_folder
    from agenthost_fs.paths import entry_path, must_exist

    entry = entry_path(ctx, path, write=True)
    if entry == ctx.workspace:
        raise Denied("the workspace root cannot be deleted; delete the files inside it instead")
    must_exist(ctx, path, entry)
    shown = ctx.relative(entry)
    try:
        if entry.is_symlink() or not entry.is_dir():
            kind = "symlink" if entry.is_symlink() else "file"
            os.unlink(entry)
            fsync_folder(entry.parent)
            return f"Deleted {kind} {shown}"
        with os.scandir(entry) as it:
            empty = next(it, None) is None
        if empty:
            os.rmdir(entry)
            return f"Deleted empty folder {shown}"
        if not recursive:
            count = _count_files(entry)
            raise InvalidArguments(
                f"{shown} is a folder that is not empty ({count} files); "
                "set recursive=true to delete it with everything inside"
            )
        count = _count_files(entry)
        shutil.rmtree(entry)
        return f"Deleted folder {shown} and its {count} files"
    except OSError as e:
        raise ToolFailure(f"cannot delete {shown}: {e.strerror or e}") from None


def _prepare_destination(
    ctx: ToolContext, source: Path, destination: str, overwrite: bool, verb: str
) -> Path:
    from agenthost_fs.paths import entry_path

    target = entry_path(ctx, destination, write=True)
    if target == ctx.workspace:
        raise Denied(f"cannot {verb} onto the workspace root; give a path inside it")
    src_real = os.path.realpath(source)
    if source.is_dir() and not source.is_symlink():
        tgt_real = os.path.realpath(target)
        if tgt_real == src_real or tgt_real.startswith(src_real.rstrip(os.sep) + os.sep):
            raise InvalidArguments(f"cannot {verb} a folder into itself; choose a destination outside it")
    if os.path.lexists(target):
        if os.path.samefile(target, source) if os.path.exists(target) else False:
            raise InvalidArguments("source and destination are the same file")
        if not overwrite:
            kind = "folder" if target.is_dir() else "file"
            raise InvalidArguments(
                f"destination {ctx.relative(target)} already exists (a {kind}); "
                "set overwrite=true to replace it, or pick another name"
            )
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


@tool(level="write", path_args=("source", "destination"), destructive=True)
def file_move(
    source: str,
    destination: str,
    overwrite: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Move or rename a file or folder; creates the destination's parent folders.

    Works across file systems. Refuses to replace an existing destination unless overwrite=true.

    :param source: the file or folder to move
    :param destination: its new path (the full new name, not just a folder to put it in)
    :param overwrite: replace an existing destination
    """
    from agenthost.files import fsync_folder
    from agenthost_fs.paths import entry_path, must_exist

    src = entry_path(ctx, source, write=True)
    if src == ctx.workspace:
        raise Denied("the workspace root cannot be moved")
    must_exist(ctx, source, src)
    try:
        dst = _prepare_destination(ctx, src, destination, overwrite, "move")
        if os.path.lexists(dst):
            both_files = not (src.is_dir() or dst.is_dir())
            try:
                if not both_files:
                    raise OSError(errno.EXDEV, "not two files")
                os.replace(src, dst)  # atomic when on one file system
            except OSError as e:
                if e.errno != errno.EXDEV:
                    raise
                _remove(dst)
        if os.path.lexists(src):
            shutil.move(os.fspath(src), os.fspath(dst))
        fsync_folder(dst.parent)
    except OSError as e:
        raise ToolFailure(f"cannot move {source!r} to {destination!r}: {e.strerror or e}") from None
    return f"Moved {ctx.relative(src)} to {ctx.relative(dst)}"


@tool(level="write", path_args=("source", "destination"))
def file_copy(
    source: str,
    destination: str,
    overwrite: bool = False,
    ctx: ToolContext = None,  # type: ignore[assignment]
) -> str:
    """Copy a file or a folder (recursively); reports how many files were copied.

    Symlinks inside a copied folder are copied as symlinks. Refuses to replace an existing
    destination unless overwrite=true.

    :param source: the file or folder to copy
    :param destination: the path of the copy
    :param overwrite: replace an existing destination
    """
    from agenthost_fs.paths import entry_path, human_size, must_exist

    src = entry_path(ctx, source)
    must_exist(ctx, source, src)
    try:
        dst = _prepare_destination(ctx, src, destination, overwrite, "copy")
        if src.is_dir() and not src.is_symlink():
            staging = Path(tempfile.mkdtemp(prefix=f".{dst.name[:80]}.", dir=dst.parent))
            try:
                shutil.copytree(src, staging / "copy", symlinks=True)
                count = _count_files(staging / "copy")
                if os.path.lexists(dst):
                    _remove(dst)
                os.replace(staging / "copy", dst)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            return f"Copied folder {ctx.relative(src)} to {ctx.relative(dst)} ({count} {'file' if count == 1 else 'files'})"
        if src.is_symlink():
            if os.path.lexists(dst):
                _remove(dst)
            os.symlink(os.readlink(src), dst)
            return f"Copied symlink {ctx.relative(src)} to {ctx.relative(dst)} (1 file)"
        fd, tmp = tempfile.mkstemp(prefix=f".{dst.name[:80]}.", suffix=".tmp", dir=dst.parent)
        os.close(fd)
        try:
            shutil.copy2(src, tmp)
            if dst.is_dir() and not dst.is_symlink():
                shutil.rmtree(dst)
            os.replace(tmp, dst)
        except BaseException:
            if os.path.lexists(tmp):
                os.unlink(tmp)
            raise
        return f"Copied {ctx.relative(src)} to {ctx.relative(dst)} (1 file, {human_size(dst.stat().st_size)})"
    except OSError as e:
        raise ToolFailure(f"cannot copy {source!r} to {destination!r}: {e.strerror or e}") from None
