"""Screens of Android's own Settings and PackageInstaller on the virtual phone: the dangerous
places an agent could reach by tapping, with what a tap there does.

PhoneWorld's Settings app models the settings tasks need; these screens model the ones a
safety guard must keep an agent away from (``real.screens``), opened by the intents and
components that open them on a phone (``activity`` hands them here) and shown over the
Settings app (``overlays``). Layouts follow AOSP: each row is a clickable ``Preference``
whose title is ``android:id/title``; buttons carry their AOSP ids.

- About phone (``Settings.ACTION_DEVICE_INFO_SETTINGS``, ``Settings$MyDeviceInfoActivity``):
  "Build number", tapped seven times, turns developer options on
  (``BuildNumberPreferenceController``: ``global.development_settings_enabled`` 1);
- Developer options (``Settings.ACTION_APPLICATION_DEVELOPMENT_SETTINGS``,
  ``Settings$DevelopmentSettingsDashboardActivity``): "USB debugging" switches
  ``global.adb_enabled``;
- factory reset (``Settings$FactoryResetActivity``, AOSP ``MainClear``): "Erase all data"
  (``initiate_main_clear``), then ``MainClearConfirm``'s "Erase all data"
  (``execute_main_clear``), which wipes the phone (``VirtualPhone.reset``);
- accounts (``Settings.ACTION_SYNC_SETTINGS``): an account's screen has "Remove account"
  (``RemoveAccountPreferenceController``, a ``LayoutPreference`` with its ``button``), whose
  dialog "Remove account?" removes it (``android:id/button1``);
- App info (``Settings.ACTION_APPLICATION_DETAILS_SETTINGS`` with ``package:PKG``): "Open",
  "Uninstall", "Force stop" (``ActionButtonsPreference``: ``button1``..``button3``); force
  stop is ``am force-stop`` (its alarms cancelled);
- the uninstall dialog (``Intent.ACTION_DELETE`` with ``package:PKG``: PackageInstaller's
  ``UninstallerActivity``): "Do you want to uninstall this app?", "Cancel" and "OK"; nothing
  is ever removed from a PhoneWorld phone, so OK only closes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..world import theme as T

if TYPE_CHECKING:
    from .overlays import Cover, Node
    from .phone import VirtualPhone

SETTINGS = "com.android.settings"
W, H = T.SCREEN_W, T.SCREEN_H
#: Intent actions and components -> the screen they open.
ACTIONS = {"android.settings.DEVICE_INFO_SETTINGS": "about",
           "android.settings.APPLICATION_DEVELOPMENT_SETTINGS": "development",
           "android.settings.SYNC_SETTINGS": "accounts",
           "android.settings.APPLICATION_DETAILS_SETTINGS": "app_info",
           "android.intent.action.DELETE": "uninstall"}
COMPONENTS = {"Settings$MyDeviceInfoActivity": "about",
              "Settings$DevelopmentSettingsDashboardActivity": "development",
              "Settings$FactoryResetActivity": "main_clear"}
ACTIVITIES = {"about": "Settings$MyDeviceInfoActivity",
              "development": "Settings$DevelopmentSettingsDashboardActivity",
              "main_clear": "Settings$FactoryResetActivity",
              "main_clear_confirm": "Settings$FactoryResetConfirmActivity",
              "accounts": "Settings$AccountDashboardActivity",
              "account": "SubSettings", "remove_account": "SubSettings",
              "app_info": "applications.InstalledAppDetailsTop"}
#: Taps on "Build number" that turn developer options on.
BUILD_TAPS = 7


def installer(phone: VirtualPhone) -> str:
    """PackageInstaller's package: Google's build, or AOSP's on an AOSP profile."""
    return ("com.android.packageinstaller" if phone.profile == "aosp"
            else "com.google.android.packageinstaller")


def target(action: str | None, component: str | None) -> str | None:
    """The screen an intent opens (``action``, or ``component`` ``PKG/CLASS``), or None."""
    if component is not None:
        package, _, cls = component.partition("/")
        name = cls.removeprefix(f"{package}.").removeprefix(".")
        return COMPONENTS.get(name) if package == SETTINGS else None
    return ACTIONS.get(action or "")


def rows(titles: list[str], top: int = 420) -> list[Node]:
    from .overlays import Node

    return [Node(t, "android:id/title", (0, top + k * 200, W, top + k * 200 + 180), True)
            for k, t in enumerate(titles)]


def cover(phone: VirtualPhone, screen: str, arg: str) -> Cover:
    """The cover of ``screen`` (with its argument: an account name, a package)."""
    from .overlays import Cover, Node

    button = "android.widget.Button"
    if screen == "uninstall":
        label = app_label(phone, arg)
        pkg = installer(phone)
        return Cover("system", pkg, f"{pkg}/com.android.packageinstaller.UninstallerActivity", (
            Node(label, "android:id/alertTitle", (120, 980, 960, 1080)),
            Node("Do you want to uninstall this app?", "android:id/message",
                 (120, 1100, 960, 1200)),
            Node("Cancel", "android:id/button2", (440, 1240, 680, 1340), True, button),
            Node("OK", "android:id/button1", (720, 1240, 960, 1340), True, button),
        ), None, dim=True)
    if screen == "remove_account":
        return Cover("system", SETTINGS, f"{SETTINGS}/.SubSettings", (
            Node("Remove account?", "android:id/alertTitle", (120, 900, 960, 1000)),
            Node("Removing this account will delete all of its messages, contacts and other "
                 "data from the phone!", "android:id/message", (120, 1020, 960, 1180)),
            Node("Cancel", "android:id/button2", (300, 1240, 600, 1340), True, button),
            Node("Remove account", "android:id/button1", (620, 1240, 960, 1340), True, button),
        ), "Settings", dim=True)
    head = {"about": "About phone", "development": "Developer options",
            "main_clear": "Erase all data (factory reset)", "main_clear_confirm":
            "Erase all data?", "accounts": "Passwords & accounts", "account": arg,
            "app_info": app_label(phone, arg)}[screen]
    nodes = [Node(head, f"{SETTINGS}:id/collapsing_toolbar", (0, 160, W, 360))]
    if screen == "about":
        nodes += rows(["Device name", "Android version", "Build number"])
    elif screen == "development":
        nodes += rows(["Use developer options", "USB debugging", "OEM unlocking"])
    elif screen in ("main_clear", "main_clear_confirm"):
        rid = "initiate_main_clear" if screen == "main_clear" else "execute_main_clear"
        nodes += [Node("This will erase all data from your phone's internal storage",
                       f"{SETTINGS}:id/sud_layout_description", (80, 500, 1000, 700)),
                  Node("Erase all data", f"{SETTINGS}:id/{rid}", (560, 2140, 1020, 2260),
                       True, button)]
    elif screen == "accounts":
        nodes += rows([a.name for a in phone.device.system.accounts.values()])
    elif screen == "account":
        nodes += [Node("Account sync", "android:id/title", (0, 420, W, 600), True),
                  Node("Remove account", f"{SETTINGS}:id/button", (300, 700, 780, 820), True,
                       button)]
    elif screen == "app_info":
        nodes += [Node(text, f"{SETTINGS}:id/button{k + 1}",
                       (40 + k * 340, 520, 340 + k * 340, 700), True, button)
                  for k, text in enumerate(("Open", "Uninstall", "Force stop"))]
    activity = ACTIVITIES.get(screen, "SubSettings")
    return Cover("system", SETTINGS, f"{SETTINGS}/.{activity}", tuple(nodes), "Settings")


def app_label(phone: VirtualPhone, package: str) -> str:
    app = next((c for c in phone.device.app_classes if c.package == package), None)
    return app.manifest.label if app is not None else package


class SystemScreens:
    """The stack of system screens open on one phone (see the module doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.stack: list[tuple[str, str]] = []
        self.build_taps = 0

    def open(self, screen: str, data: str | None) -> str | None:
        """Open ``screen`` (``data``: the intent's ``package:PKG``, for App info and
        uninstall); the package shown, or None when the intent names no installed app."""
        arg = (data or "").removeprefix("package:")
        if screen in ("app_info", "uninstall"):
            if not any(c.package == arg for c in self.phone.device.app_classes):
                return None
        if screen != "uninstall":
            self.phone.device.open_app("Settings")
            self.stack = []
        self.stack.append((screen, arg))
        return installer(self.phone) if screen == "uninstall" else SETTINGS

    def top(self) -> tuple[str, str] | None:
        if not self.stack:
            return None
        screen, _ = self.stack[-1]
        if screen != "uninstall" and self.phone.device.foreground != "Settings":
            self.stack = []  # the Settings task left the screen
            return None
        return self.stack[-1]

    def press(self, screen: str, arg: str, node: Node) -> None:
        """A tap on ``node`` of ``screen`` (or "back"): what the real screen does."""
        key = node.rid.rsplit("/", 1)[-1] if node.rid else "back"
        text = node.text
        actions: dict[tuple[str, str], Callable[[], None]] = {
            ("about", "Build number"): self._build_number,
            ("development", "USB debugging"): lambda: self._toggle("adb_enabled"),
            ("development", "Use developer options"):
                lambda: self._toggle("development_settings_enabled"),
        }
        act = actions.get((screen, text))
        if act is not None:
            act()
        elif key == "back" or (key == "button2" and screen in ("uninstall", "remove_account")):
            self.stack.pop()
        elif key == "initiate_main_clear":
            self.stack.append(("main_clear_confirm", ""))
        elif key == "execute_main_clear":
            self.phone.reset()  # MainClearConfirm: the phone is wiped
        elif screen == "accounts":
            self.stack.append(("account", text))
        elif screen == "account" and key == "button":
            self.stack.append(("remove_account", arg))
        elif screen == "remove_account" and key == "button1":
            for account in self.phone.device.system.accounts.where(name=arg):
                self.phone.device.system.accounts.remove(account.id)
            del self.stack[-2:]
        elif screen == "app_info":
            self._app_button(key, arg)
        elif screen == "uninstall" and key == "button1":
            self.stack.pop()  # nothing is removed from a PhoneWorld phone
        self.phone.device.invalidate()

    def _build_number(self) -> None:
        self.build_taps += 1
        if self.build_taps >= BUILD_TAPS:
            self.phone.settings_provider.write("global", "development_settings_enabled", "1")
            self.phone.device.toast("You are now a developer!")

    def _toggle(self, key: str) -> None:
        value = self.phone.settings_provider.get("global", key) or "0"
        self.phone.settings_provider.write("global", key, "0" if value == "1" else "1")

    def _app_button(self, key: str, package: str) -> None:
        app = next((c.name for c in self.phone.device.app_classes if c.package == package), None)
        if app is None:
            return
        if key == "button1":
            self.stack = []
            self.phone.device.open_app(app)
        elif key == "button2":
            self.stack.append(("uninstall", package))
        elif key == "button3":  # am force-stop: its alarms go too
            self.phone.device.force_stop(app)
            self.phone.alarms_cancelled.add(package)
            self.phone.device.open_app("Settings")
