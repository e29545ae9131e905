"""Pixels never depend on the machine: the renderer opens only the package's fonts, and the
same seed gives byte-identical screenshots whether system fonts are hidden or not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from phone_gym.world.glyphs import FONT_DIR

ROOT = Path(__file__).resolve().parents[2]
#: Templates whose screens hold CJK, emoji, accents, icons and the launcher's: among them the
#: Bike mini-program's Chinese plates, which once drew only where a system CJK font was.
TEMPLATES = ("BikePayParking", "RideBookToSavedPlace", "MailReplyLatest", "ContactsAddContact",
             "ChatSendMessage")

#: Renders the launcher, every app's main screen and oracle runs of ``TEMPLATES`` (seed 0) in
#: a fresh process, recording every font file Pillow opens; prints the paths and a hash.
SCRIPT = r"""
import hashlib, json, sys
import numpy as np
from PIL import ImageFont

opened = []
truetype = ImageFont.truetype
def record(font=None, *args, **kwargs):
    opened.append(str(font) if not hasattr(font, "read") else "<file object>")
    return truetype(font, *args, **kwargs)
ImageFont.truetype = record
real_init = ImageFont.FreeTypeFont.__init__
def init(self, font=None, *args, **kwargs):
    opened.append(str(font) if not hasattr(font, "read") else "<file object>")
    real_init(self, font, *args, **kwargs)
ImageFont.FreeTypeFont.__init__ = init

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import APPS, TEMPLATES, Episode
from phone_gym.world import Device
from phone_gym.world.render import Renderer

digest = hashlib.sha256()
device, renderer = Device(APPS), Renderer(360, 800)
for app in [None, *APPS]:
    template = next((t for t in TEMPLATES.values() if app is None or app.name in t.apps),
                    next(iter(TEMPLATES.values())))
    Episode(template, device, np.random.default_rng(0))
    if app is not None:
        device.open_app(app.name)
    digest.update(renderer.render(device.frame()).tobytes())
steps = 0
for name in json.loads(sys.argv[1]):
    env = PhoneWorldEnv(task=name)
    obs, _ = env.reset(seed=0)
    for _ in range(60):
        digest.update(obs["screenshot"].tobytes())
        obs, _, terminated, truncated, _ = env.step(env.oracle_action())
        steps += 1
        if terminated or truncated:
            break
print(json.dumps({"opened": sorted(set(opened)), "hash": digest.hexdigest(), "steps": steps}))
"""


def _render(hidden: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PHONE_GYM_NO_SYSTEM_FONTS", "PHONE_GYM_CJK_FONT")}
    if hidden:
        env["PHONE_GYM_NO_SYSTEM_FONTS"] = "1"
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(TEMPLATES)], env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def renders() -> tuple[dict[str, object], dict[str, object]]:
    from phone_gym.mockapps import TEMPLATES as ALL

    missing = [t for t in TEMPLATES if t not in ALL]
    assert not missing, f"templates renamed: {missing}"
    return _render(hidden=True), _render(hidden=False)


def test_the_renderer_opens_only_the_packages_fonts(
        renders: tuple[dict[str, object], dict[str, object]]) -> None:
    for result in renders:
        opened = result["opened"]
        assert isinstance(opened, list) and opened  # the recorder saw the fonts open
        outside = [p for p in opened if Path(p).resolve().parent != FONT_DIR.resolve()]
        assert not outside, f"fonts opened from outside the package: {outside}"
        names = {Path(p).name for p in opened}
        assert {"Roboto-Regular.ttf", "Roboto-Medium.ttf", "MaterialIcons-Regular.ttf",
                "NotoSansCJKsc-Subset.otf"} <= names


def test_same_seed_same_pixels_with_system_fonts_hidden_or_not(
        renders: tuple[dict[str, object], dict[str, object]]) -> None:
    hidden, shown = renders
    assert isinstance(hidden["steps"], int) and hidden["steps"] > len(TEMPLATES)
    assert hidden["steps"] == shown["steps"]
    assert hidden["hash"] == shown["hash"]
