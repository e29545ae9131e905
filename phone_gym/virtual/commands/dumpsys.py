"""``dumpsys``: the phone's state as Android's system services dump it.

Services: ``window`` (focused window, IME), ``activity`` (tasks; ``activity top`` with the
pid ``ps`` shows), ``package`` (``packages.py``), ``SurfaceFlinger --display-id`` (the
physical displays, which ``screencap -d`` takes: adbutils' ``screenshot(display_id=N)``), ``alarm``
(the system's own alarms and the clock app's, scheduled as AOSP DeskClock does: see
``Dumpsys.dump_alarm``), ``display``,
``power``, ``battery``, ``input_method``, ``notification`` (``notification.py``) and
``account`` (AOSP ``AccountManagerService.dump``). Only the lines that tools read are there,
in the format Android 14 prints them.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from datetime import datetime, timedelta

from ...world import theme as T
from ...world.device import IME_PACKAGE, LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE
from ...world.system import next_ring
from ..fs import epoch
from ..sh import IO
from . import notification, packages
from .base import Commands
from .processes import pid_of, running_packages
from .screen import DENSITY, FOLD_INNER, FOLD_OUTER


class Dumpsys(Commands):
    """``dumpsys [SERVICE]``."""

    def cmd_dumpsys(self, args: list[str], io: IO) -> int:
        services: dict[str, Callable[[], str]] = {
            "window": lambda: self.dump_window(args[1:]), "activity": self.dump_activities,
            "alarm": self.dump_alarm, "input_method": self.dump_input_method,
            "display": self.dump_display, "power": self.dump_power,
            "SurfaceFlinger": self.dump_surface_flinger,
            "battery": self.dump_battery, "account": self.dump_account,
            "notification": lambda: notification.dump(self.phone, args[1:]),
            "package": lambda: packages.dump(self.phone, args[1:]),
        }
        if not args:
            io.print("Currently running services:\n" + "".join(f"  {s}\n" for s in services),
                     end="")
            return 0
        if args[:2] == ["activity", "top"]:
            io.print(self.dump_top(), end="")
            return 0
        dump = services.get(args[0])
        if dump is None:
            return io.fail(f"Can't find service: {args[0]}", 0)
        io.print(dump(), end="")
        return 0

    def focus(self) -> tuple[str, str]:
        """The focused window's package and title (``PKG/PKG.MainActivity``; a lock screen's
        or a dialog's when one covers the app: ``overlays``)."""
        covered = self.phone.overlays.focus()
        if covered is not None:
            return covered
        if self.device.shade_open:
            return SYSTEMUI_PACKAGE, "NotificationShade"
        package = self.top_package()
        return package, f"{package}/{package}.MainActivity"

    def task_id(self, package: str) -> int:
        names = [a.package for a in self.device.apps.values()]
        return 10 + names.index(package) if package in names else 1

    def record(self, package: str) -> str:
        """An ``ActivityRecord{...}`` of the package's main activity."""
        return (f"ActivityRecord{{{hexid(package + 'r')} u0 {package}/.MainActivity "
                f"t{self.task_id(package)}}}")

    def top_package(self) -> str:
        app = self.device.current_app
        return app.package if app is not None else LAUNCHER_PACKAGE

    def dump_window(self, args: list[str] | None = None) -> str:
        """``dumpsys window [windows|displays|policy]``: the windows and displays (the same
        lines for each), and the policy's keyguard state (``policy`` alone, or no
        argument)."""
        if args and args[0] == "policy":
            return self.dump_policy()
        package, title = self.focus()
        window = f"Window{{{hexid(title)} u0 {title}}}"
        flags = "LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED"
        if self.phone.overlays.secure():
            flags += " SECURE"
        lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)",
                 f"  Window #0 {window}:",
                 f"    mDisplayId=0 rootTaskId={self.task_id(package)} package={package}",
                 "    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION "
                 "fmt=TRANSLUCENT", f"      fl={flags}}}",
                 f"    mFrame=[0,0][{T.SCREEN_W},{T.SCREEN_H}]"]
        if self.device.keyboard_shown:
            lines.append(f"  Window #1 Window{{{hexid(IME_PACKAGE)} u0 InputMethod}}:")
            lines.append(f"    package={IME_PACKAGE}")
        lines += ["", f"  init={T.SCREEN_W}x{T.SCREEN_H} {DENSITY}dpi cur={T.SCREEN_W}x"
                      f"{T.SCREEN_H} app={T.SCREEN_W}x{T.SCREEN_H - T.NAV_H}",
                  "  mTopFocusedDisplayId=0",
                  f"  mCurrentFocus={window}",
                  f"  mFocusedApp={self.record(self.top_package())}"]
        text = "\n".join(lines) + "\n"
        return text + "\n" + self.dump_policy() if not args else text

    def dump_policy(self) -> str:
        """``dumpsys window policy``: AOSP ``PhoneWindowManager.dump``, whose
        ``KeyguardServiceDelegate.dump`` prints the keyguard's state (``showing=``,
        ``secure=``...) and ``KeyguardStateMonitor.dump`` its own (``mIsShowing=``...)."""
        power = self.phone.overlays.power
        showing, secure = str(power.keyguard).lower(), str(power.secure()).lower()
        awake = power.awake
        return "\n".join([
            "WINDOW MANAGER POLICY STATE (dumpsys window policy)",
            "    mSystemReady=true mSystemBooted=true",
            f"    mScreenOnEarly={str(awake).lower()} mScreenOnFully={str(awake).lower()}",
            "    KeyguardServiceDelegate",
            f"      showing={showing}", f"      inputRestricted={showing}",
            "      occluded=false", f"      secure={secure}", "      dreaming=false",
            "      systemIsReady=true", "      deviceHasKeyguard=true", "      enabled=true",
            "      offReason=OFF_BECAUSE_OF_USER", "      currentUser=0",
            "      bootCompleted=true",
            f"      screenState=SCREEN_STATE_{'ON' if awake else 'OFF'}",
            f"      interactiveState=INTERACTIVE_STATE_{'AWAKE' if awake else 'SLEEP'}",
            "      KeyguardStateMonitor", f"        mIsShowing={showing}",
            "        mSimSecure=false", f"        mInputRestricted={showing}",
            "        mTrusted=false", "        mCurrentUserId=0", ""])

    def dump_activities(self) -> str:
        top = self.top_package()
        lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
                 "Display #0 (activities from top to bottom):"]
        tasks = [top] + [self.device.apps[n].package for n in self.device.recents]
        uids = {name: p.uid for name, p in packages.installed(self.phone).items()}
        for package in dict.fromkeys([*tasks, LAUNCHER_PACKAGE]):
            lines.append(f"  * Task{{{hexid(package + 't')} #{self.task_id(package)} "
                         f"type=standard A={uids.get(package, 10100)}:{package} U=0 "
                         f"visible={package == top}}}")
            lines.append(f"    * Hist  #0: {self.record(package)}")
        lines += ["", f"  mResumedActivity: {self.record(top)}",
                  f"  topResumedActivity={self.record(top)}",
                  f"  ResumedActivity:{self.record(top)}"]
        return "\n".join(lines) + "\n"

    def dump_top(self) -> str:
        """``dumpsys activity top``: the top activity with a pid."""
        top = self.top_package()
        pid = pid_of(self.phone, top) or 0
        return (f"TASK {top} id={self.task_id(top)} userId=0\n"
                f"  ACTIVITY {top}/.MainActivity {hexid(top + 'a')} pid={pid}\n")

    def displays(self) -> list[tuple[str, int, int, int, str]]:
        """The built-in displays: (SurfaceFlinger's physical id, port, width, height,
        state); a foldable's cover screen (off) first, then its inner screen."""
        w, h = T.SCREEN_W, T.SCREEN_H
        on = "ON" if self.phone.overlays.power.awake else "OFF"
        if self.phone.profile_info().foldable:
            return [(FOLD_OUTER, 0, 1080, 2092, "OFF"), (FOLD_INNER, 1, w, h, on)]
        return [(FOLD_OUTER, 0, w, h, on)]

    def dump_surface_flinger(self) -> str:
        """``dumpsys SurfaceFlinger --display-id`` (AOSP ``SurfaceFlinger
        ::dumpDisplayIdentificationData``): ``Display ID (HWC display N): port=P pnpId=...
        displayName="..."`` a display; the virtual phone dumps only this, whatever the
        arguments."""
        return "".join(f'Display {ident} (HWC display {k}): port={port} pnpId=GGL '
                       f'displayName="EMU_display_{k}"\n'
                       for k, (ident, port, *_) in enumerate(self.displays()))

    def dump_display(self) -> str:
        """``dumpsys display`` (AOSP ``DisplayManagerService.dumpInternal``): the display
        devices (``DisplayDeviceInfo{...}``: ``uniqueId="local:ID"``, SurfaceFlinger's
        physical display id, and ``state``) and the viewports; a foldable lists its cover
        screen (off) and its inner screen (on, the default display's)."""
        w, h = T.SCREEN_W, T.SCREEN_H
        devices = self.displays()
        lines = ["DISPLAY MANAGER (dumpsys display)", "  mOnlyCore=false", "",
                 f"Display Devices: size={len(devices)}"]
        for ident, port, dw, dh, state in devices:
            lines.append(f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:{ident}", '
                         f"{dw} x {dh}, modeId 1, renderFrameRate 60.0, density {DENSITY}, "
                         f"type INTERNAL, address {{port={port}, model=0x0}}, state {state}, "
                         "FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT}")
        ident, port = devices[-1][:2]
        lines += ["", f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, "
                      f"isActive=true, displayId=0, uniqueId='local:{ident}', "
                      f"physicalPort={port}, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}),"
                      f" physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, "
                      f"deviceHeight={h}}}]", "  mCurrentOrientation=0", ""]
        return "\n".join(lines)

    def dump_power(self) -> str:
        """``dumpsys power`` (AOSP ``PowerManagerService.dumpInternal``): wakefulness, the
        stay-on and timeout settings, and the display's power."""
        power = self.phone.overlays.power
        awake = power.awake
        stay = self.phone.settings_provider.get("global", "stay_on_while_plugged_in") or "0"
        return "\n".join([
            "POWER MANAGER (dumpsys power)", "", "Power Manager State:",
            f"  mWakefulness={'Awake' if awake else 'Asleep'}",
            "  mWakefulnessChanging=false", "  mIsPowered=true", "  mPlugType=2",
            f"  mStayOn={str(power.stay_on()).lower()}",
            f"  mHoldingDisplaySuspendBlocker={str(awake).lower()}", "",
            "Settings and Configuration:",
            f"  mScreenOffTimeoutSetting={power.timeout_ms()}",
            f"  mStayOnWhilePluggedInSetting={stay}", "",
            f"Display Power: state={'ON' if awake else 'OFF'}", ""])

    def dump_battery(self) -> str:
        return ("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
                "  Wireless powered: false\n  status: 5\n  health: 2\n  present: true\n"
                "  level: 100\n  scale: 100\n  voltage: 4300\n  temperature: 250\n"
                "  technology: Li-ion\n")

    def dump_input_method(self) -> str:
        return (f"Input method service state:\n  mCurId={IME_PACKAGE}/.LatinIME\n"
                f"  mInputShown={str(self.device.keyboard_shown).lower()}\n")

    def dump_account(self) -> str:
        """``dumpsys account``: per user (one here) ``AccountManagerService.dumpUser``:
        ``Accounts: N``, then ``Account {name=..., type=...}`` (``Account.toString``),
        sessions and the authenticators."""
        accounts = list(self.device.system.accounts)
        lines = ["User UserInfo{0:Owner:c13}:", f"  Accounts: {len(accounts)}"]
        lines += [f"    Account {{name={a.name}, type={a.kind}}}" for a in accounts]
        kinds = sorted({a.kind for a in accounts})
        lines += ["", "  Accounts History", "", "  Active Sessions: 0", "",
                  f"  RegisteredServicesCache: {len(kinds)} services"]
        lines += [f"    ServiceInfo: AuthenticatorDescription {{type={k}}}, uid 10100"
                  for k in kinds]
        return "\n".join(lines) + "\n\n"

    def dump_alarm(self) -> str:
        """``dumpsys alarm`` (AOSP ``AlarmManagerService.dumpImpl``, ``Alarm.dump``): the
        system's own alarms and the clock's (the app whose manifest owns ``alarms``), soonest
        first, as AOSP DeskClock schedules them (``alarms.AlarmStateManager``): no entry per
        alarm at its ring time, but one per enabled alarm for its next state change
        (``scheduleInstanceStateChange``, ``setExactAndAllowWhileIdle(RTC_WAKEUP)``,
        ``*walarm*:change_state``): the low notification 2 h before it rings
        (``AlarmInstance.LOW_NOTIFICATION_HOUR_OFFSET``) when that is still ahead, else the
        high one 30 min before (``HIGH_NOTIFICATION_MINUTE_OFFSET``), else the ring itself;
        plus, for the next alarm overall, ``updateNextAlarmInAlarmManager``'s surrogate
        ``setAlarmClock`` at its ring time (``*walarm*:indicator``, with its ``Alarm clock:``
        lines, also under "Next alarm clock information"). A clock that was force-stopped
        and has not run since has none (``VirtualPhone.alarms_cancelled``)."""
        now = self.device.system.now
        entries = [(now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1),
                    "RTC", SYSTEMUI_PACKAGE, "*alarm*:android.intent.action.DATE_CHANGED")]
        owner = self.device.owner_of("alarms")
        clock = owner.package if owner is not None else ""
        running = set(running_packages(self.phone))
        self.phone.alarms_cancelled -= running  # an app that runs again sets its alarms again
        rings = sorted(next_ring(a, now) for a in self.device.system.alarms
                       if a.enabled) if owner is not None else []
        if clock in self.phone.alarms_cancelled:
            rings = []
        for ring in rings:
            entries.append((state_change(ring, now), "RTC_WAKEUP", clock,
                            "*walarm*:change_state"))
        if rings:
            entries.append((rings[0], "RTC_WAKEUP", clock, INDICATOR))
        entries.sort(key=lambda e: e[0])
        lines = ["Current Alarm Manager state:", "  Settings:", "    min_futurity=+5s0ms", "",
                 f"  nowRTC={epoch(now) * 1000}={stamp(now)} "
                 f"nowELAPSED={duration(now - self.phone.boot)}", "",
                 f"  Pending alarms: {len(entries)}"]
        for k, (when, kind, package, tag) in enumerate(entries):
            lines += self._alarm_block(k, when, kind, package, tag, now)
        if rings:
            lines += ["", f"  Next wake from idle: Alarm{{{hexid(INDICATOR)} type 0 origWhen "
                          f"{epoch(rings[0]) * 1000} whenElapsed "
                          f"{self._elapsed(rings[0])} {clock}}}"]
        lines += ["", "  Next alarm clock information: "]
        if rings:
            when = rings[0]
            lines.append(f"    user:0 pendingSend:false time:{epoch(when) * 1000} = "
                         f"{when:%Y-%m-%d %H:%M:%S} = {duration(when - now)}")
        return "\n".join(lines) + "\n"

    def _elapsed(self, when: datetime) -> int:
        return int((when - self.phone.boot).total_seconds() * 1000)

    def _alarm_block(self, k: int, when: datetime, kind: str, package: str, tag: str,
                     now: datetime) -> list[str]:
        millis, ahead = epoch(when) * 1000, duration(when - now)
        # setAlarmClock: FLAG_STANDALONE | FLAG_WAKE_FROM_IDLE; setExactAndAllowWhileIdle:
        # FLAG_STANDALONE | FLAG_ALLOW_WHILE_IDLE (AlarmManager.FLAG_*)
        flags = "0x3" if tag == INDICATOR else "0x5" if package != SYSTEMUI_PACKAGE else "0x0"
        block = [
            f"    {kind} #{k}: Alarm{{{hexid(tag + str(millis))} type "
            f"{0 if kind == 'RTC_WAKEUP' else 1} origWhen {millis} whenElapsed "
            f"{self._elapsed(when)} {package}}}",
            f"      tag={tag}",
            f"      type={kind} origWhen={stamp(when)} window=0 exactAllowReason=policy_permission"
            f" repeatInterval=0 count=0 flags={flags}",
        ]
        if tag == INDICATOR:
            block += ["      Alarm clock:", f"        triggerTime={stamp(when)}",
                      f"        showIntent=PendingIntent{{{hexid(package + 'show')}: "
                      "PendingIntentRecord{" + f"{hexid(package)} {package} startActivity}}}}"]
        kind_of = "startService" if tag.endswith("change_state") else "broadcastIntent"
        return block + [
            f"      policyWhenElapsed: requester={ahead} app_standby=-- device_idle=-- "
            "battery_saver=--",
            f"      whenElapsed={ahead} maxWhenElapsed={ahead}",
            f"      operation=PendingIntent{{{hexid(tag + str(k))}: PendingIntentRecord{{"
            f"{hexid(package)} {package} {kind_of}}}}}",
        ]


#: The tag of DeskClock's surrogate ``setAlarmClock`` alarm (``AlarmStateManager
#: .INDICATOR_ACTION``, ``PendingIntent.getBroadcast``).
INDICATOR = "*walarm*:indicator"
#: DeskClock's notification offsets before an alarm rings (``AlarmInstance``).
LOW_NOTIFICATION = timedelta(hours=2)
HIGH_NOTIFICATION = timedelta(minutes=30)


def state_change(ring: datetime, now: datetime) -> datetime:
    """When DeskClock's ``AlarmStateManager`` has the alarm manager wake it next for an alarm
    that rings at ``ring`` (``registerInstance``: silent until the low notification, 2 h
    before; low until the high one, 30 min before; high until it fires)."""
    for before in (LOW_NOTIFICATION, HIGH_NOTIFICATION):
        if ring - before >= now:
            return ring - before
    return ring


def hexid(text: str) -> str:
    """A stable identity hash (as Android prints object ids) for ``text``."""
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M:%S.") + f"{when.microsecond // 1000:03d}"


def duration(delta: timedelta) -> str:
    """Android's ``TimeUtils.formatDuration``: ``+1d2h3m4s5ms``."""
    ms = int(delta.total_seconds() * 1000)
    sign, ms = ("+" if ms >= 0 else "-"), abs(ms)
    out, started = [], False
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)):
        value, ms = divmod(ms, size)
        started = started or value > 0
        if started:
            out.append(f"{value}{unit}")
    return sign + "".join(out) + f"{ms}ms"

