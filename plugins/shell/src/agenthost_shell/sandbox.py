"""The bubblewrap sandbox: the file system read-only except the workspace and
a private /tmp, no network, a PID namespace that dies with its parent.

Killing still works from outside: bwrap is the process the host started (its
group leader), and every process inside the namespace is a host-visible
descendant of it; when bwrap dies, ``--die-with-parent`` and the namespace's
init take everything inside down with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

from agenthost.errors import Unavailable
from agenthost_shell.settings import ShellSettings

INSTALL = "apt-get install bubblewrap"
_probe_lock = threading.Lock()
_probes: dict[str, tuple[bool, str]] = {}


def _probe_argv(bwrap: str) -> list[str]:
    return [
        bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
        "--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session", "--", "true",
    ]  # fmt: skip


def probe(bwrap: str, *, fresh: bool = False) -> tuple[bool, str]:
    """Whether bubblewrap can start a sandbox here, and why not. Cached per
    executable (a working bwrap keeps working)."""
    path = shutil.which(bwrap)
    if path is None:
        return False, f"bubblewrap ({bwrap!r}) is not installed"
    with _probe_lock:
        if not fresh and path in _probes:
            return _probes[path]
        try:
            done = subprocess.run(
                _probe_argv(path), capture_output=True, timeout=20, stdin=subprocess.DEVNULL, check=False
            )
            if done.returncode == 0:
                verdict = (True, f"{path} starts sandboxes (mount, PID and network namespaces)")
            else:
                error = done.stderr.decode(errors="replace").strip().splitlines()
                verdict = (
                    False,
                    f"{path} cannot start a sandbox here: {error[-1] if error else done.returncode}",
                )
        except (OSError, subprocess.SubprocessError) as e:
            verdict = (False, f"{path} failed to run: {e}")
        _probes[path] = verdict
        return verdict


def require(settings: ShellSettings) -> str:
    """The bwrap path, or ``Unavailable``: a configured sandbox that cannot
    start means no command runs, never an unsandboxed one."""
    ok, detail = probe(settings.bwrap)
    if not ok:
        raise Unavailable(
            f'[plugins.shell] sandbox = "bwrap" is set but {detail}, so commands are refused '
            f'rather than run unsandboxed; install it ({INSTALL}) or set sandbox = "none"'
        )
    return shutil.which(settings.bwrap) or settings.bwrap


def wrap(
    argv: list[str],
    settings: ShellSettings,
    workspace: Path,
    cwd: Path,
    read_only: tuple[str, ...] = (),
) -> list[str]:
    """``argv`` run inside bubblewrap. ``read_only`` are paths inside the
    workspace that stay read-only (the host's config and state)."""
    bwrap = require(settings)
    ws = str(workspace)
    out = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    out += ["--bind", ws, ws]
    for extra in settings.sandbox_writable:
        real = os.path.realpath(os.path.expanduser(extra))
        if os.path.isdir(real):
            out += ["--bind", real, real]
    for path in read_only:
        if os.path.exists(path) and (path == ws or path.startswith(ws.rstrip(os.sep) + os.sep)):
            out += ["--ro-bind", path, path]
    out += ["--unshare-pid", "--die-with-parent", "--new-session"]
    if not settings.sandbox_network:
        out.append("--unshare-net")
    out += ["--chdir", str(cwd), "--", *argv]
    return out


def doctor_rows(settings: ShellSettings) -> list[dict[str, object]]:
    ok, detail = probe(settings.bwrap, fresh=True)
    configured = settings.sandbox == "bwrap"
    use = (
        'used: [plugins.shell] sandbox = "bwrap"'
        if configured
        else 'optional: set sandbox = "bwrap" to use it'
    )
    fix = ""
    if not ok:
        fix = (
            INSTALL
            if shutil.which(settings.bwrap) is None
            else (
                "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run as root"
            )
        )
    return [{"name": "shell sandbox (bubblewrap)", "ok": ok, "detail": f"{detail}; {use}", "fix": fix}]
