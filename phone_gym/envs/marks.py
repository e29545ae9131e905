"""Agents that read the screen as elements: element-index actions and set-of-marks images.

AndroidWorld's own agents act on UI element indices: T3A reads the accessibility tree as
text, M3A sees the screenshot with a numbered box on each element (set-of-marks; AndroidWorld
``android_world/agents/m3a_utils.py`` ``add_ui_element_mark``), and both answer with
``JSONAction(action_type="click", index=N)``, which ``android_world/env/actuation.py``
(``execute_adb_action``) carries out at the element's centre: ``input_text`` taps the
element first, types and presses Enter, ``scroll`` with an index scrolls within the element.

``resolve_index`` does the same against the element list of the current observation (the
list ``info["ui_elements"]`` shows; ``typing_parts`` splits a ``type`` with a point or
``enter`` into a click, the typing and Enter), and ``draw_marks`` draws the numbered boxes that
``set_of_marks=True`` adds to the screenshot of both envs.

``python -m phone_gym.envs.marks --out docs/images/set_of_marks.png`` writes the README's
set-of-marks screenshot.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..actions.action import COORD_MAX, ActionError, PhoneAction

#: Box colours, by element index modulo their number: Kelly's colours of maximum contrast
#: (K. Kelly, "Twenty-two colors of maximum contrast", 1965), without white and black.
MARK_COLORS: tuple[tuple[int, int, int], ...] = (
    (243, 195, 0), (135, 86, 146), (243, 132, 0), (161, 202, 241), (190, 0, 50),
    (194, 178, 128), (0, 136, 86), (230, 143, 172), (0, 103, 165), (249, 147, 121),
    (96, 78, 151), (246, 166, 0), (179, 68, 108), (220, 211, 0), (136, 45, 23),
    (141, 182, 0), (101, 69, 34), (226, 88, 34), (43, 61, 38),
)

Element = Any  # a ``UIElement`` or its dict (``info["ui_elements"]`` items)


def _field(element: Element, name: str) -> Any:
    return element[name] if isinstance(element, Mapping) else getattr(element, name)


def _visible(element: Element) -> bool:
    x0, y0, x1, y1 = _field(element, "bounds_norm")
    return x1 > x0 and y1 > y0


def resolve_index(action: PhoneAction, elements: Sequence[Element]) -> list[PhoneAction]:
    """The point actions that carry out ``action`` on the screen ``elements`` lists (its
    ``UIElement``s or their dicts, each with ``index``); ``[action]`` if it names no element
    and is no ``type`` with a point or ``enter`` (``typing_parts``).

    ``click``/``double_click``/``long_press``/``scroll`` with an index act at the element's
    centre (``center_norm``); ``type(text, index)`` is a click there, then ``type(text)``
    (only the typing when the element already has focus: a tap would move its cursor).
    An index no element of the list has (unknown, or stale: from an earlier screen), or an
    element with no visible area, raises ``ActionError``.
    """
    if action.index is None:
        return typing_parts(action)
    found = [e for e in elements if _field(e, "index") == action.index]
    if not found:
        known = (f"this screen has elements 0 to {len(elements) - 1}" if elements
                 else "this screen lists no elements")
        raise ActionError(f"no UI element with index {action.index}: {known}; indices refer "
                          "to the element list of the last observation (info['ui_elements'] "
                          "or the ui text), which changes when the screen does")
    element = found[0]
    if not _visible(element):
        raise ActionError(f"UI element {action.index} has no visible area on the screen")
    x, y = (int(v) for v in _field(element, "center_norm"))
    if action.type == "type":
        if _field(element, "focused"):  # a tap would only move its cursor
            return typing_parts(replace(action, index=None))
        return typing_parts(replace(action, index=None, x=x, y=y))
    if action.type == "scroll":
        return [PhoneAction("scroll", x=x, y=y, direction=action.direction)]
    return [PhoneAction(action.type, x=x, y=y)]


def typing_parts(action: PhoneAction) -> list[PhoneAction]:
    """A ``type`` with a point or ``enter`` as the actions that carry it out, as AndroidWorld's
    ``input_text`` does (``android_world/env/actuation.py``, ``execute_adb_action``): a click
    at the point, the typing (``type(text, clear=True)`` empties the field first), then
    ``press("enter")``. Any other action is ``[action]``."""
    if action.type != "type" or action.index is not None:
        return [action]
    parts = [] if action.x is None else [PhoneAction("click", x=action.x, y=action.y)]
    parts.append(PhoneAction("type", text=action.text, clear=action.clear))
    if action.enter:
        parts.append(PhoneAction("press", button="enter"))
    return parts


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    path = resources.files("phone_gym.world") / "fonts" / "DejaVuSans.ttf"
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size)


def _text_color(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill`` (its luma, ITU-R BT.601)."""
    r, g, b = fill
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def draw_marks(image: np.ndarray | Image.Image, elements: Sequence[Element]) -> Any:
    """``image`` (a screenshot: uint8 ``(H, W, 3)`` array or PIL image) with a numbered box
    on each visible element of ``elements`` (``UIElement``s or their dicts): the box outlines
    the element's bounds (``bounds_norm``, scaled to the image), the label in its top-left
    corner is its ``index``, each index has its colour (``MARK_COLORS``). Returns a new image
    of the type given; deterministic."""
    if isinstance(image, Image.Image):
        canvas = image.convert("RGB")
    elif isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3:
        canvas = Image.fromarray(np.ascontiguousarray(image, dtype=np.uint8), "RGB")
    else:
        raise ValueError(f"image: accepted: a PIL image or a uint8 (H, W, 3) array, got "
                         f"{type(image).__name__} {getattr(image, 'shape', '')}")
    width, height = canvas.size
    draw = ImageDraw.Draw(canvas)
    line = max(1, round(min(width, height) / 270))
    font = _font(max(9, round(height / 85)))
    for element in elements:
        if not _visible(element):
            continue
        index = int(_field(element, "index"))
        color = MARK_COLORS[index % len(MARK_COLORS)]
        x0, y0, x1, y1 = _field(element, "bounds_norm")
        box = (round(x0 * width / COORD_MAX), round(y0 * height / COORD_MAX),
               max(round(x1 * width / COORD_MAX) - 1, 0),
               max(round(y1 * height / COORD_MAX) - 1, 0))
        draw.rectangle(box, outline=color, width=line)
        label = str(index)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        pad = max(1, line)
        tag = (box[0], box[1], box[0] + right - left + 2 * pad, box[1] + bottom - top + 2 * pad)
        draw.rectangle(tag, fill=color)
        draw.text((tag[0] + pad - left, tag[1] + pad - top), label, font=font,
                  fill=_text_color(color))
    return canvas if isinstance(image, Image.Image) else np.asarray(canvas, dtype=np.uint8)


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the set-of-marks screenshot of one PhoneWorld screen (a task's screen after
    some oracle steps) to ``--out``."""
    import gymnasium as gym  # PhoneWorld-v0 is registered by ``import phone_gym``

    from .phone_world import PhoneWorldEnv

    parser = argparse.ArgumentParser(
        prog="python -m phone_gym.envs.marks",
        description="Write the set-of-marks screenshot of a PhoneWorld screen.")
    parser.add_argument("--out", type=Path, default=Path("docs/images/set_of_marks.png"))
    parser.add_argument("--task", default="ContactsAddContact")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=1,
                        help="oracle steps before the screenshot (default 1)")
    args = parser.parse_args(argv)
    if args.steps < 0:
        parser.error(f"--steps {args.steps}: give 0 or more oracle steps")
    env = gym.make("PhoneWorld-v0", task=args.task, set_of_marks=True)
    world = env.unwrapped
    assert isinstance(world, PhoneWorldEnv)
    try:
        obs, _ = env.reset(seed=args.seed)
        for _ in range(args.steps):
            obs, _, terminated, truncated, _ = env.step(world.oracle_action())
            if terminated or truncated:
                break
    finally:
        env.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(obs["screenshot"]).save(args.out, optimize=True)
    print(f"wrote {args.out}")
    return Path(args.out)


if __name__ == "__main__":
    main()
