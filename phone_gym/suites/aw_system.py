"""AndroidWorld's system, clock and file-manager tasks and their phone-gym counterparts
(Settings, Clock, Files, the Clipper app and ``crossapp.system``). Every counterpart starts
on AndroidWorld's device date, scrambles or seeds bystanders (other settings, notifications,
alarms, files) and fails on changes the task does not ask for; AndroidWorld's screen checks
(the stopwatch's buttons, the timer's text) read the Clock's own data instead."""

from __future__ import annotations

_VERIFY = ("starts {state}, as AndroidWorld's: doing nothing (or flipping it and back) "
           "passes; the switch left the other way, or any other settings change, fails")
_BRIGHT = ("same check (screen_brightness {level}, starting at the other end); other settings "
           "scrambled and guarded; also on real phones")
_BRIGHT_V = ("same check (screen_brightness {level}, already there): doing nothing passes, "
             "any other brightness or settings change fails; also on real phones")

MAPPED: dict[str, tuple[str, str]] = {
    "SystemWifiTurnOffVerify": ("SystemWifiTurnOffVerify", _VERIFY.format(state="off")),
    "SystemWifiTurnOnVerify": ("SystemWifiTurnOnVerify", _VERIFY.format(state="on")),
    "SystemBluetoothTurnOffVerify": ("SystemBluetoothTurnOffVerify",
                                     _VERIFY.format(state="off")),
    "SystemBluetoothTurnOnVerify": ("SystemBluetoothTurnOnVerify", _VERIFY.format(state="on")),
    "SystemBrightnessMax": ("SystemBrightnessMax", _BRIGHT.format(level=255)),
    "SystemBrightnessMin": ("SystemBrightnessMin", _BRIGHT.format(level=1)),
    "SystemBrightnessMaxVerify": ("SystemBrightnessMaxVerify", _BRIGHT_V.format(level=255)),
    "SystemBrightnessMinVerify": ("SystemBrightnessMinVerify", _BRIGHT_V.format(level=1)),
    "TurnOffWifiAndTurnOnBluetooth": (
        "TurnOffWifiAndTurnOnBluetooth",
        "one criterion per part (info['progress'] 0 / 0.5 / 1, AndroidWorld's score); the "
        "reward is 1 only with both; airplane mode instead of Wi-Fi off fails; also on real "
        "phones"),
    "TurnOnWifiAndOpenApp": (
        "TurnOnWifiAndOpenApp",
        "one criterion per part (Wi-Fi on, the app's package on screen at the end); apps drawn "
        "among camera, clock, contacts, settings, dialer as installed (Clock, Contacts and "
        "Settings always; Camera and Phone when present); PhoneWorld only (the foreground "
        "package is not in a real phone's snapshot)"),
    "OpenAppTaskEval": (
        "OpenAppTaskEval",
        "same check (the app's package in the foreground), apps drawn as installed (see "
        "TurnOnWifiAndOpenApp); PhoneWorld has no permission pop-ups to clear"),
    "SystemCopyToClipboard": (
        "SystemCopyToClipboard",
        "same check (the clipboard holds the text, case, punctuation and spacing aside, "
        "never a similarity ratio); the clipboard starts with another text so doing nothing "
        "fails; own list of 36 texts; PhoneWorld only (adb cannot read the clipboard)"),
    "ClockStopWatchPausedVerify": (
        "ClockStopWatchPausedVerify",
        "reads the Clock's stored stopwatch (DeskClock keeps it in its preferences), not the "
        "screen: doing nothing passes; starting it, even pausing it again, fails"),
    "ClockStopWatchRunning": (
        "ClockStopWatchRunning",
        "reads the stored stopwatch (running), not the Pause/Lap buttons; laps or other "
        "changes fail"),
    "ClockTimerEntry": (
        "ClockTimerEntry",
        "reads the timer's stored entry (HHMMSS digits, as DeskClock's keypad) instead of the "
        "'HHh MMm SSs' text; the timer must not be started; a 0 h 0 m 0 s draw is redrawn"),
    "FilesMoveFile": (
        "FilesMoveFile",
        "same check (gone from the source, in the destination) plus the content's SHA-1 and "
        "counted changes (a copy that keeps the source, or touching the noise files, fails); "
        "files are small stand-ins with the folder's usual extensions; also on real phones"),
}
