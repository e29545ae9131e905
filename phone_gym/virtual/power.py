"""The virtual phone's screen power and lock screen, as Android keeps them.

- Wakefulness (AOSP ``PowerManagerService``): awake or asleep. ``input keyevent
  KEYCODE_WAKEUP`` wakes the phone, ``KEYCODE_SLEEP`` puts it to sleep, ``KEYCODE_POWER``
  toggles; while asleep every other key and every touch is dropped, but the wake keys
  (``KeyEvent.isWakeKey``: ``WAKEUP``, ``MENU``; and ``POWER``), as
  ``PhoneWindowManager.interceptKeyBeforeQueueing`` and
  ``interceptMotionBeforeQueueingNonInteractive`` do. Each key or touch is user activity.
- The screen-off timeout (``system.screen_off_timeout``, ms of phone time since the last
  user activity) turns the screen off unless it is kept on: ``global
  .stay_on_while_plugged_in`` (``svc power stayon``, AOSP ``PowerCommand``, writes it: a mask
  of ``BatteryManager.BATTERY_PLUGGED_*``) holds the USB bit, the virtual phone being on USB
  (``dumpsys battery``: ``USB powered: true``). This timeout is a quirk, off by default
  (``sleeps``): a test that moves the phone's clock by hours would otherwise find it dark.
- The lock screen (``lock``): "none" (Settings > Screen lock > None: no keyguard), "swipe"
  (a keyguard without a credential) or "pin" (one that needs a credential). Going to sleep
  shows the keyguard where there is one (``KeyguardViewMediator.onStartedGoingToSleep``).
  On it a swipe up unlocks a swipe lock and shows the bouncer (the PIN pad) of a PIN lock;
  ``wm dismiss-keyguard`` (``WindowManagerShellCommand.runDismissKeyguard``:
  ``dismissKeyguard``) does the same; taps and keys do not reach the apps below.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .phone import VirtualPhone

#: ``svc power stayon`` words and the mask each writes (``BatteryManager.BATTERY_PLUGGED_AC``
#: 1, ``_USB`` 2, ``_WIRELESS`` 4; "true" is all of them, with ``_DOCK`` 8 from Android 13).
STAYON = {"false": 0, "ac": 1, "usb": 2, "wireless": 4}
PLUGGED_USB = 2
#: AOSP ``def_screen_off_timeout``: a minute.
DEFAULT_TIMEOUT_MS = 60_000
WAKEUP, SLEEP, POWER, MENU, BACK = 224, 223, 26, 82, 4
LOCKS = ("none", "swipe", "pin")
#: How far up a swipe must go to unlock (pixels).
UNLOCK_SWIPE = 300


class Power:
    """The wakefulness, the screen-off timeout and the keyguard of one phone (see the module
    doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.awake = True
        #: The screen-off timeout is modelled (a quirk, see the module doc).
        self.sleeps = False
        self.lock = "none"
        self.keyguard = False
        self.bouncer = False
        self.last_activity: datetime = phone.device.system.now

    def _setting(self, namespace: str, key: str) -> int | None:
        value = self.phone.settings_provider.get(namespace, key)
        return int(value) if value is not None and value.lstrip("-").isdigit() else None

    def stay_on(self) -> bool:
        """``stay_on_while_plugged_in`` holds the USB bit (the phone is on USB)."""
        return bool((self._setting("global", "stay_on_while_plugged_in") or 0) & PLUGGED_USB)

    def timeout_ms(self) -> int:
        value = self._setting("system", "screen_off_timeout")
        return DEFAULT_TIMEOUT_MS if value is None else value

    def tick(self) -> None:
        """Phone time passed: with ``sleeps``, the timeout turns the screen off."""
        if not (self.sleeps and self.awake) or self.stay_on():
            return
        idle = (self.phone.device.system.now - self.last_activity).total_seconds() * 1000
        if idle >= self.timeout_ms():
            self.go_to_sleep()

    def activity(self) -> None:
        self.last_activity = self.phone.device.system.now

    def go_to_sleep(self) -> None:
        self.awake = False
        self.bouncer = False
        if self.lock != "none":
            self.keyguard = True

    def wake_up(self) -> None:
        self.awake = True
        self.activity()

    def set_lock(self, lock: str) -> None:
        """Set the screen lock ("none", "swipe", "pin"); ``ValueError`` for another."""
        if lock not in LOCKS:
            raise ValueError(f"lock={lock!r}; accepted: {', '.join(map(repr, LOCKS))}")
        self.lock = lock
        if lock == "none":
            self.keyguard = self.bouncer = False

    def secure(self) -> bool:
        return self.lock == "pin"

    def dismiss_keyguard(self) -> None:
        """``wm dismiss-keyguard``: an insecure keyguard goes, a secure one shows its
        bouncer; nothing happens while the screen is off."""
        if not (self.awake and self.keyguard):
            return
        if self.secure():
            self.bouncer = True
        else:
            self.keyguard = self.bouncer = False

    def key(self, code: int) -> bool:
        """A key event; True when the power model took it (it goes no further)."""
        if code == WAKEUP or (code == MENU and not self.awake):
            self.wake_up()
            return True
        if code == SLEEP or (code == POWER and self.awake):
            self.go_to_sleep()
            return True
        if code == POWER:
            self.wake_up()
            return True
        if not self.awake:
            return True  # dropped: not a wake key
        self.activity()
        if self.keyguard:
            if code == BACK:
                self.bouncer = False
            return True
        return False

    def touch(self, start: tuple[int, int], end: tuple[int, int] | None = None) -> bool:
        """A touch (``end``: where a swipe ends); True when the power model took it."""
        if not self.awake:
            return True  # dropped
        self.activity()
        if not self.keyguard:
            return False
        if end is not None and start[1] - end[1] >= UNLOCK_SWIPE:
            self.dismiss_keyguard()
        return True
