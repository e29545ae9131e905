"""Input methods from the shell: ``ime``, and ADBKeyboard's broadcasts for ``am broadcast``.

The phone's input methods: its keyboard (Gboard's ``LatinIME``), and ADBKeyboard when the
phone has it (``VirtualPhone(adb_keyboard=True)``). Which are enabled and which is selected
live where Android keeps them, in the secure settings ``enabled_input_methods`` (ids joined
by ``:``) and ``default_input_method`` (unset: the keyboard's defaults), so that
``settings get secure default_input_method`` tells as on a phone.

``ime list [-a] [-s]|enable|disable|set|reset|help`` answers as AOSP's
``ImeShellCommandController`` does (``Input method ID: now enabled for user #0``, ``Unknown
input method ID cannot be selected for user #0`` and exit status 255...).

ADBKeyboard (https://github.com/senzhk/ADBKeyBoard, ``AdbIME.java``) registers its broadcast
receiver while it is the selected input method, and commits what it receives to the focused
field: ``ADB_INPUT_TEXT`` (``--es msg TEXT``), ``ADB_INPUT_B64`` (``--es msg BASE64`` of UTF-8)
and ``ADB_INPUT_CHARS`` (``--eia chars CODE,...``) type, as the device's ``type`` action (the
device's complaint, such as no focused field, goes to ``last_input_error`` as for ``input``).
Otherwise nobody receives them: ``Broadcast completed: result=0`` and nothing typed, as
Android does.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...actions import PhoneAction
from ...world.device import IME_PACKAGE
from ..sh import IO
from .base import strip_user
from .screen import MAX_TEXT

if TYPE_CHECKING:
    from ..phone import VirtualPhone

#: The phone's own keyboard (Gboard's input method id).
KEYBOARD = f"{IME_PACKAGE}/com.android.inputmethod.latin.LatinIME"
#: ADBKeyboard's input method id.
ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
ENABLED_KEY, SELECTED_KEY = "enabled_input_methods", "default_input_method"
USER = 0
HELP = """ime <command>:
  list [-a] [-s]
    prints all enabled input methods.
      -a: see all input methods
      -s: only a single summary line of each
  enable [--user <USER_ID>] <ID>
    allows the given input method ID to be used.
      --user <USER_ID>: Specify which user to enable. Assumes the current user if not specified.
  disable [--user <USER_ID>] <ID>
    disallows the given input method ID to be used.
      --user <USER_ID>: Specify which user to disable. Assumes the current user if not specified.
  set [--user <USER_ID>] <ID>
    switches to the given input method ID.
      --user <USER_ID>: Specify which user to enable. Assumes the current user if not specified.
  reset [--user <USER_ID>]
    reset currently selected/enabled IMEs to the default ones as if the device is initially \
booted with the current locale.
      --user <USER_ID>: Specify which user to reset. Assumes the current user if not specified."""


def installed(phone: VirtualPhone) -> list[str]:
    """The input methods the phone has."""
    return [KEYBOARD, *([ADB_KEYBOARD] if getattr(phone, "adb_keyboard", False) else [])]


def enabled(phone: VirtualPhone) -> list[str]:
    """The enabled input methods (those installed), the keyboard alone by default."""
    value = phone.device.system.get_setting("secure", ENABLED_KEY)
    ids = [part.split(";")[0] for part in value.split(":")] if value else [KEYBOARD]
    have = installed(phone)
    return [ime for ime in dict.fromkeys(ids) if ime in have]


def selected(phone: VirtualPhone) -> str:
    """The selected input method: the setting if it names an enabled one, else the keyboard."""
    value = phone.device.system.get_setting("secure", SELECTED_KEY)
    return value if value in enabled(phone) else KEYBOARD


def _put(phone: VirtualPhone, key: str, value: str) -> None:
    phone.device.system.put_setting("secure", key, value)


def cmd_ime(phone: VirtualPhone, args: Sequence[str], io: IO) -> int:
    """``ime list|enable|disable|set|reset|help``."""
    args = strip_user(args)
    sub, rest = (args[0], args[1:]) if args else ("help", [])
    if sub in ("help", "-h"):
        io.print(HELP)
        return 0
    if sub == "list":
        every = "-a" in rest
        for ime in installed(phone) if every else enabled(phone):
            io.print(ime if "-s" in rest else f"{ime}:\n  mId={ime} mSettingsActivityName=null\n"
                     f"  packageName={ime.split('/')[0]}")
        return 0
    if sub in ("enable", "disable", "set"):
        if not rest:
            return io.fail("Error: Argument expected after \"" + sub + "\"", 255)
        return _change(phone, sub, rest[0], io)
    if sub == "reset":
        _put(phone, ENABLED_KEY, KEYBOARD)
        _put(phone, SELECTED_KEY, KEYBOARD)
        io.print(f"Reset current and enabled IMEs for user #{USER}\n  Selected: {KEYBOARD}\n"
                 f"   Enabled: {KEYBOARD}")
        return 0
    io.print(f"Unknown command: {sub}")
    return 255


def _change(phone: VirtualPhone, verb: str, ime: str, io: IO) -> int:
    """``ime enable|disable|set ID``."""
    on = enabled(phone)
    if verb == "set":
        if ime not in on:
            return io.fail(f"Unknown input method {ime} cannot be selected for user #{USER}", 255)
        _put(phone, SELECTED_KEY, ime)
        io.print(f"Input method {ime} selected for user #{USER}")
        return 0
    if verb == "enable" and ime not in installed(phone):
        return io.fail(f"Unknown input method {ime} cannot be enabled for user #{USER}", 255)
    was = ime in on
    if verb == "enable" and not was:
        _put(phone, ENABLED_KEY, ":".join([*on, ime]))
    elif verb == "disable" and was:
        left = [m for m in on if m != ime] or [KEYBOARD]
        _put(phone, ENABLED_KEY, ":".join(left))
        if phone.device.system.get_setting("secure", SELECTED_KEY) == ime:
            _put(phone, SELECTED_KEY, left[0])  # Android switches to another enabled one
    state = "already " if was == (verb == "enable") else "now "
    io.print(f"Input method {ime}: {state}{verb}d for user #{USER}")
    return 0


def adb_keyboard_text(action: str | None, extras: dict[str, Any]) -> str | None:
    """The text an ADBKeyboard broadcast types, or None (not one that types)."""
    if action == "ADB_INPUT_TEXT":
        msg = extras.get("msg")
        return msg if isinstance(msg, str) else None
    if action == "ADB_INPUT_B64":
        try:
            return base64.b64decode(str(extras.get("msg", ""))).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return "NOT SUPPORTED"  # what AdbIME commits when the bytes are not UTF-8
    if action == "ADB_INPUT_CHARS":
        chars = extras.get("chars")
        if isinstance(chars, list):
            return "".join(chr(c) for c in chars if isinstance(c, int) and 0 <= c <= 0x10FFFF)
    return None


def deliver(phone: VirtualPhone, action: str | None, extras: dict[str, Any]) -> bool:
    """Hand an ``am broadcast`` to ADBKeyboard's receiver if it is registered (the phone has
    ADBKeyboard, selected); True when it typed."""
    if selected(phone) != ADB_KEYBOARD:
        return False
    text = adb_keyboard_text(action, extras)
    if text is None:
        return False
    error = None
    for start in range(0, len(text), MAX_TEXT):
        error = phone.device.step(PhoneAction("type", text=text[start:start + MAX_TEXT]))
        if error is not None:
            break
    phone.last_input_error = error
    return True
