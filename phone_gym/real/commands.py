"""The phone action space as adb shell commands.

One pure function, ``to_commands``, turns a ``PhoneAction`` into the shell command lines that
carry it out on a phone of a given screen size. Every value that comes from the agent is
quoted with ``shlex.quote``: typed text reaches ``input text`` literally, whatever it holds.

Typing (``type_text``, which asks the phone how it can type): text that PhoneWorld's fonts
cannot draw is refused with PhoneWorld's own message (``world.glyphs.typing_error``), so
both envs accept the same text. Android's ``input text`` types printable ASCII only (AOSP
``InputShellCommand.sendText`` maps characters to key events of the virtual keyboard's
``KeyCharacterMap``, which has none for other characters). Other text goes through
uiautomator2's ``send_keys`` on a ``U2Backend`` (it pastes the text through the phone's
clipboard), or through ADBKeyboard's broadcast when that input method is installed and
selected (https://github.com/senzhk/ADBKeyBoard, README: ``ime enable``/``ime set
com.android.adbkeyboard/.AdbIME``; ``ADB_INPUT_B64``, base64 of UTF-8, keeps any text one
ASCII shell word); anything else is an ``ActionError`` that says what would type it.

Apps open with ``monkey --pct-syskeys 0 -p PKG -c android.intent.category.LAUNCHER 1``: by
default ``monkey`` mixes in 2% system key events, and on a phone without hardware keys
(emulators, tablets) AOSP ``MonkeySourceRandom.validateKeys`` then refuses to start ("** SYS_KEYS
has no physical keys but with factor 2.0%.", exit 251).

A double click is both taps in one shell command line (``input tap X Y; input tap X Y``: one
adb round trip, no pause between them). Since Android 12 ``input`` is a thin ``cmd input``
client (AOSP ``InputShellCommand`` in the system server), so the taps land a few ms apart;
up to Android 11 each ``input`` starts its own ``app_process`` VM (100 ms or more), which can
exceed the double-tap timeout (``ViewConfiguration.DOUBLE_TAP_TIMEOUT``, 300 ms) on a slow
phone: there a double click may read as two taps.
"""

from __future__ import annotations

import base64
import shlex
from collections.abc import Mapping

from ..actions import ActionError, PhoneAction
from ..world.glyphs import typing_error
from .backend import U2Backend
from .base import Backend

#: ``input keyevent`` codes of the action space's buttons.
KEYCODES: dict[str, str] = {
    "back": "KEYCODE_BACK",
    "home": "KEYCODE_HOME",
    "enter": "KEYCODE_ENTER",
    "recents": "KEYCODE_APP_SWITCH",
}
#: What empties the focused field before a ``type(..., clear=True)``: AndroidWorld's
#: ``clear_text`` (``android_world/env/actuation.py``): Ctrl+A (``KEYCODE_CTRL_LEFT`` 113 with
#: ``KEYCODE_A`` 29; ``input keycombination`` needs Android 13), then ``KEYCODE_DEL`` (67).
CLEAR_FIELD: tuple[str, ...] = ("input keycombination 113 29", "input keyevent 67")
#: Apps that ``close_app`` sends home and kills in the background (``am kill``) instead of
#: force-stopping: on Android ``am force-stop`` cancels every alarm the app has set
#: (AOSP ``ActivityManagerService.forceStopPackage`` broadcasts ``PACKAGE_RESTARTED``, and
#: ``AlarmManagerService`` removes the package's alarms), the phone owner's included.
KEEP_SCHEDULED: tuple[str, ...] = ("Clock",)
#: ADBKeyboard's input method id.
ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
#: Asks a phone for its enabled input methods, then the selected one (its last line).
IME_QUERY = "ime list -s; settings get secure default_input_method"
LONG_PRESS_MS = 800
DRAG_MS = 500
SCROLL_MS = 300
#: How far a scroll swipe moves, as a share of the screen's height (or width).
SCROLL_SHARE = 0.35


def to_pixels(x: int, y: int, size: tuple[int, int]) -> tuple[int, int]:
    """[0, 1000] coordinates to pixels of a ``(width, height)`` screen."""
    width, height = size
    return min(width - 1, x * width // 1000), min(height - 1, y * height // 1000)


def input_text_arg(text: str) -> str:
    """``text`` as one quoted argument of ``input text`` (spaces become ``%s``, as
    ``input text`` wants). Raises ``ActionError`` for what ``input text`` cannot type."""
    bad = sorted({c for c in text if not (" " <= c <= "~")})
    if bad:
        raise ActionError(
            f"adb `input text` types printable ASCII only; cannot type {bad[:5]!r}: "
            "RealPhoneEnv(backend='u2') types it (uiautomator2 pastes it), or install "
            f"ADBKeyboard and select it (`adb shell ime enable {ADB_KEYBOARD}`, then "
            f"`adb shell ime set {ADB_KEYBOARD}`)")
    if "%s" in text:
        raise ActionError("adb `input text` turns '%s' into a space; type it in two parts")
    return shlex.quote(text.replace(" ", "%s"))


def adb_keyboard_command(text: str) -> str:
    """ADBKeyboard's broadcast that types ``text`` (UTF-8, base64: any text, one shell word)."""
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"am broadcast -a ADB_INPUT_B64 --es msg {shlex.quote(encoded)}"


def input_text_types(text: str) -> bool:
    """Whether ``input text`` types ``text`` as it is (printable ASCII, no ``%s``)."""
    return text.isascii() and text.isprintable() and "%s" not in text


def type_commands(text: str, ime: str | None = None) -> list[str]:
    """Shell commands that type ``text`` on a phone whose selected input method is ``ime``:
    ``input text``, or ADBKeyboard's broadcast for what that cannot type. Raises
    ``ActionError`` for text PhoneWorld cannot draw or this phone cannot type."""
    error = typing_error(text)
    if error is not None:
        raise ActionError(error)
    if ime == ADB_KEYBOARD and not input_text_types(text):
        return [adb_keyboard_command(text)]
    return [f"input text {input_text_arg(text)}"]


def selected_ime(output: str) -> str | None:
    """The selected input method from ``IME_QUERY``'s output, if it is enabled."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if not lines:
        return None
    *enabled, selected = lines
    return selected if selected in enabled else None


def type_text(backend: Backend, text: str) -> list[str]:
    """Type ``text`` on ``backend``'s phone: the shell commands that type it (see
    ``type_commands``; the phone is asked for its input method only for text ``input text``
    cannot type), or none when uiautomator2 typed it (on a ``U2Backend``). Raises
    ``ActionError``, or ``DeviceError`` when the phone fails."""
    error = typing_error(text)
    if error is not None:
        raise ActionError(error)
    if input_text_types(text):
        return type_commands(text)
    if isinstance(backend, U2Backend):  # uiautomator2 pastes it through the clipboard
        backend.send_keys(text)
        return []
    return type_commands(text, selected_ime(backend.shell(IME_QUERY).output))


def scroll_swipe(x: int, y: int, direction: str, size: tuple[int, int]) -> tuple[int, ...]:
    """The swipe (x1, y1, x2, y2) that scrolls content ``direction`` (the finger moves the
    other way: scrolling down drags the content up)."""
    width, height = size
    dy = int(height * SCROLL_SHARE)
    dx = int(width * SCROLL_SHARE)
    x2, y2 = {"down": (x, y - dy), "up": (x, y + dy),
              "right": (x - dx, y), "left": (x + dx, y)}[direction]
    return x, y, max(0, min(width - 1, x2)), max(0, min(height - 1, y2))


def to_commands(action: PhoneAction, size: tuple[int, int],
                packages: Mapping[str, str]) -> list[str]:
    """Shell command lines for ``action`` on a ``size`` screen (empty for answer/finish).

    ``packages`` maps app names to Android packages. Raises ``ActionError`` for an action
    the phone cannot carry out (an unknown app, text ``input text`` cannot type: see
    ``type_text``, which asks the phone for another way).
    """
    kind = action.type
    if kind in ("click", "double_click", "long_press", "scroll", "drag"):
        x, y = to_pixels(*action.point, size)
        if kind == "click":
            return [f"input tap {x} {y}"]
        if kind == "double_click":
            return [f"input tap {x} {y}; input tap {x} {y}"]
        if kind == "long_press":
            return [f"input swipe {x} {y} {x} {y} {LONG_PRESS_MS}"]
        if kind == "scroll":
            x1, y1, x2, y2 = scroll_swipe(x, y, action.direction or "down", size)
            return [f"input swipe {x1} {y1} {x2} {y2} {SCROLL_MS}"]
        assert action.x2 is not None and action.y2 is not None
        x2, y2 = to_pixels(action.x2, action.y2, size)
        return [f"input swipe {x} {y} {x2} {y2} {DRAG_MS}"]
    if kind == "type":
        if action.x is not None or action.enter:
            raise ActionError("a type with a point or enter is a click, the typing and Enter: "
                              "split it first (phone_gym.envs.marks.typing_parts)")
        return [*(CLEAR_FIELD if action.clear else ()), *type_commands(action.text or "")]
    if kind == "press":
        return [f"input keyevent {KEYCODES[action.button or 'back']}"]
    if kind in ("open_app", "close_app"):
        package = package_of(action.app or "", packages)
        if kind == "open_app":
            return [f"monkey --pct-syskeys 0 -p {shlex.quote(package)} "
                    "-c android.intent.category.LAUNCHER 1"]
        if package in {packages.get(app) for app in KEEP_SCHEDULED}:
            return [f"input keyevent {KEYCODES['home']}", f"am kill {shlex.quote(package)}"]
        return [f"am force-stop {shlex.quote(package)}"]
    if kind == "wait":
        return [f"sleep {float(action.seconds or 0.0):g}"]
    return []


def package_of(app: str, packages: Mapping[str, str]) -> str:
    """The package of app name ``app`` (case-insensitive), or ``ActionError``."""
    for name, package in packages.items():
        if name.lower() == app.lower():
            return package
    raise ActionError(f"unknown app {app!r}; known apps: {', '.join(sorted(packages))} "
                      "(add yours with RealPhoneEnv(packages={'Name': 'com.example.app'}))")
