"""Input methods from the shell: ``ime``, and ADBKeyboard's broadcasts for ``am broadcast``.

The phone's input methods: its keyboard (Gboard's ``LatinIME``), and ADBKeyboard when the
phone has it (``VirtualPhone(adb_keyboard=True)``). Which are enabled and which is selected
live where Android keeps them, in the secure settings ``enabled_input_methods`` (ids joined
by ``:``, a subtype after ``;``) and ``default_input_method`` (unset: the keyboard alone), so
that ``settings get secure default_input_method`` tells as on a phone.

``ime list [-a] [-s]|enable|disable|set|reset|help`` (``Ime``) answers as AOSP's
``ImeShellCommandController`` (frameworks/base, services/core/java/com/android/server/
inputmethod/ImeShellCommandController.java) does: ``Input method ID: now enabled for user
#0``, ``Unknown input method ID cannot be selected for user #0`` on stderr with exit status
255 (``ShellCommandResult.FAILURE``, -1), ``Unknown command: X``...

ADBKeyboard (https://github.com/senzhk/ADBKeyBoard, ``AdbIME.java``) registers its broadcast
receiver while it is the input method in use, and commits what it receives to the focused
field: ``ADB_INPUT_TEXT`` (``--es msg TEXT``), ``ADB_INPUT_B64`` (``--es msg BASE64`` of
UTF-8; bytes that are not UTF-8 become U+FFFD, as Java's ``new String(bytes, "UTF-8")``
makes them) and ``ADB_INPUT_CHARS`` (``--eia chars CODE,...``) type, as the device's ``type``
action (the device's complaint, such as no focused field, goes to ``last_input_error`` as for
``input``). A broadcast its receiver cannot read (no ``msg``, bad base64, a bad code point)
types nothing: ``AdbIME`` throws there. When ADBKeyboard is not the selected input method
nobody receives them: ``Broadcast completed: result=0`` and nothing typed, as on Android.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...actions import PhoneAction
from ...world.device import IME_PACKAGE
from ..sh import IO
from .base import Commands, strip_user
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
    return [KEYBOARD, *([ADB_KEYBOARD] if phone.adb_keyboard else [])]


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


class Ime(Commands):
    """``ime``: the input methods' shell command (``/system/bin/ime`` runs ``cmd
    input_method ime``), as AOSP's ``ImeShellCommandController`` answers it."""

    def cmd_ime(self, args: list[str], io: IO) -> int:
        """``ime list|enable|disable|set|reset|help``."""
        args = strip_user(args)
        sub, rest = (args[0], args[1:]) if args else ("help", [])
        if sub in ("help", "-h"):
            io.print(HELP)
            return 0
        if sub == "list":
            return self._list(rest, io)
        if sub in ("enable", "disable", "set"):
            ids = [arg for arg in rest if not arg.startswith("-")]
            if not ids:  # ShellCommand.getNextArgRequired throws; ShellCommand.exec prints it
                return io.fail(f"Exception occurred while executing 'ime':\n"
                               f"java.lang.IllegalArgumentException: Argument expected after "
                               f"\"{sub}\"", 255)
            return self._change(sub, ids[0], io)
        if sub == "reset":
            _put(self.phone, ENABLED_KEY, KEYBOARD)
            _put(self.phone, SELECTED_KEY, KEYBOARD)
            io.print(f"Reset current and enabled IMEs for user #{USER}\n  Selected: {KEYBOARD}"
                     f"\n   Enabled: {KEYBOARD}")
            return 0
        io.print(f"Unknown command: {sub}")
        return 255

    def _list(self, options: Sequence[str], io: IO) -> int:
        """``ime list [-a] [-s]``: the enabled (``-a``: all) input methods, one id a line
        (``-s``) or each with the first lines of ``InputMethodInfo.dump``."""
        for ime in installed(self.phone) if "-a" in options else enabled(self.phone):
            if "-s" in options:
                io.print(ime)
                continue
            package, _, service = ime.partition("/")
            name = package + service if service.startswith(".") else service
            io.print(f"{ime}:\n  mId={ime} mSettingsActivityName=null mIsVrOnly=false "
                     "mSupportsSwitchingToNextInputMethod=false\n  mIsDefaultResId=0x0\n"
                     "  Service:\n    priority=0 preferredOrder=0 match=0x108000 "
                     f"specificIndex=-1 isDefault=false\n    ServiceInfo:\n      name={name}\n"
                     f"      packageName={package}")
        return 0

    def _change(self, verb: str, ime: str, io: IO) -> int:
        """``ime enable|disable|set ID``."""
        phone = self.phone
        on = enabled(phone)
        if verb == "set":
            if ime not in on:
                return io.fail(f"Unknown input method {ime} cannot be selected for user "
                               f"#{USER}", 255)
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
    """The text an ADBKeyboard broadcast types, or None (not one that types, or one that
    ``AdbIME``'s receiver fails on)."""
    if action == "ADB_INPUT_TEXT":
        msg = extras.get("msg")
        return msg if isinstance(msg, str) else None
    if action == "ADB_INPUT_B64":
        msg = extras.get("msg")
        if not isinstance(msg, str):
            return None
        try:  # android.util.Base64.decode(DEFAULT) skips characters outside the alphabet
            data = base64.b64decode(msg)
        except (binascii.Error, ValueError):
            return None
        return data.decode("utf-8", "replace")
    if action == "ADB_INPUT_CHARS":
        chars = extras.get("chars")
        if isinstance(chars, list) and all(
                isinstance(c, int) and 0 <= c <= 0x10FFFF for c in chars):
            return "".join(map(chr, chars))
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
