"""system_info reads the real machine through psutil."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil
import pytest


@pytest.fixture
def busy_process():
    """A process that spins a core, so it is among the busiest."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    time.sleep(0.5)  # let it accumulate CPU time before the measurement
    yield proc
    proc.kill()
    proc.wait()


async def test_system_info_reports_the_machine(make_host, busy_process):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"top_processes": 100}}})
    assert host.tools["system_info"].level == "read"
    result = await host.call("system_info", {})
    assert result.ok, result.text
    info = result.data
    assert info["cpu"]["logical"] == psutil.cpu_count(logical=True)
    assert info["memory"]["total_mb"] == round(psutil.virtual_memory().total / 2**20)
    assert info["os"]["hostname"] and info["os"]["uptime_s"] > 0
    assert any(d["total_gb"] > 0 for d in info["disks"])
    busiest = info["processes"]["busiest"]
    assert 0 < len(busiest) <= 100
    cpus = [p["cpu_percent"] for p in busiest]
    assert cpus == sorted(cpus, reverse=True)
    mine = [p for p in busiest if p["pid"] == busy_process.pid]
    assert mine and mine[0]["cpu_percent"] > 1, busiest[:5]
    # the text a model reads names the same figures
    assert f"{info['cpu']['logical']} logical cores" in result.text
    assert f"{busy_process.pid}" in result.text


async def test_top_processes_is_configurable(make_host):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"top_processes": 3}}})
    result = await host.call("system_info", {})
    assert result.ok and len(result.data["processes"]["busiest"]) == 3
    assert result.data["processes"]["count"] >= 3
