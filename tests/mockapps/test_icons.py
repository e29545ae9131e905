"""Launcher icons say which app they open: a Material icon that echoes the real app's icon
(Clock's icon was once a "T", To-do's a letter)."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import REGISTRY
from phone_gym.mockapps.clock.manifest import MANIFEST as CLOCK
from phone_gym.world.icons import icon_glyph
from phone_gym.world.layout import Frame
from phone_gym.world.render import Renderer
from phone_gym.world.widgets import Node

BUILTIN = [p.manifest for p in REGISTRY.packages if p.builtin]
SCALE = 2  # the default 540 x 1200 observation is the 1080 x 2400 screen at half size


def looks_like_a_clock_face(icon: np.ndarray, color: tuple[int, int, int]) -> bool:
    """Whether the glyph on an app icon's disk of ``color`` (a crop of the icon's bounds) is
    a clock face: a ring around the disk's center (glyph pixels in every twelfth of the
    circle between 0.3 and 0.6 of its radius) with hands meeting at the center."""
    off = np.abs(icon.astype(int) - np.array(color)).sum(axis=2)
    ys, xs = np.nonzero(off < 40)
    cy, cx = (ys.min() + ys.max()) / 2, (xs.min() + xs.max()) / 2
    radius = (xs.max() - xs.min()) / 2
    yy, xx = np.mgrid[:icon.shape[0], :icon.shape[1]]
    r = np.hypot(yy - cy, xx - cx)
    glyph = off > 200
    ring = glyph & (r > 0.3 * radius) & (r < 0.6 * radius)
    angles = np.arctan2(yy[ring] - cy, xx[ring] - cx)
    twelfths = set(((angles + np.pi) / (2 * np.pi) * 12).astype(int) % 12)
    return len(twelfths) == 12 and bool((glyph & (r < 0.12 * radius)).any())


def launcher_icon(name: str) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The home screen's icon of app ``name`` (cropped) and its bounds on the screen."""
    env = PhoneWorldEnv(task="ClockDisableAlarm")
    obs, info = env.reset(seed=0)
    element = next(e for e in info["ui_elements"]
                   if e["content_desc"] == name and e["package"].endswith("launcher"))
    x0, y0, x1, y1 = element["bounds"]
    return obs["screenshot"][y0 // SCALE:y1 // SCALE, x0 // SCALE:x1 // SCALE], (x0, y0, x1, y1)


def test_the_clock_icon_is_a_clock_face() -> None:
    assert icon_glyph(CLOCK.icon)  # a Material icon's name, not a letter
    icon, _ = launcher_icon("Clock")
    assert looks_like_a_clock_face(icon, CLOCK.color)


@pytest.mark.parametrize("glyph, clock", [
    ("schedule", True), ("alarm", True), ("T", False), ("O", False), ("C", False),
    ("8", False), ("person", False), ("call", False), ("search", False), ("sms", False),
])
def test_the_clock_face_check_tells_a_clock_from_letters(glyph: str, clock: bool) -> None:
    """The check above, on the same icon drawn with other glyphs ("T" was the Clock's)."""
    _, bounds = launcher_icon("Clock")
    frame = Frame(package="com.google.android.apps.nexuslauncher")
    frame.add(Node("app_icon", text="Clock", glyph=glyph, color=CLOCK.color, desc="Clock"),
              bounds)
    x0, y0, x1, y1 = (v // SCALE for v in bounds)
    icon = Renderer(540, 1200).render(frame)[y0:y1, x0:x1]
    assert looks_like_a_clock_face(icon, CLOCK.color) is clock


def test_every_icon_is_a_material_icon_not_a_letter() -> None:
    for m in BUILTIN:
        assert len(m.icon) > 1 and icon_glyph(m.icon), (m.name, m.icon)


def test_no_two_apps_share_an_icon() -> None:
    icons = [(m.icon, m.color) for m in BUILTIN]
    assert len(set(icons)) == len(icons)
    glyphs = [m.icon for m in BUILTIN]
    assert len(set(glyphs)) == len(glyphs), glyphs
