"""Keeping a real phone usable for an episode: its screen awake and unlocked, and on.

``make_usable`` runs before each episode and after each idle gap (``RealPhoneEnv``):

1. ``input keyevent KEYCODE_WAKEUP`` (AOSP ``KeyEvent.isWakeKey``: it wakes a sleeping phone
   and does nothing to an awake one; ``KEYCODE_POWER`` would toggle);
2. ``dumpsys power`` (``PowerManagerService``: ``mWakefulness=Awake``) and ``dumpsys window
   policy`` (``PhoneWindowManager.dump`` -> ``KeyguardServiceDelegate.dump``: ``showing=``,
   ``secure=``; ``KeyguardStateMonitor``: ``mIsShowing=``, ``mTrusted=``) say whether the
   screen is on and a lock screen shows, and whether it needs a credential;
3. a lock screen without a credential (swipe) is dismissed with ``wm dismiss-keyguard``
   (``WindowManagerShellCommand``); one that needs a PIN, pattern or password (and no
   trust agent keeps it unlocked) stops with ``PhoneLocked``: nothing over adb may type
   the owner's credential.

``KeepAwake`` keeps the screen on while episodes run: ``svc power stayon true`` (AOSP
``PowerCommand``: ``global.stay_on_while_plugged_in``, on while plugged in) and
``system.screen_off_timeout`` raised to ``KEEP_ON_MS`` (for a phone on battery, over Wi-Fi);
``restore`` puts the owner's two values back (``RealPhoneEnv.close``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Backend, DeviceError
from .state import AdbState

WAKE_COMMAND = "input keyevent KEYCODE_WAKEUP"
STATE_COMMAND = "dumpsys power; dumpsys window policy"
DISMISS_COMMAND = "wm dismiss-keyguard"
#: The screen-off timeout while episodes run (ms): half an hour.
KEEP_ON_MS = 30 * 60 * 1000
STAY_ON = ("global", "stay_on_while_plugged_in")
TIMEOUT = ("system", "screen_off_timeout")
_WAKEFULNESS = re.compile(r"\bmWakefulness=(\w+)")
_DISPLAY_POWER = re.compile(r"Display Power: state=(\w+)")


def _flag(name: str, output: str) -> bool | None:
    found = re.search(rf"(?<![A-Za-z]){name}=(true|false)\b", output)
    return None if found is None else found.group(1) == "true"


class PhoneLocked(DeviceError):
    """The phone shows a lock screen that needs its owner's credential."""


@dataclass(frozen=True)
class ScreenState:
    """What ``STATE_COMMAND`` says (None: it did not say): the screen is on, a lock screen
    shows, it needs a credential, a trust agent keeps it unlocked."""

    awake: bool | None
    keyguard: bool | None
    secure: bool | None
    trusted: bool = False


def parse_screen_state(output: str) -> ScreenState:
    """The ``ScreenState`` in ``STATE_COMMAND``'s output (see the module doc)."""
    wake = _WAKEFULNESS.search(output)
    awake: bool | None = None
    if wake is not None:
        awake = wake.group(1) == "Awake"
    elif (display := _DISPLAY_POWER.search(output)) is not None:
        awake = display.group(1) == "ON"
    keyguard = _flag("showing", output)
    if keyguard is None:
        keyguard = _flag("mIsShowing", output)
    return ScreenState(awake, keyguard, _flag("secure", output),
                       bool(_flag("mTrusted", output)))


def read_screen_state(backend: Backend) -> ScreenState:
    return parse_screen_state(backend.shell(STATE_COMMAND).output)


def make_usable(backend: Backend) -> list[str]:
    """Wake the phone and get past a lock screen without a credential (see the module doc);
    what was done. ``PhoneLocked`` when a credential is needed, ``DeviceError`` when the
    screen stays off."""
    backend.shell(WAKE_COMMAND)
    state = read_screen_state(backend)
    if state.awake is False:
        raise DeviceError(f"the screen of {backend.serial} stayed off after "
                          f"`{WAKE_COMMAND}`; turn it on and reset() again")
    if not state.keyguard:
        return []
    if state.secure and not state.trusted:
        raise PhoneLocked(
            f"{backend.serial} is locked with a PIN, pattern or password: unlock it on the "
            "phone (or set Settings > Security > Screen lock to None or Swipe on a test "
            "phone), then reset() again")
    backend.shell(DISMISS_COMMAND)
    if read_screen_state(backend).keyguard:
        raise PhoneLocked(f"the lock screen of {backend.serial} stayed after "
                          f"`{DISMISS_COMMAND}`: unlock the phone, then reset() again")
    return ["dismissed the lock screen (it needs no credential)"]


class KeepAwake:
    """The screen kept on while episodes run, the owner's settings put back after (see the
    module doc). ``saved`` holds the owner's values while applied."""

    def __init__(self) -> None:
        self.saved: dict[tuple[str, str], str | None] | None = None

    def apply(self, state: AdbState) -> None:
        """Keep the screen on (once; again only after ``restore``)."""
        if self.saved is not None:
            return
        saved = {key: state.get_setting(*key) for key in (STAY_ON, TIMEOUT)}
        self.saved = saved
        state.run_checked("svc", "power", "stayon", "true")
        current = saved[TIMEOUT]
        if current is None or not current.isdigit() or int(current) < KEEP_ON_MS:
            state.put_setting(*TIMEOUT, str(KEEP_ON_MS))

    def restore(self, state: AdbState) -> None:
        """Put the owner's values back (``settings delete`` for one that was unset)."""
        if self.saved is None:
            return
        saved, self.saved = self.saved, None
        for key, value in saved.items():
            if value is None:
                state.run_checked("settings", "delete", *key)
            elif state.get_setting(*key) != value:
                state.put_setting(*key, value)
