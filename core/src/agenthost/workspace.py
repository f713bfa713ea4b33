"""Workspace confinement: the one resolver every path-taking tool goes through.

The real path (symlinks resolved, including a dangling link's target and the
nearest existing ancestor of a new file) must be the root or lie under
``root + sep``, so ``/ws-evil`` is not inside ``/ws``.
"""

from __future__ import annotations

import os
from pathlib import Path

from agenthost.errors import Denied, InvalidArguments, OutsideWorkspace


class Workspace:
    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        restrict: bool = True,
        protected: tuple[str | os.PathLike[str], ...] = (),
    ) -> None:
        self.root = Path(os.path.realpath(root))
        self.restrict = restrict
        self._root_str = str(self.root)
        self._root_prefix = self._root_str.rstrip(os.sep) + os.sep
        self.protected = tuple(os.path.realpath(p) for p in protected)

    def contains(self, real: str) -> bool:
        return real == self._root_str or real.startswith(self._root_prefix)

    def resolve(self, path: str | os.PathLike[str], *, write: bool = False) -> Path:
        """The real path of ``path`` (relative paths start at the root).

        Raises ``OutsideWorkspace`` when it leaves the workspace (while
        restricted) and ``Denied`` when a write targets the host's own config
        file or state folder.
        """
        text = os.fspath(path)
        if "\0" in text:
            raise InvalidArguments("path contains a NUL byte; pass a plain file name")
        if text == "":
            text = "."
        # realpath follows every symlink that exists, a dangling one's target
        # included, and resolves '..' after the links before it.
        real = os.path.realpath(os.path.join(self._root_str, text))
        if self.restrict and not self.contains(real):
            raise OutsideWorkspace(
                f"path {text!r} is outside the workspace {self._root_str}; "
                "use a path inside it (relative paths start there)"
            )
        if write and self.is_protected(real):
            raise Denied(
                f"path {text!r} is the host's own config or state, which tools may not "
                "change; write somewhere else in the workspace"
            )
        return Path(real)

    def is_protected(self, real: str) -> bool:
        return any(real == p or real.startswith(p.rstrip(os.sep) + os.sep) for p in self.protected)

    def relative(self, path: str | os.PathLike[str]) -> str:
        """``path`` as shown to the model: relative to the root when inside it."""
        text = os.fspath(path)
        if self.contains(text):
            rel = os.path.relpath(text, self._root_str)
            return "." if rel == "." else rel
        return text
