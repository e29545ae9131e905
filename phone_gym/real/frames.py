"""What a screenshot of a real phone shows, and which display to take it from.

- A black frame is not the screen: a phone whose screen is off captures black, and so does
  a window with ``FLAG_SECURE`` (SurfaceFlinger leaves secure layers out of screenshots, as
  banking and password apps ask). ``is_black`` tells such a frame; ``black_reason`` asks the
  phone why (``dumpsys power``'s ``mWakefulness``; the focused window's ``fl=`` flags in
  ``dumpsys window windows``, ``WindowManager.LayoutParams.toString``, hold ``SECURE``).
- A foldable has two built-in displays, and ``screencap`` without ``-d`` captures the first
  SurfaceFlinger lists, which may be the screen that is off. ``choose_display`` reads
  ``dumpsys display`` (AOSP ``DisplayManagerService``: each ``DisplayDeviceInfo`` with
  ``uniqueId="local:ID"``, ID being the physical display id ``screencap -d`` takes, and the
  ``DisplayViewport`` of the default display, ``displayId=0``, with ``isActive=true``) and
  picks the default display's physical display when there are several.
"""

from __future__ import annotations

import re

import numpy as np
from PIL import Image

from .base import Backend
from .upkeep import parse_screen_state

#: A pixel whose every channel is at most this is black.
BLACK_LEVEL = 12
#: The share of black pixels that makes a frame black.
BLACK_SHARE = 0.995
REASON_COMMAND = "dumpsys power; dumpsys window windows"
DISPLAY_COMMAND = "dumpsys display"
_WINDOW = re.compile(r"^\s*Window #\d+ Window\{\S+ u\d+ ([^}]*)\}:", re.M)
_FOCUS = re.compile(r"\bmCurrentFocus=Window\{\S+ u\d+ ([^}\s]+)\}")
_FLAGS = re.compile(r"\bfl=([A-Z0-9_| ]+)")
_DEVICE = re.compile(r'DisplayDeviceInfo\{[^}]*?uniqueId="local:(\d+)"')
_VIEWPORT = re.compile(r"DisplayViewport\{type=INTERNAL, valid=true, isActive=true, "
                       r"displayId=0, uniqueId='local:(\d+)'")


def is_black(image: Image.Image | np.ndarray) -> bool:
    """Whether (almost) every pixel of ``image`` is black: every ``step``-th pixel of every
    ``step``-th row is looked at (a Pillow image is sampled so without copying it whole:
    an affine transform that picks pixel ``(x * step, y * step)``, the same pixels)."""
    if isinstance(image, Image.Image):
        width, height = image.size
        if not width or not height:
            return False
        step = max(1, min(width, height) // 200)
        shift = 0.5 - step / 2  # Pillow samples at (x + 0.5) * step + shift: x * step + 0.5
        sample = np.asarray(image.transform(
            (-(-width // step), -(-height // step)), Image.Transform.AFFINE,
            (step, 0, shift, 0, step, shift), Image.Resampling.NEAREST))
        if image.mode in ("RGBX", "RGBA"):
            sample = sample[..., :3]
    else:
        pixels = np.asarray(image)
        if pixels.size == 0:
            return False
        step = max(1, min(pixels.shape[0], pixels.shape[1]) // 200)
        sample = pixels[::step, ::step]
    dark = (sample.max(axis=-1) if sample.ndim == 3 else sample) <= BLACK_LEVEL
    return float(dark.mean()) >= BLACK_SHARE


def focused_component(output: str) -> str:
    """The focused window's ``package/activity`` in ``dumpsys window`` output, or ''."""
    found = _FOCUS.search(output)
    return found.group(1) if found else ""


def secure_window(output: str, package: str) -> bool:
    """Whether a window of ``package`` in ``dumpsys window windows`` output sets
    ``FLAG_SECURE`` (``SECURE`` among its ``fl=`` flags)."""
    heads = list(_WINDOW.finditer(output))
    for k, head in enumerate(heads):
        if not head.group(1).startswith(f"{package}/"):
            continue
        block = output[head.end():heads[k + 1].start() if k + 1 < len(heads) else len(output)]
        if any("SECURE" in re.split(r"[ |]+", m.group(1)) for m in _FLAGS.finditer(block)):
            return True
    return False


#: Why a frame is black (``black_reason``): cause -> message.
BLACK_CAUSES = {
    "screen off": "black frame: the screen is off",
    "secure": "black frame: {package} shows a FLAG_SECURE window, which screenshots leave "
              "black (its UI tree is still read)",
    "black": "black frame: the screen shows nothing but black",
}


def black_reason(backend: Backend, package: str) -> tuple[str, str]:
    """Why the phone's screenshot is black, as ``(cause, message)`` (``BLACK_CAUSES``): the
    screen is off, the window of ``package`` is secure, or neither (a black screen)."""
    output = backend.shell(REASON_COMMAND).output
    if parse_screen_state(output).awake is False:
        cause = "screen off"
    elif package and secure_window(output, package):
        cause = "secure"
    else:
        cause = "black"
    return cause, BLACK_CAUSES[cause].format(package=package)


def choose_display(output: str) -> str | None:
    """The physical display id ``screencap -d`` should take, from ``dumpsys display``
    output: the default display's, when the phone has several displays; None otherwise."""
    devices = set(_DEVICE.findall(output))
    if len(devices) < 2:
        return None
    active = _VIEWPORT.search(output)
    return active.group(1) if active is not None and active.group(1) in devices else None
