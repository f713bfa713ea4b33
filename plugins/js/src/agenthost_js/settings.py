"""``[plugins.js]``: seed 004's keys."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from agenthost import Param
from agenthost.config import Section

# A tool's permission name -> the ceiling key in [plugins.js.permissions]
PERMISSIONS: dict[str, str] = {
    "fileRead": "file_read",
    "fileWrite": "file_write",
    "fileDelete": "file_delete",
    "network": "network",
    "exec": "exec",
}


class JsPermissions(Section):
    """The ceiling: a tool gets a permission it declares only when this allows it."""

    file_read: bool = True
    file_write: bool = True
    file_delete: bool = False
    network: bool = False
    exec: bool = False
    http_timeout: Annotated[float, Param(gt=0)] = 30
    exec_timeout: Annotated[float, Param(gt=0)] = 30
    allowed_domains: list[str] = field(default_factory=list)


class JsSettings(Section):
    enabled: bool = True
    tools_dir: str = "tools"
    max_memory: Annotated[int, Param(ge=1024 * 1024)] = 10 * 1024 * 1024
    timeout: Annotated[float, Param(gt=0)] = 30
    permissions: JsPermissions = field(default_factory=JsPermissions)

    def granted(self, declared: dict[str, bool]) -> set[str]:
        """The permissions a tool declaring ``declared`` actually gets."""
        return {
            name for name, key in PERMISSIONS.items() if declared.get(name) and getattr(self.permissions, key)
        }
