"""The touch screen from the shell: ``input`` events in; ``screencap``, ``uiautomator dump``
and ``wm`` out.

``input tap|swipe|draganddrop|text|keyevent`` become PhoneWorld actions at screen pixels, as
Android's ``input`` injects them: a swipe that hardly moves is a tap or a long press, ``%s`` in
``input text`` is a space and key codes type, press buttons or delete a character. A bad
argument fails; an action the device refuses still exits 0 (the phone keeps the complaint in
``last_input_error``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from io import BytesIO
from typing import Any

import numpy as np
from PIL import Image

from ...actions import PhoneAction
from ...world import theme as T
from ..sh import IO
from .base import Commands, split_flags

DENSITY = 420
INPUT_SOURCES = frozenset({"touchscreen", "touchpad", "mouse", "keyboard", "dpad", "gamepad",
                           "joystick", "stylus", "trackball", "touchnavigation",
                           "rotaryencoder"})
INPUT_USAGE = ("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n"
               "  text <string> | keyevent <key code>... | tap <x> <y> | "
               "swipe <x1> <y1> <x2> <y2> [duration(ms)] | draganddrop <x1> <y1> <x2> <y2>")
TOUCH_SLOP = 20  # px: a swipe shorter than this is a tap or a long press
LONG_PRESS_MS = 500
MAX_TEXT = 500  # PhoneAction's longest text
#: Key codes by name (``KEYCODE_`` prefix optional on the command line).
KEYCODES: dict[str, int] = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "STAR": 17, "POUND": 18, "DPAD_UP": 19,
    "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24,
    "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "COMMA": 55, "PERIOD": 56, "TAB": 61,
    "SPACE": 62, "ENTER": 66, "DEL": 67, "MINUS": 69, "EQUALS": 70, "AT": 77, "MENU": 82,
    "NOTIFICATION": 83, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "NUMPAD_ENTER": 160,
    "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    **{str(d): 7 + d for d in range(10)},
    **{chr(ord("A") + k): 29 + k for k in range(26)},
}
#: Key codes that type a character into the focused field.
KEY_CHARS: dict[int, str] = {
    **{7 + d: str(d) for d in range(10)}, **{29 + k: chr(ord("a") + k) for k in range(26)},
    55: ",", 56: ".", 62: " ", 69: "-", 70: "=", 77: "@", 17: "*", 18: "#",
}
#: What AOSP ``cmds/screencap/screencap.cpp`` prints to stderr before the image when the
#: phone has several displays (a foldable) and no ``-d DISPLAY_ID`` (nor ``-a``) was given.
MULTI_DISPLAY_WARNING = (
    "[Warning] Multiple displays were found, but no display id was specified! Defaulting to "
    "the first display found, however this default is not guaranteed to be consistent across "
    "captures. A display id should be specified.\n"
    "A display ID can be specified with the [-d display-id] option.\n"
    'See "dumpsys SurfaceFlinger --display-id" for valid display IDs.')
#: A foldable's built-in displays (SurfaceFlinger's physical display ids, as ``dumpsys
#: display`` names them ``local:ID``): the cover screen, listed first and off while the
#: phone is unfolded, and the inner screen, in use (``commands.dumpsys``).
FOLD_OUTER, FOLD_INNER = "4619827259835644672", "4619827551948147201"
#: What AOSP ``DumpCommand`` (``cmds/uiautomator``) prints to stderr when
#: ``UiAutomation.waitForIdle`` times out (then it returns: exit 0, no file written).
IDLE_ERROR = "ERROR: could not get idle state."
#: Key codes that press a button of the phone.
KEY_BUTTONS = {3: "home", 4: "back", 111: "back", 66: "enter", 160: "enter", 187: "recents"}


def raw_screencap(image: np.ndarray) -> bytes:
    """``screencap``'s raw image of an ``H x W x 3`` uint8 screen, as AOSP
    ``cmds/screencap/screencap.cpp`` writes it: width, height, format (1: RGBA_8888) and
    colour space (``dataSpaceToInt``: 1, COLORSPACE_SRGB, for the sRGB display) as
    little-endian 32-bit words, then the RGBA rows; adbd's ``framebuffer:`` service reads
    it so (``server``). Each pixel is the little-endian word of its 3 bytes and the next
    (read at a 3-byte stride) with the top byte set to the opaque alpha: one pass, where
    filling 3 of every 4 bytes is a slow strided copy."""
    h, w = image.shape[:2]
    n = h * w
    flat = np.ascontiguousarray(image, dtype=np.uint8).reshape(-1)
    out = np.empty(4 + n, "<u4")
    out[:4] = (w, h, 1, 1)
    if n > 1:
        words = np.ndarray((n - 1,), "<u4", buffer=flat, strides=(3,))
        np.bitwise_or(words, np.uint32(0xFF000000), out=out[4:4 + n - 1])
    if n:
        r, g, b = (int(v) for v in flat[-3:])
        out[-1] = r | g << 8 | b << 16 | 0xFF000000
    return out.tobytes()


class Screen(Commands):
    """``input``, ``screencap``, ``uiautomator`` and ``wm``."""

    # --- input -------------------------------------------------------------------------
    def cmd_input(self, args: list[str], io: IO) -> int:
        args = list(args)
        if args and args[0] in INPUT_SOURCES:
            args.pop(0)
        if len(args) >= 2 and args[0] == "-d":
            del args[:2]
        if not args:
            return io.fail(INPUT_USAGE)
        sub, rest = args[0], args[1:]
        handlers: dict[str, Callable[[list[str]], None]] = {
            "tap": self._tap, "swipe": self._swipe, "draganddrop": self._swipe,
            "text": self._text, "keyevent": self._keyevent, "press": lambda a: None,
            "roll": lambda a: None, "motionevent": lambda a: None}
        handler = handlers.get(sub)
        if handler is None:
            return io.fail(f"Error: Unknown command: {sub}\n{INPUT_USAGE}")
        try:
            handler(rest)
        except (ValueError, OverflowError) as exc:
            detail = f": {exc}" if str(exc) else ""
            return io.fail(f"Error: Invalid arguments for command: {sub}{detail}")
        return 0

    def _act(self, action: PhoneAction, **points: Any) -> None:
        self.phone.last_input_error = self.device.step(action, **points)

    def _touch(self, kind: str, px: tuple[int, int], px2: tuple[int, int] | None = None) -> None:
        """A pointer action at screen pixels (the action's own coordinates are dummies),
        unless the system takes it (``overlays``: the screen is off, a lock screen or a
        dialog covers the app)."""
        if self.phone.overlays.touch(px, px2 if kind == "drag" else None):
            return
        if kind == "drag":
            self._act(PhoneAction("drag", x=0, y=0, x2=0, y2=0), px=clamp(px), px2=clamp(px2))
        else:
            self._act(PhoneAction(kind, x=0, y=0), px=clamp(px))

    def _tap(self, args: list[str]) -> None:
        x, y = numbers(args, 2)
        self._touch("click", (x, y))

    def _swipe(self, args: list[str]) -> None:
        """A swipe: a drag, or a tap or long press when the finger hardly moves."""
        if len(args) not in (4, 5):
            raise ValueError("expected X1 Y1 X2 Y2 [DURATION(ms)]")
        x1, y1, x2, y2 = numbers(args[:4], 4)
        duration = numbers(args[4:], 1)[0] if len(args) == 5 else 300
        if math.hypot(x2 - x1, y2 - y1) <= TOUCH_SLOP:
            self._touch("long_press" if duration >= LONG_PRESS_MS else "click", (x1, y1))
        else:
            self._touch("drag", (x1, y1), (x2, y2))

    def _text(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected TEXT")
        if self.phone.overlays.key(0):  # key events: dropped while off or covered
            return
        text = input_text(args[0])
        for start in range(0, len(text), MAX_TEXT):
            self._act(PhoneAction("type", text=text[start:start + MAX_TEXT]))

    def _keyevent(self, args: list[str]) -> None:
        keys = [a for a in args if not a.startswith("--")]
        codes = [keycode(a) for a in keys]
        if not keys or None in codes:
            bad = [k for k, c in zip(keys, codes, strict=True) if c is None]
            raise ValueError(f"unknown keycode {bad[0]}" if bad else "expected KEYCODE")
        for code in codes:
            self._key(int(code or 0))

    def _key(self, code: int) -> None:
        if self.phone.overlays.key(code):
            return
        if code in KEY_BUTTONS:
            self._act(PhoneAction("press", button=KEY_BUTTONS[code]))
        elif code == 67:
            self._delete_char()
        elif code in KEY_CHARS:
            self._act(PhoneAction("type", text=KEY_CHARS[code]))

    def _delete_char(self) -> None:
        """KEYCODE_DEL: tap the soft keyboard's delete key, if a keyboard is shown."""
        for placed in reversed(self.device.frame().items):
            if placed.node.kind == "key" and placed.node.id == "key_delete":
                x0, y0, x1, y1 = placed.rect
                self._touch("click", ((x0 + x1) // 2, (y0 + y1) // 2))
                return

    # --- output ------------------------------------------------------------------------
    def cmd_screencap(self, args: list[str], io: IO) -> int:
        named = args[args.index("-d") + 1] if "-d" in args[:-1] else None
        display = "-d" in args
        args = [a for k, a in enumerate(args) if a != "-d" and (k == 0 or args[k - 1] != "-d")]
        flags, files = split_flags(args)
        if self.phone.displays > 1 and not display and "a" not in flags:
            io.error(MULTI_DISPLAY_WARNING)  # screencap.cpp: no -d, several displays
        image = self.phone.screenshot()
        if self.phone.profile_info().foldable and (named or FOLD_OUTER) != FOLD_INNER:
            # the first display SurfaceFlinger lists is the cover screen, off while unfolded
            image = np.zeros_like(image)
        path = files[0] if files else None
        if "p" in flags or (path is not None and path.endswith(".png")):
            buf = BytesIO()
            Image.fromarray(image).save(buf, format="PNG", compress_level=1)
            data = buf.getvalue()
        else:
            data = raw_screencap(image)
        if path is None:
            io.out += data
            return 0
        reason = self.fs.save(self.fs.abspath(path, io.cwd), data)
        return 0 if reason is None else io.fail(f"Error opening file: {path} ({reason})")

    def cmd_wm(self, args: list[str], io: IO) -> int:
        if args == ["dismiss-keyguard"]:  # WindowManagerShellCommand: silent, exit 0
            self.phone.overlays.power.dismiss_keyguard()
        elif args == ["size"]:
            io.print(f"Physical size: {T.SCREEN_W}x{T.SCREEN_H}")
        elif args == ["density"]:
            io.print(f"Physical density: {DENSITY}")
        else:
            return io.fail(f"Error: not supported on this phone: wm {' '.join(args)}", 255)
        return 0

    def cmd_uiautomator(self, args: list[str], io: IO) -> int:
        if not args or args[0] != "dump":
            return io.fail("Usage: uiautomator dump [--compressed] [FILE]", 1)
        files = [a for a in args[1:] if not a.startswith("--")]
        path = files[0] if files else "/sdcard/window_dump.xml"
        if self.phone.idle_errors > 0:  # DumpCommand: waitForIdle timed out; exits 0
            self.phone.idle_errors -= 1
            io.error(IDLE_ERROR)
            return 0
        xml = self.phone.ui_xml()
        if path == "/dev/tty":
            io.print(xml, end="")
        else:
            reason = self.fs.save(self.fs.abspath(path, io.cwd), xml.encode("utf-8"))
            if reason is not None:
                return io.fail(f"ERROR: could not write {path}: {reason}")
        io.print(f"UI hierchary dumped to: {path}")
        return 0


def clamp(px: tuple[int, int] | None) -> tuple[int, int] | None:
    if px is None:
        return None
    return max(0, min(T.SCREEN_W - 1, px[0])), max(0, min(T.SCREEN_H - 1, px[1]))


def numbers(args: Sequence[str], count: int) -> list[int]:
    """``count`` numeric arguments (floats are accepted and truncated, as Android does)."""
    if len(args) != count:
        raise ValueError("")
    return [int(float(a)) for a in args]


def input_text(text: str) -> str:
    """What ``input text`` types: ``%s`` becomes a space (Android's own loop)."""
    buff, escape, i = list(text), False, 0
    while i < len(buff):
        if escape:
            escape = False
            if buff[i] == "s":
                buff[i] = " "
                i -= 1
                del buff[i]
        if buff[i] == "%":
            escape = True
        i += 1
    return "".join(buff)


def keycode(arg: str) -> int | None:
    if arg.isdigit():
        return int(arg)
    name = arg.upper().removeprefix("KEYCODE_")
    return KEYCODES.get(name)
