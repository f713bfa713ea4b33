"""Screen capture with mss, scaled for the model, and the frame that maps the
model's image pixels back onto the screen."""

from __future__ import annotations

import base64
import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenthost.errors import InvalidArguments, Unavailable
from agenthost.files import atomic_write
from agenthost.results import ImageBlock, TextBlock
from agenthost_system import environment
from agenthost_system.settings import SystemSettings

if TYPE_CHECKING:
    from PIL import Image

    from agenthost.context import ToolContext

FRAME_STATE = "system.frame"


@dataclass(frozen=True)
class Frame:
    """A captured rectangle of the screen and the image the model was shown.

    ``left, top, width, height`` are screen pixels; the image is
    ``image_width x image_height``. Coordinates the model gives are image pixels.
    """

    left: int
    top: int
    width: int
    height: int
    image_width: int
    image_height: int

    @property
    def scale(self) -> float:
        return self.image_width / self.width

    def to_screen(self, x: int, y: int) -> tuple[int, int]:
        if not (0 <= x < self.image_width and 0 <= y < self.image_height):
            raise InvalidArguments(
                f"coordinate [{x}, {y}] is outside the last screenshot "
                f"({self.image_width}x{self.image_height}); use pixels of that image"
            )
        sx = self.left + min(self.width - 1, int(x * self.width / self.image_width))
        sy = self.top + min(self.height - 1, int(y * self.height / self.image_height))
        return sx, sy

    def from_screen(self, sx: int, sy: int) -> tuple[int, int]:
        return (
            round((sx - self.left) * self.image_width / self.width),
            round((sy - self.top) * self.image_height / self.height),
        )


class FrameHolder:
    """Per-session: the frame of the last screenshot, so ``computer`` can map back."""

    def __init__(self) -> None:
        self.frame: Frame | None = None


def fitted_size(width: int, height: int, settings: SystemSettings) -> tuple[int, int]:
    """The image size for a capture, no larger than the configured maximum."""
    scale = min(1.0, settings.max_width / width, settings.max_height / height)
    if scale >= 1.0:
        return width, height
    return max(1, round(width * scale)), max(1, round(height * scale))


def open_screen(settings: SystemSettings) -> Any:
    """An mss instance on the configured display, or ``Unavailable`` saying why not."""
    import mss

    kwargs: dict[str, Any] = {}
    if environment.uses_x11():
        kwargs["display"] = environment.x_display(settings)
    factory = getattr(mss, "MSS", None) or mss.mss
    try:
        return factory(**kwargs)
    except Exception as e:
        where = f" {kwargs['display']}" if "display" in kwargs else ""
        raise Unavailable(f"cannot open the display{where}: {_one_line(e)}") from None


def monitors(settings: SystemSettings) -> list[dict[str, int]]:
    with open_screen(settings) as screen:
        return [dict(m) for m in screen.monitors]


def full_screen_frame(settings: SystemSettings) -> Frame:
    """The frame a whole-screen screenshot would have (before any was taken)."""
    whole = monitors(settings)[0]
    iw, ih = fitted_size(whole["width"], whole["height"], settings)
    return Frame(whole["left"], whole["top"], whole["width"], whole["height"], iw, ih)


def session_frame(ctx: ToolContext, settings: SystemSettings) -> Frame:
    holder = ctx.state(FRAME_STATE, FrameHolder)
    return holder.frame or full_screen_frame(settings)


@dataclass
class Capture:
    frame: Frame
    image: Image.Image  # full resolution
    shown: Image.Image  # what the model sees
    what: str


def grab(settings: SystemSettings, monitor: int | None, region: dict[str, int] | None) -> Capture:
    from PIL import Image

    with open_screen(settings) as screen:
        mons = screen.monitors
        index = 0 if monitor is None else monitor
        if not 0 <= index < len(mons):
            raise InvalidArguments(
                f"monitor {index} does not exist: 0 is every monitor together, "
                f"1..{len(mons) - 1} one monitor each"
            )
        base = mons[index]
        what = "the whole screen" if index == 0 else f"monitor {index}"
        area = {k: base[k] for k in ("left", "top", "width", "height")}
        if region is not None:
            x, y, w, h = region["x"], region["y"], region["width"], region["height"]
            if x + w > base["width"] or y + h > base["height"]:
                raise InvalidArguments(
                    f"region {w}x{h} at {x},{y} does not fit {what} "
                    f"({base['width']}x{base['height']}); region is in screen pixels of {what}"
                )
            area = {"left": base["left"] + x, "top": base["top"] + y, "width": w, "height": h}
            what = f"a region of {what}"
        try:
            shot = screen.grab(area)
        except Exception as e:
            raise Unavailable(f"screen capture failed: {_one_line(e)}") from None
    image = Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
    iw, ih = fitted_size(image.width, image.height, settings)
    shown = image if (iw, ih) == image.size else image.resize((iw, ih), Image.Resampling.LANCZOS)
    frame = Frame(area["left"], area["top"], image.width, image.height, iw, ih)
    return Capture(frame, image, shown, what)


def png_bytes(image: Image.Image, compress_level: int = 6) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def save_png(data: bytes, target: Path) -> None:
    """Write by temp file and rename, so a reader never sees half a PNG."""
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, data)


def default_name() -> str:
    now = time.time()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return f"screenshot-{stamp}-{int(now * 1000) % 1000:03d}.png"


def take_screenshot(
    ctx: ToolContext,
    settings: SystemSettings,
    path: str | None = None,
    monitor: int | None = None,
    region: dict[str, int] | None = None,
) -> list[TextBlock | ImageBlock]:
    """Capture, save the full-resolution PNG, remember the frame, and return
    the scaled image with a line that states the scale."""
    if path is not None and not path.lower().endswith(".png"):
        raise InvalidArguments(f"path must end in .png (got {path!r})")
    target = ctx.resolve_path(path or f"{settings.screenshot_dir}/{default_name()}", write=True)
    if path is None:
        stem, n = target.stem, 1
        while target.exists():  # two captures in one millisecond
            n += 1
            target = target.with_name(f"{stem}-{n}.png")
    capture = grab(settings, monitor, region)
    # the saved file favours speed; the copy the model gets favours size
    full_png = png_bytes(capture.image, compress_level=1 if capture.shown is not capture.image else 6)
    save_png(full_png, target)
    ctx.state(FRAME_STATE, FrameHolder).frame = capture.frame
    f = capture.frame
    if capture.shown is capture.image:
        shown_png = full_png
        sizing = f"shown at full size ({f.image_width}x{f.image_height}, scale 1)"
    else:
        shown_png = png_bytes(capture.shown)
        sizing = f"shown scaled to {f.image_width}x{f.image_height} (scale {f.scale:.4g})"
    text = (
        f"Screenshot of {capture.what} ({f.width}x{f.height} at {f.left},{f.top}) saved to "
        f"{ctx.relative(target)}; {sizing}. computer coordinates are pixels of this image."
    )
    return [TextBlock(text), ImageBlock(base64.b64encode(shown_png).decode("ascii"), "image/png")]


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
