"""``[plugins.js]``: seed 004's keys."""

from __future__ import annotations

from pydantic import Field

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
    http_timeout: float = Field(default=30, gt=0)
    exec_timeout: float = Field(default=30, gt=0)
    allowed_domains: list[str] = Field(default_factory=list)


class JsSettings(Section):
    enabled: bool = True
    tools_dir: str = "tools"
    max_memory: int = Field(default=10 * 1024 * 1024, ge=1024 * 1024)
    timeout: float = Field(default=30, gt=0)
    permissions: JsPermissions = Field(default_factory=JsPermissions)

    def granted(self, declared: dict[str, bool]) -> set[str]:
        """The permissions a tool declaring ``declared`` actually gets."""
        return {
            name for name, key in PERMISSIONS.items() if declared.get(name) and getattr(self.permissions, key)
        }
