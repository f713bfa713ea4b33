"""A small Tk program for the system tests, run on the tests' Xvfb.

``pattern COLOR...``: the screen filled with colour blocks, one per colour, in
a row-major grid of 2 columns. ``controls``: a button, an entry and a canvas
that print each event they get on stdout, one line each.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tkinter as tk

WIDTH, HEIGHT = 640, 480
BUTTON = (40, 40, 160, 60)  # x, y, width, height in screen pixels
ENTRY = (40, 140, 300, 30)
CANVAS = (360, 40, 240, 240)


def say(*parts: object) -> None:
    print(*parts, flush=True)


def pattern(root: tk.Tk, colors: list[str]) -> None:
    import tkinter as tk

    canvas = tk.Canvas(root, width=WIDTH, height=HEIGHT, highlightthickness=0, bd=0, bg="#000000")
    canvas.place(x=0, y=0)
    rows = (len(colors) + 1) // 2
    w, h = WIDTH // 2, HEIGHT // rows
    for i, color in enumerate(colors):
        x, y = (i % 2) * w, (i // 2) * h
        canvas.create_rectangle(x, y, x + w, y + h, fill=color, outline=color, width=0)


def controls(root: tk.Tk) -> None:
    import tkinter as tk

    button = tk.Button(root, text="Press me", command=lambda: say("button-click"))
    button.place(x=BUTTON[0], y=BUTTON[1], width=BUTTON[2], height=BUTTON[3])
    entry = tk.Entry(root)
    entry.place(x=ENTRY[0], y=ENTRY[1], width=ENTRY[2], height=ENTRY[3])
    entry.bind("<Return>", lambda e: say("entry:" + entry.get()))
    canvas = tk.Canvas(root, bg="#808080", highlightthickness=0, bd=0)
    canvas.place(x=CANVAS[0], y=CANVAS[1], width=CANVAS[2], height=CANVAS[3])
    canvas.bind("<ButtonPress-1>", lambda e: say("press", e.x_root, e.y_root))
    canvas.bind("<ButtonRelease-1>", lambda e: say("release", e.x_root, e.y_root))
    canvas.bind("<B1-Motion>", lambda e: say("motion", e.x_root, e.y_root))
    canvas.bind("<Double-Button-1>", lambda e: say("double", e.x_root, e.y_root))
    canvas.bind("<ButtonPress-3>", lambda e: say("right", e.x_root, e.y_root))
    canvas.bind("<ButtonPress-4>", lambda e: say("wheel up"))
    canvas.bind("<ButtonPress-5>", lambda e: say("wheel down"))


def main() -> None:
    import tkinter as tk  # here, so the tests can import the layout without Tk

    root = tk.Tk()
    root.overrideredirect(True)  # no window manager on Xvfb: place it exactly
    root.geometry(f"{WIDTH}x{HEIGHT}+0+0")
    root.configure(bg="#ffffff")
    if sys.argv[1] == "pattern":
        pattern(root, sys.argv[2:])
    else:
        controls(root)
    root.update()
    root.after(300, lambda: say("ready"))
    root.mainloop()


if __name__ == "__main__":
    main()
