"""``agenthost doctor``: which optional pieces are present, and the exact
command that adds each missing one."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from dataclasses import asdict, dataclass
from importlib.metadata import entry_points
from typing import Any

from agenthost.plugins import GROUP

# Plugins a standard install may lack, and how to add each.
KNOWN_PLUGINS = {
    "fs": "pip install agenthost-fs",
    "shell": "pip install agenthost-shell",
    "web": "pip install agenthost-web",
    "agent": "pip install agenthost-agent",
    "browser": "pip install 'agenthost[browser]'",
    "system": "pip install 'agenthost[system]'",
    "js": "pip install 'agenthost[js]'",
    "mcp": "pip install 'agenthost[mcp]'",
}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""
    fix: str = ""


def checks(host: Any) -> list[Check]:
    found: list[Check] = []
    config = host.config
    found.append(
        Check(
            "config",
            True,
            f"{config.path}" if config.path else "no agenthost.toml: defaults in use",
        )
    )
    installed = {ep.name for ep in entry_points(group=GROUP)}
    for name in sorted(set(config.data.plugins) - installed):
        found.append(
            Check(
                f"config [plugins.{name}]",
                False,
                f"{config.source} configures plugin {name!r}, which is not installed",
                KNOWN_PLUGINS.get(name, f"remove [plugins.{name}] or install the plugin"),
            )
        )
    found.append(
        Check(
            "mcp sdk (agenthost serve)",
            importlib.util.find_spec("mcp") is not None,
            "the MCP SDK serves the tools to MCP clients",
            "pip install 'agenthost-core[serve]'",
        )
    )
    for name, fix in KNOWN_PLUGINS.items():
        if name not in installed:
            found.append(Check(f"plugin {name}", False, "not installed", fix))
    for info in sorted(host.plugin_infos, key=lambda i: i.name):
        if info.status == "failed":
            found.append(
                Check(f"plugin {info.name}", False, info.error or "failed", "agenthost plugins --json")
            )
        else:
            found.append(Check(f"plugin {info.name}", True, f"{len(info.tools)} tools"))
        for problem in info.problems:
            found.append(Check(f"plugin {info.name}", False, problem, "see the plugin's [plugins] config"))
    for row in host.plugins.collect("agenthost_doctor", config=config):
        found.append(
            Check(
                str(row.get("name")), bool(row.get("ok")), str(row.get("detail", "")), str(row.get("fix", ""))
            )
        )
    return found


def run_doctor(args: argparse.Namespace) -> int:
    from agenthost.host import Host

    host = Host(workspace=args.workspace, config=args.config)
    found = checks(host)
    if getattr(args, "json", False):
        print(json.dumps([asdict(c) for c in found], indent=2))
        return 0
    width = max(len(c.name) for c in found)
    for c in found:
        mark = "ok " if c.ok else "-- "
        print(f"{mark} {c.name:<{width}}  {c.detail}")
        if not c.ok and c.fix:
            print(f"    {'':<{width}}  fix: {c.fix}")
    missing = sum(not c.ok for c in found)
    print(f"\n{len(found) - missing} present, {missing} missing or failing", file=sys.stderr)
    return 0
