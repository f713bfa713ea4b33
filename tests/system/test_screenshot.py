"""screenshot on a real X server: a known pattern drawn by a Tk program is
captured and checked pixel by pixel."""

from __future__ import annotations

import base64
import io
import random

import pytest
from PIL import Image

from agenthost.results import ImageBlock

from .conftest import SCREEN


def random_colors(n: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    colors: list[tuple[int, int, int]] = []
    while len(colors) < n:
        c = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        if all(sum(abs(a - b) for a, b in zip(c, d, strict=True)) > 120 for d in colors):
            colors.append(c)
    return colors


def hex_color(c: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def image_of(result) -> Image.Image:
    blocks = [b for b in result.content if isinstance(b, ImageBlock)]
    assert len(blocks) == 1 and blocks[0].mime_type == "image/png"
    return Image.open(io.BytesIO(base64.b64decode(blocks[0].data))).convert("RGB")


def block_boxes(width: int, height: int, count: int) -> list[tuple[int, int, int, int]]:
    """The grid the Tk program draws: two columns, row-major."""
    rows = (count + 1) // 2
    w, h = width // 2, height // rows
    return [((i % 2) * w, (i // 2) * h, (i % 2) * w + w, (i // 2) * h + h) for i in range(count)]


@pytest.fixture
def pattern(desktop_app, request):
    colors = random_colors(6, request.node.name.__hash__())
    desktop_app("pattern", *map(hex_color, colors))
    return colors


async def test_whole_screen_matches_the_drawn_pattern_pixel_for_pixel(make_host, workspace, xvfb, pattern):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": xvfb}}})
    result = await host.call("screenshot", {"path": "shots/full.png"})
    assert result.ok, result.text
    assert "scale 1" in result.text and "shots/full.png" in result.text

    saved = Image.open(workspace / "shots" / "full.png").convert("RGB")
    assert saved.size == SCREEN
    expected = Image.new("RGB", SCREEN)
    for color, box in zip(pattern, block_boxes(*SCREEN, len(pattern)), strict=True):
        expected.paste(color, box)
    diff = [
        (x, y)
        for y in range(0, SCREEN[1])
        for x in range(0, SCREEN[0])
        if saved.getpixel((x, y)) != expected.getpixel((x, y))
    ]
    assert diff == [], f"{len(diff)} pixels differ, first at {diff[:5]}"
    # the image returned is the same picture (no scaling below the maximum)
    assert image_of(result).tobytes() == saved.tobytes()


async def test_large_screens_are_scaled_down_and_the_scale_is_stated(make_host, workspace, xvfb, pattern):
    config = {"plugins": {"system": {"display": xvfb, "max_width": 320, "max_height": 800}}}
    host = await make_host(plugins=["system"], config=config)
    result = await host.call("screenshot", {})
    assert result.ok, result.text
    assert "scale 0.5" in result.text and "320x240" in result.text

    shown = image_of(result)
    assert shown.size == (320, 240)
    for color, (x0, y0, x1, y1) in zip(pattern, block_boxes(320, 240, len(pattern)), strict=True):
        centre = ((x0 + x1) // 2, (y0 + y1) // 2)
        assert shown.getpixel(centre) == color
    # the file keeps the full resolution, under the default folder
    saved = sorted((workspace / "screenshots").glob("screenshot-*.png"))
    assert len(saved) == 1 and Image.open(saved[0]).size == SCREEN


async def test_a_region_is_cut_from_the_screen_in_screen_pixels(make_host, workspace, xvfb, pattern):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": xvfb}}})
    # straddles the border between the first two blocks (x = 320)
    region = {"x": 300, "y": 20, "width": 40, "height": 60}
    result = await host.call("screenshot", {"region": region, "path": "r.png"})
    assert result.ok, result.text
    shown = image_of(result)
    assert shown.size == (40, 60)
    assert {shown.getpixel((x, y)) for x in range(20) for y in range(60)} == {pattern[0]}
    assert {shown.getpixel((x, y)) for x in range(20, 40) for y in range(60)} == {pattern[1]}

    too_big = await host.call("screenshot", {"region": {"x": 600, "y": 0, "width": 100, "height": 10}})
    assert not too_big.ok and too_big.error.type == "invalid_arguments"
    assert "does not fit" in too_big.text


async def test_monitors_are_chosen_by_number(make_host, xvfb, pattern):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": xvfb}}})
    one = await host.call("screenshot", {"monitor": 1, "path": "m1.png"})
    assert one.ok, one.text
    assert "monitor 1" in one.text
    assert image_of(one).getpixel((5, 5)) == pattern[0]
    missing = await host.call("screenshot", {"monitor": 7})
    assert not missing.ok and missing.error.type == "invalid_arguments"
    assert "monitor 7 does not exist" in missing.text


async def test_the_path_must_stay_in_the_workspace_and_be_a_png(make_host, xvfb, tmp_path):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": xvfb}}})
    outside = await host.call("screenshot", {"path": str(tmp_path / "elsewhere.png")})
    assert not outside.ok and outside.error.type == "outside_workspace"
    wrong = await host.call("screenshot", {"path": "shot.jpg"})
    assert not wrong.ok and wrong.error.type == "invalid_arguments"
    assert not (tmp_path / "elsewhere.png").exists()


# -- without a display ---------------------------------------------------------


@pytest.fixture
def headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


async def test_without_any_display_the_error_names_the_missing_variables(make_host, headless):
    host = await make_host(plugins=["system"])
    result = await host.call("screenshot", {})
    assert not result.ok and result.error.type == "unavailable"
    assert "no display" in result.text
    assert "DISPLAY" in result.text and "WAYLAND_DISPLAY" in result.text
    assert "\n" not in result.text


async def test_wayland_without_xwayland_is_named(make_host, headless, monkeypatch):
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    host = await make_host(plugins=["system"])
    result = await host.call("screenshot", {})
    assert not result.ok and result.error.type == "unavailable"
    assert "WAYLAND_DISPLAY=wayland-0 is set but DISPLAY is not" in result.text


async def test_a_display_nobody_serves_is_reported(make_host, headless, workspace):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": ":4711"}}})
    result = await host.call("screenshot", {})
    assert not result.ok and result.error.type == "unavailable"
    assert "cannot open the display :4711" in result.text
    assert not (workspace / "screenshots").exists() or not any((workspace / "screenshots").iterdir())
