"""Benchmarks of the system plugin on a 1920x1080 Xvfb screen started here.

Each figure is printed beside its baseline measured in the same run:
- screenshot: a `screenshot` call through the host (capture, full-size PNG
  saved, scaled copy to 1280x720, base64) against the bare work of mss
  grabbing the screen and Pillow encoding one PNG. Goal: ratio <= 2.5.
- computer click: a `computer left_click` call through the host against
  running `xdotool mousemove X Y click 1` directly. Goal: ratio <= 1.5.

Run: python bench/system.py [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SCREEN = "1920x1080x24"


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", SCREEN, "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read_end, 16)
        if not chunk:
            raise SystemExit("Xvfb did not start")
        number += chunk
    os.close(read_end)
    return proc, ":" + number.decode().strip()


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def baseline_grab(display: str) -> float:
    import mss
    from PIL import Image

    start = time.perf_counter()
    with mss.MSS(display=display) as screen:
        shot = screen.grab(screen.monitors[0])
    image = Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
    image.save(io.BytesIO(), format="PNG", compress_level=6)
    return time.perf_counter() - start


def baseline_click(display: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        ["xdotool", "mousemove", "640", "360", "click", "1"],
        env={**os.environ, "DISPLAY": display},
        check=True,
    )
    return time.perf_counter() - start


async def measure(display: str, rounds: int) -> dict[str, tuple[float, float]]:
    from agenthost import Host

    with tempfile.TemporaryDirectory() as workspace:
        config = {"plugins": {"system": {"display": display}}, "audit": {"enabled": False}}
        async with Host(workspace=workspace, config=config, plugins=["system"]) as host:
            session = host.session()
            async with session:
                await session.call("screenshot", {"path": "warm.png"})  # imports, first connection
                shots, grabs, clicks, raw_clicks = [], [], [], []
                for i in range(rounds):
                    grabs.append(baseline_grab(display))
                    start = time.perf_counter()
                    result = await session.call("screenshot", {"path": f"s{i % 2}.png"})
                    shots.append(time.perf_counter() - start)
                    assert result.ok, result.text
                    raw_clicks.append(baseline_click(display))
                    start = time.perf_counter()
                    result = await session.call(
                        "computer", {"action": "left_click", "coordinate": [640, 360]}
                    )
                    clicks.append(time.perf_counter() - start)
                    assert result.ok, result.text
    return {
        "screenshot": (median_ms(shots), median_ms(grabs)),
        "computer click": (median_ms(clicks), median_ms(raw_clicks)),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            print(f"{tool} not on PATH: apt-get install {'xvfb' if tool == 'Xvfb' else tool}")
            return 1
    proc, display = start_xvfb()
    try:
        figures = asyncio.run(measure(display, args.rounds))
    finally:
        proc.terminate()
        proc.wait()
    goals = {"screenshot": 2.5, "computer click": 1.5}
    print(f"system plugin, {SCREEN} Xvfb, median of {args.rounds} rounds")
    for name, (figure, baseline) in figures.items():
        ratio = figure / baseline
        verdict = "ok" if ratio <= goals[name] else "over goal"
        print(
            f"{name:15} {figure:8.1f} ms   baseline {baseline:8.1f} ms   "
            f"ratio {ratio:5.2f}   goal <= {goals[name]}   {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
