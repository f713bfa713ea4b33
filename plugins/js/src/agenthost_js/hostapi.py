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

from agenthost_js.hostapi_bridge import NEEDS, OPS, HostLink
from agenthost_js.hostapi_fs import FsApi
from agenthost_js.hostapi_http import HttpApi
from agenthost_js.hostapi_shell import ShellApi
from agenthost_js.hostapi_utils import UtilsApi, render_table

__all__ = ["NEEDS", "OPS", "HostLink", "ScriptHost", "render_table"]


class ScriptHost(FsApi, HttpApi, ShellApi, UtilsApi):
    """The bridge for one run of one tool."""
