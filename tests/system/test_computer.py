"""computer drives a real Tk window on Xvfb through xdotool; the window
reports every event it gets, so each action is seen arriving."""

from __future__ import annotations

import pytest

from agenthost_system import environment

from .desktop_app import BUTTON, CANVAS, ENTRY


def centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    x, y, w, h = box
    return x + w // 2, y + h // 2


def half(point: tuple[int, int]) -> list[int]:
    """Screen pixels to the pixels of a screenshot scaled by 0.5."""
    return [point[0] // 2, point[1] // 2]


@pytest.fixture
def controls(desktop_app, xdotool):
    return desktop_app("controls")


@pytest.fixture
async def scaled_host(make_host, xvfb):
    """A host whose screenshots of the 640x480 screen are shown at 320x240."""
    return await make_host(
        plugins=["system"], config={"plugins": {"system": {"display": xvfb, "max_width": 320}}}
    )


async def test_a_click_in_screenshot_space_presses_the_button(scaled_host, controls):
    async with scaled_host.session() as s:
        shot = await s.call("computer", {"action": "screenshot"})
        assert shot.ok, shot.text
        assert "scale 0.5" in shot.text
        # somewhere else first: the button must not hear it
        miss = await s.call(
            "computer", {"action": "left_click", "coordinate": half((BUTTON[0] - 20, BUTTON[1]))}
        )
        assert miss.ok, miss.text
        hit = await s.call("computer", {"action": "left_click", "coordinate": half(centre(BUTTON))})
        assert hit.ok, hit.text
    assert controls.wait_for("button") == "button-click"
    assert controls.drain().count("button-click") == 0


async def test_typing_and_keys_reach_the_focused_entry(scaled_host, controls):
    async with scaled_host.session() as s:
        await s.call("computer", {"action": "screenshot"})
        click = await s.call("computer", {"action": "left_click", "coordinate": half(centre(ENTRY))})
        assert click.ok, click.text
        typed = await s.call("computer", {"action": "type", "text": "Hello, agenthost 42!xy"})
        assert typed.ok, typed.text
        keys = await s.call("computer", {"action": "key", "text": "BackSpace backspace"})
        assert keys.ok, keys.text
        enter = await s.call("computer", {"action": "key", "text": "enter"})  # an alias of Return
        assert enter.ok and "Return" in enter.text
    assert controls.wait_for("entry:") == "entry:Hello, agenthost 42!"


async def test_drag_presses_moves_and_releases_where_asked(scaled_host, controls):
    start = (CANVAS[0] + 20, CANVAS[1] + 20)
    end = (CANVAS[0] + 200, CANVAS[1] + 160)
    async with scaled_host.session() as s:
        await s.call("computer", {"action": "screenshot"})
        result = await s.call(
            "computer", {"action": "drag", "start_coordinate": half(start), "coordinate": half(end)}
        )
        assert result.ok, result.text
    assert controls.wait_for("press") == f"press {start[0]} {start[1]}"
    assert controls.wait_for("motion") != "<nothing>"
    assert controls.wait_for("release") == f"release {end[0]} {end[1]}"


async def test_double_right_click_and_scroll(scaled_host, controls):
    spot = (CANVAS[0] + 100, CANVAS[1] + 100)
    async with scaled_host.session() as s:
        await s.call("computer", {"action": "screenshot"})
        assert (await s.call("computer", {"action": "double_click", "coordinate": half(spot)})).ok
        assert controls.wait_for("double") == f"double {spot[0]} {spot[1]}"
        assert (await s.call("computer", {"action": "right_click", "coordinate": half(spot)})).ok
        assert controls.wait_for("right") == f"right {spot[0]} {spot[1]}"
        controls.drain()
        scroll = {
            "action": "scroll",
            "coordinate": half(spot),
            "scroll_direction": "down",
            "scroll_amount": 2,
        }
        assert (await s.call("computer", scroll)).ok
        assert controls.wait_for("wheel") == "wheel down"
        assert controls.wait_for("wheel") == "wheel down"
        up = await s.call("computer", {"action": "scroll", "scroll_direction": "up", "scroll_amount": 1})
        assert up.ok  # at the cursor, still over the canvas
        assert controls.wait_for("wheel") == "wheel up"


async def test_a_region_screenshot_moves_the_origin_of_coordinates(make_host, xvfb, controls):
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": xvfb}}})
    async with host.session() as s:
        region = {"x": CANVAS[0], "y": CANVAS[1], "width": CANVAS[2], "height": CANVAS[3]}
        assert (await s.call("screenshot", {"region": region, "path": "canvas.png"})).ok
        assert (await s.call("computer", {"action": "left_click", "coordinate": [10, 30]})).ok
        assert controls.wait_for("press") == f"press {CANVAS[0] + 10} {CANVAS[1] + 30}"
        outside = await s.call("computer", {"action": "left_click", "coordinate": [CANVAS[2], 5]})
        assert not outside.ok and outside.error.type == "invalid_arguments"
        assert f"outside the last screenshot ({CANVAS[2]}x{CANVAS[3]})" in outside.text


async def test_cursor_position_is_reported_in_screenshot_space(scaled_host, xvfb, xdotool):
    async with scaled_host.session() as s:
        # no screenshot yet: the space is the one a whole-screen screenshot would have
        moved = await s.call("computer", {"action": "mouse_move", "coordinate": [100, 60]})
        assert moved.ok, moved.text
        where = await s.call("computer", {"action": "cursor_position"})
        assert where.ok, where.text
        assert where.data == {"x": 100, "y": 60, "inside_screenshot": True}
    async with scaled_host.session() as other:  # sessions keep their own frame
        region = {"x": 150, "y": 100, "width": 100, "height": 100}
        assert (await other.call("screenshot", {"region": region, "path": "r.png"})).ok
        where = await other.call("computer", {"action": "cursor_position"})
        assert where.data == {"x": 50, "y": 20, "inside_screenshot": True}


async def test_missing_arguments_are_invalid(scaled_host, xvfb, xdotool):
    cases = [
        ({"action": "mouse_move"}, "coordinate"),
        ({"action": "drag", "coordinate": [1, 1]}, "start_coordinate"),
        ({"action": "type"}, "text"),
        ({"action": "key", "text": "  "}, "text"),
        ({"action": "scroll"}, "scroll_direction"),
    ]
    for args, named in cases:
        result = await scaled_host.call("computer", args)
        assert not result.ok and result.error.type == "invalid_arguments", (args, result.text)
        assert named in result.text
    bad = await scaled_host.call("computer", {"action": "left_click", "coordinate": [1, 2, 3]})
    assert not bad.ok and bad.error.type == "invalid_arguments"


async def test_without_a_display_computer_names_the_cause(make_host, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    host = await make_host(plugins=["system"])
    result = await host.call("computer", {"action": "left_click", "coordinate": [1, 1]})
    assert not result.ok and result.error.type == "unavailable"
    assert "neither DISPLAY nor WAYLAND_DISPLAY is set" in result.text


async def test_a_dead_display_is_reported_by_xdotool_actions(make_host, monkeypatch, xdotool):
    monkeypatch.delenv("DISPLAY", raising=False)
    host = await make_host(plugins=["system"], config={"plugins": {"system": {"display": ":4712"}}})
    result = await host.call("computer", {"action": "key", "text": "Return"})
    assert not result.ok and result.error.type == "unavailable"
    assert "cannot open the display :4712" in result.text


async def test_missing_xdotool_says_how_to_install_it(make_host, xvfb):
    config = {"plugins": {"system": {"display": xvfb, "xdotool": "no-such-xdotool-here"}}}
    host = await make_host(plugins=["system"], config=config)
    result = await host.call("computer", {"action": "key", "text": "Return"})
    assert not result.ok and result.error.type == "unavailable"
    assert "apt-get install xdotool" in result.text
    problems = next(p for p in host.plugin_infos if p.name == "system").problems
    assert any("xdotool" in p for p in problems)


async def test_other_platforms_are_told_computer_needs_x11(make_host, monkeypatch):
    monkeypatch.setattr(environment, "PLATFORM", "darwin")
    host = await make_host(plugins=["system"])
    result = await host.call("computer", {"action": "cursor_position"})
    assert not result.ok and result.error.type == "unavailable"
    assert "X11" in result.text and "macOS" in result.text


def test_key_names_models_write_become_x_keysyms():
    from agenthost_system.desktop import keysyms

    assert keysyms("ctrl+s") == ["ctrl+s"]
    assert keysyms("Enter esc cmd+shift+t F5 f12 alt+Tab") == [
        "Return",
        "Escape",
        "super+shift+t",
        "F5",
        "F12",
        "alt+Tab",
    ]
    assert keysyms("Page_Down a A") == ["Page_Down", "a", "A"]
