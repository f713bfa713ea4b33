"""OS, CPU, memory, disks and the busiest processes, through psutil."""

from __future__ import annotations

import os
import platform
import socket
import sys
import time
from typing import Any

from agenthost_system.settings import SystemSettings

SAMPLE_S = 0.25
MAX_DISKS = 12
PSEUDO_FS = {
    "tmpfs", "devtmpfs", "squashfs", "overlay", "proc", "sysfs", "devfs", "autofs",
    "cgroup", "cgroup2", "nsfs", "tracefs", "debugfs", "securityfs", "fusectl", "ramfs",
}  # fmt: skip


def collect(settings: SystemSettings) -> dict[str, Any]:
    import psutil

    procs = list(psutil.process_iter(["pid", "name", "username", "memory_info"]))
    for proc in procs:  # the first cpu_percent() call only starts the measurement
        try:
            proc.cpu_percent(None)
        except psutil.Error:
            pass
    psutil.cpu_percent(None)
    time.sleep(SAMPLE_S)
    cpu_total = psutil.cpu_percent(None)
    busiest = []
    for proc in procs:
        try:
            cpu = proc.cpu_percent(None)
            info = proc.info
        except psutil.Error:
            continue
        rss = info["memory_info"].rss if info.get("memory_info") else 0
        busiest.append(
            {
                "pid": info["pid"],
                "name": info.get("name") or "",
                "user": info.get("username") or "",
                "cpu_percent": round(cpu, 1),
                "memory_mb": round(rss / 2**20, 1),
            }
        )
    busiest.sort(key=lambda p: (p["cpu_percent"], p["memory_mb"]), reverse=True)

    vm = psutil.virtual_memory()
    swap = psutil.swap_memory()
    freq = _safe(psutil.cpu_freq)
    boot = psutil.boot_time()
    return {
        "os": {
            "system": platform.system(),
            "release": platform.release(),
            "version": platform.version(),
            "machine": platform.machine(),
            "hostname": socket.gethostname(),
            "python": sys.version.split()[0],
            "boot_time": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(boot)),
            "uptime_s": int(time.time() - boot),
        },
        "cpu": {
            "logical": psutil.cpu_count(logical=True),
            "physical": psutil.cpu_count(logical=False),
            "percent": cpu_total,
            "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
            "frequency_mhz": round(freq.current) if freq else None,
        },
        "memory": {
            "total_mb": round(vm.total / 2**20),
            "available_mb": round(vm.available / 2**20),
            "used_percent": vm.percent,
            "swap_total_mb": round(swap.total / 2**20),
            "swap_used_percent": swap.percent,
        },
        "disks": _disks(psutil),
        "processes": {"count": len(procs), "busiest": busiest[: settings.top_processes]},
    }


def _disks(psutil: Any) -> list[dict[str, Any]]:
    disks = []
    seen: set[Any] = set()
    for part in psutil.disk_partitions(all=False):
        if part.fstype in PSEUDO_FS or part.device in seen:
            continue
        usage = _safe(psutil.disk_usage, part.mountpoint)
        if usage is None:
            continue
        seen.add(part.device)
        disks.append(
            {
                "mountpoint": part.mountpoint,
                "device": part.device,
                "fstype": part.fstype,
                "total_gb": round(usage.total / 2**30, 1),
                "free_gb": round(usage.free / 2**30, 1),
                "used_percent": usage.percent,
            }
        )
        if len(disks) >= MAX_DISKS:
            break
    return disks


def summary(info: dict[str, Any]) -> str:
    os_, cpu, mem = info["os"], info["cpu"], info["memory"]
    lines = [
        f"{os_['system']} {os_['release']} ({os_['machine']}) on {os_['hostname']}, up {_duration(os_['uptime_s'])}",
        f"CPU: {cpu['logical']} logical cores, {cpu['percent']}% busy"
        + (f", load {' '.join(map(str, cpu['load_average']))}" if cpu["load_average"] else ""),
        f"Memory: {mem['available_mb']:,} MB free of {mem['total_mb']:,} MB ({mem['used_percent']}% used)",
    ]
    for d in info["disks"]:
        lines.append(
            f"Disk {d['mountpoint']}: {d['free_gb']} GB free of {d['total_gb']} GB ({d['used_percent']}% used)"
        )
    lines.append(f"Busiest of {info['processes']['count']} processes:")
    for p in info["processes"]["busiest"]:
        lines.append(f"  {p['pid']:>7} {p['cpu_percent']:>5}% cpu {p['memory_mb']:>8} MB  {p['name']}")
    return "\n".join(lines)


def _duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    return f"{days}d {hours}h {rest // 60}m" if days else f"{hours}h {rest // 60}m"


def _safe(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:  # psutil raises many kinds on odd mounts and containers
        return None
