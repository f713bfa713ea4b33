"""File tools for agenthost: read, write, edit, glob, grep and more, confined to the workspace.

Every path goes through ``ctx.resolve_path`` (``write=True`` for writes), so
symlinks, ``..`` and absolute paths cannot leave the workspace.

Listing tools imports only the modules that declare them (and the settings);
engines, walkers and helpers are imported inside the functions that use them,
so the first call pays for them once.
"""

from __future__ import annotations

from typing import Any

from agenthost import hookimpl
from agenthost_fs.finding import file_search, glob
from agenthost_fs.grep import grep
from agenthost_fs.managing import file_copy, file_delete, file_move, file_stat, list_dir
from agenthost_fs.reading import read_file
from agenthost_fs.settings import FsSettings
from agenthost_fs.writing import edit, write_file

TOOLS = (
    read_file,
    write_file,
    edit,
    glob,
    grep,
    list_dir,
    file_stat,
    file_delete,
    file_move,
    file_copy,
    file_search,
)

__all__ = ["TOOLS", "FsSettings", *(t.name for t in TOOLS)]


@hookimpl
def agenthost_register_tools(register: Any, config: Any) -> None:
    config.section("fs", FsSettings)  # a bad [plugins.fs] table fails here, naming the key
    for t in TOOLS:
        register(t)


@hookimpl
def agenthost_doctor(config: Any) -> list[dict[str, Any]]:
    from agenthost_fs.grep_rg import RG_INSTALL, find_rg  # here: listing tools must not import the engine

    rg = find_rg()
    engine = config.section("fs", FsSettings).grep_engine
    if rg:
        detail = f"ripgrep at {rg}; grep uses it" + (
            " (but grep_engine = 'python')" if engine == "python" else ""
        )
    else:
        detail = "ripgrep (rg) is not on PATH; grep uses its slower pure-Python engine"
    return [{"name": "fs: ripgrep", "ok": rg is not None, "detail": detail, "fix": "" if rg else RG_INSTALL}]
