"""What the system shows over the apps of the virtual phone, as Android does.

``Overlays`` sits between the shell's screen commands (``input``, ``screencap``,
``uiautomator dump``, ``dumpsys window``; uiautomator2's dump, screenshot and taps) and the
PhoneWorld device:

- the screen's power and lock screen (``power.Power``): asleep, the screen captures black
  and drops touches; the keyguard (and its PIN bouncer) covers every app, from the system
  UI's ``NotificationShade`` window;
- a runtime-permission prompt: on Android 13 and later an app that requests
  ``POST_NOTIFICATIONS`` without holding it asks at launch (AOSP
  ``PermissionController``'s ``GrantPermissionsActivity``, layout ``grant_dialog``: "Allow
  *App* to send you notifications?", buttons ``permission_allow_button`` "Allow" and
  ``permission_deny_button`` "Don't allow"); a denial is counted, and after two the app no
  longer asks (Android 11+ treats a second denial as "don't ask again"); ``pm grant`` means
  no prompt. Only profiles of fresh installs (``Profile.fresh``) leave permissions ungranted;
- a first-run screen: apps of the profile's ``first_run`` show one at launch until it is
  passed. It is the AppIntro library's screen (Markor's ``IntroActivity``): buttons with ids
  ``skip`` ("SKIP") and ``done`` ("DONE"); back leaves the app, the screen still to come;
- Android's own Settings and PackageInstaller screens that a guard must keep an agent away
  from (factory reset, developer options, account removal, App info, the uninstall dialog:
  ``system_screens``), opened by their intents over the Settings app;
- the resolver dialog (``resolver``: "Open with", "Share"...), when several apps answer an
  implicit intent, over whatever was in front;
- ``FLAG_SECURE``: an app in ``secure_packages`` draws a secure window, which
  ``screencap`` and uiautomator2 capture black (SurfaceFlinger leaves secure layers out of
  screenshots) while its UI dump stays readable; ``dumpsys window`` lists ``SECURE`` among
  the window's ``fl=`` flags (``WindowManager.LayoutParams.toString``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from ..world import theme as T
from ..world.a11y import XML_HEADER, to_xml, xml_escape
from ..world.device import SYSTEMUI_PACKAGE
from ..world.glyphs import font
from . import system_screens
from .permissions import NOTIFICATIONS
from .power import Power
from .resolver import Resolver
from .system_screens import SystemScreens

if TYPE_CHECKING:
    from .phone import VirtualPhone

W, H = T.SCREEN_W, T.SCREEN_H
GRANT_ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
#: Denials after which an app no longer asks (Android 11+).
MAX_DENIALS = 2
#: Key codes the system handles whatever is in front (home, app switch), and back's.
SYSTEM_KEYS = frozenset({3, 187})
BACK_KEYS = frozenset({4, 111})


@dataclass(frozen=True)
class Node:
    """One node of a cover's UI dump."""

    text: str
    rid: str
    bounds: tuple[int, int, int, int]
    clickable: bool = False
    cls: str = "android.widget.TextView"
    checkable: bool = False
    checked: bool = False
    enabled: bool = True


@dataclass(frozen=True)
class Cover:
    """A screen over the apps: its kind ("keyguard", "bouncer", "permission", "first_run",
    "system", "resolver"), the package and window title it shows as, its nodes, and what
    the app below is (name, or None)."""

    kind: str
    package: str
    window: str
    nodes: tuple[Node, ...]
    app: str | None = None
    dim: bool = False  # a dialog: the app shows, dimmed, around it


class Overlays:
    """The phone's covers and power (see the module doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.power = Power(phone)
        #: Packages whose windows set ``FLAG_SECURE``.
        self.secure_packages: set[str] = set()
        #: Apps (by name) past their first-run screen.
        self.onboarded: set[str] = set()
        self._prompt: tuple[str, str] | None = None  # (app name, permission) asking now
        self._shown: str | None = None  # the app last seen in front
        self.screens = SystemScreens(phone)
        self.resolver = Resolver(phone)

    # --- state -----------------------------------------------------------------------------
    def clear(self) -> None:
        """A factory reset: awake, no lock, nothing passed or asked."""
        self.power = Power(self.phone)
        self.secure_packages.clear()
        self.onboarded.clear()
        self._prompt = self._shown = None
        self.screens = SystemScreens(self.phone)
        self.resolver = Resolver(self.phone)

    def foreground(self) -> str | None:
        device = self.phone.device
        if device.shade_open or device.show_recents:
            return None
        return device.foreground

    def tick(self) -> None:
        """Before each command: the timeout, what an app shows when it comes to front, and
        the log of its start (``logd``)."""
        self.power.tick()
        self.phone.logd.observe()
        app = self.foreground()
        if app != self._shown:
            self._prompt = None
            self._shown = app
            if app is not None:
                self._launched(app)

    def _launched(self, app: str) -> None:
        """An app came to the front: it asks for notifications if it may (module doc)."""
        permissions = self.phone.permissions
        package = self.phone.device.apps[app].package
        if NOTIFICATIONS in permissions.runtime(package) and not permissions.is_granted(
                package, NOTIFICATIONS) and permissions.denials.get(
                (package, NOTIFICATIONS), 0) < MAX_DENIALS:
            self._prompt = (app, NOTIFICATIONS)

    def cover(self) -> Cover | None:
        """What covers the apps now (None: nothing)."""
        power = self.power
        if power.keyguard:
            return keyguard_cover(power.bouncer)
        chooser = self.resolver.cover()
        if chooser is not None:
            return chooser
        screen = self.screens.top()
        if screen is not None:
            return system_screens.cover(self.phone, *screen)
        app = self.foreground()
        if app is None:
            return None
        package = self.phone.device.apps[app].package
        label = self.phone.device.apps[app].manifest.label
        if self._prompt is not None and self._prompt[0] == app:
            controller = self.phone.profile_info().permission_controller
            return prompt_cover(controller, label, app)
        if app in self.phone.profile_info().first_run and app not in self.onboarded:
            return first_run_cover(package, label, app)
        return None

    def focus(self) -> tuple[str, str] | None:
        """The focused window's package and title when a cover has it (None: the app's)."""
        cover = self.cover()
        return (cover.package, cover.window) if cover is not None else None

    def secure(self) -> bool:
        """Whether the window in front sets ``FLAG_SECURE``."""
        app = self.foreground()
        return app is not None and self.cover() is None and \
            self.phone.device.apps[app].package in self.secure_packages

    # --- output ----------------------------------------------------------------------------
    def xml(self) -> str:
        """The UI dump: the cover's, else the device's frame."""
        cover = self.cover()
        return to_xml(self.phone.device.frame()) if cover is None else cover_xml(cover)

    def image(self, app_image: np.ndarray) -> np.ndarray:
        """The screenshot, given the app's frame as drawn: black while asleep or for a
        secure window; the cover over it otherwise."""
        if not self.power.awake or self.secure():
            return np.zeros_like(app_image)
        cover = self.cover()
        return app_image if cover is None else draw_cover(cover, app_image)

    # --- input -----------------------------------------------------------------------------
    def touch(self, start: tuple[int, int], end: tuple[int, int] | None = None) -> bool:
        """A touch at screen pixels (``end``: a swipe's end); True when the system took it
        (it does not reach the app)."""
        self.tick()
        if self.power.touch(start, end):
            return True
        cover = self.cover()
        if cover is None:
            return False
        if end is None:
            hit = next((n for n in cover.nodes if n.clickable and _inside(n.bounds, start)),
                       None)
            if hit is not None:
                self._press(cover, hit)
        return True  # a cover is modal

    def key(self, code: int) -> bool:
        """A key event (0: typed text); True when the system took it."""
        self.tick()
        if self.power.key(code):
            return True
        cover = self.cover()
        if code in SYSTEM_KEYS:  # home and recents: the system's own (the resolver stops)
            self.resolver.dismiss()
            return False
        if cover is None:
            return False
        if code in BACK_KEYS:
            self._press(cover, Node("", "", (0, 0, 0, 0)))
        return True  # other keys go to the cover's window, not the app

    def _press(self, cover: Cover, node: Node) -> None:
        """A tap on ``node`` of ``cover`` (a node without an id: back)."""
        button = node.rid.rsplit("/", 1)[-1] if node.rid else "back"
        if cover.kind == "resolver":
            self.resolver.press(node)
            return
        if cover.kind == "system":
            top = self.screens.top()
            if top is not None:
                self.screens.press(*top, node)
            return
        app = cover.app
        if app is None:
            return
        package = self.phone.device.apps[app].package
        if cover.kind == "permission":
            granted = button == "permission_allow_button"
            if granted:
                self.phone.permissions.set(package, NOTIFICATIONS, True)
            elif button in ("permission_deny_button", "back"):
                key = (package, NOTIFICATIONS)
                self.phone.permissions.denials[key] = \
                    self.phone.permissions.denials.get(key, 0) + 1
            else:
                return
            self._prompt = None
        elif cover.kind == "first_run":
            if button in ("skip", "done"):
                self.onboarded.add(app)
            elif button == "back":
                self.phone.device.go_home()
        self.phone.device.invalidate()


def _inside(rect: tuple[int, int, int, int], point: tuple[int, int]) -> bool:
    x0, y0, x1, y1 = rect
    return x0 <= point[0] < x1 and y0 <= point[1] < y1


# --- the covers ---------------------------------------------------------------------------
def keyguard_cover(bouncer: bool) -> Cover:
    """SystemUI's lock screen (``NotificationShade`` window), or its PIN bouncer."""
    s = SYSTEMUI_PACKAGE
    if bouncer:
        nodes = [Node("Enter PIN", f"{s}:id/keyguard_message_area", (140, 700, 940, 800)),
                 Node("", f"{s}:id/pinEntry", (240, 850, 840, 950), cls="android.widget.EditText")]
        nodes += [Node(str(d), f"{s}:id/key{d}", (190 + (k % 3) * 250, 1050 + (k // 3) * 220,
                                                 390 + (k % 3) * 250, 1230 + (k // 3) * 220),
                       True, "android.widget.Button")
                  for k, d in enumerate([1, 2, 3, 4, 5, 6, 7, 8, 9])]
        return Cover("bouncer", s, "NotificationShade", tuple(nodes))
    return Cover("keyguard", s, "NotificationShade", (
        Node("12:00", f"{s}:id/lockscreen_clock_view", (240, 500, 840, 760)),
        Node("Swipe up to open", f"{s}:id/keyguard_indication_text", (240, 2100, 840, 2160)),
    ))


def prompt_cover(controller: str, label: str, app: str) -> Cover:
    """``GrantPermissionsActivity``'s notification prompt for app ``label``."""
    return Cover("permission", controller, f"{controller}/{GRANT_ACTIVITY}", (
        Node(f"Allow {label} to send you notifications?", f"{controller}:id/permission_message",
             (120, 1000, 960, 1160)),
        Node("Allow", f"{controller}:id/permission_allow_button", (120, 1220, 960, 1340), True,
             "android.widget.Button"),
        Node("Don\u2019t allow", f"{controller}:id/permission_deny_button",
             (120, 1360, 960, 1480), True, "android.widget.Button"),
    ), app, dim=True)


def first_run_cover(package: str, label: str, app: str) -> Cover:
    """AppIntro's first slide (see the module doc)."""
    return Cover("first_run", package, f"{package}/{package}.IntroActivity", (
        Node(f"Welcome to {label}", f"{package}:id/title", (80, 700, 1000, 820)),
        Node("Swipe to see what it can do", f"{package}:id/description", (80, 860, 1000, 940)),
        Node("SKIP", f"{package}:id/skip", (40, 2180, 340, 2300), True, "android.widget.Button"),
        Node("DONE", f"{package}:id/done", (740, 2180, 1040, 2300), True,
             "android.widget.ImageButton"),
    ), app)


def cover_xml(cover: Cover) -> str:
    """A cover as ``uiautomator dump`` writes it: a full-screen ``FrameLayout`` of the cover's
    package holding its nodes."""
    def attrs(index: int, node: Node) -> str:
        x0, y0, x1, y1 = node.bounds
        flag = str(node.clickable).lower()
        checkable, checked = str(node.checkable).lower(), str(node.checked).lower()
        return (f'index="{index}" text="{xml_escape(node.text)}" resource-id="{node.rid}" '
                f'class="{node.cls}" package="{cover.package}" content-desc="" '
                f'checkable="{checkable}" checked="{checked}" clickable="{flag}" '
                f'enabled="{str(node.enabled).lower()}" focusable="{flag}" focused="false" '
                f'scrollable="false" long-clickable="false" password="false" '
                f'selected="false" bounds="[{x0},{y0}][{x1},{y1}]"')

    root = Node("", "", (0, 0, W, H), cls="android.widget.FrameLayout")
    children = "".join(f"<node {attrs(k, n)} />" for k, n in enumerate(cover.nodes))
    return (f'{XML_HEADER}<hierarchy rotation="0"><node {attrs(0, root)}>{children}</node>'
            "</hierarchy>")


def draw_cover(cover: Cover, below: np.ndarray) -> np.ndarray:
    """A cover drawn over the app's image (dimmed around a dialog, else covered)."""
    h, w = below.shape[:2]
    sx, sy = w / W, h / H
    if cover.dim:
        image = Image.fromarray((below.astype(np.uint16) * 2 // 5).astype(np.uint8))
    else:
        shade = (20, 24, 32) if cover.package == SYSTEMUI_PACKAGE else (250, 250, 252)
        image = Image.new("RGB", (w, h), shade)
    draw = ImageDraw.Draw(image)
    if cover.dim:
        top = min(n.bounds[1] for n in cover.nodes) - 60
        bottom = max(n.bounds[3] for n in cover.nodes) + 60
        draw.rounded_rectangle((60 * sx, top * sy, (W - 60) * sx, bottom * sy), 40 * sx,
                               fill=(250, 250, 252))
    dark = cover.package == SYSTEMUI_PACKAGE
    for node in cover.nodes:
        x0, y0, x1, y1 = (node.bounds[0] * sx, node.bounds[1] * sy, node.bounds[2] * sx,
                          node.bounds[3] * sy)
        if node.checkable:  # a row of a list: highlighted once picked
            if node.checked:
                draw.rounded_rectangle((x0, y0, x1, y1), 20 * sx, fill=(214, 226, 255))
        elif node.clickable:
            fill = (66, 99, 235) if node.enabled else (170, 174, 186)
            draw.rounded_rectangle((x0, y0, x1, y1), 30 * sx, fill=fill)
        if node.text:
            size = max(8, int((y1 - y0) * 0.45))
            light = (node.clickable and not node.checkable) or dark
            ink = (255, 255, 255) if light else (30, 30, 36)
            draw.text(((x0 + x1) / 2, (y0 + y1) / 2), node.text, fill=ink, font=font(size),
                      anchor="mm")
    return np.asarray(image, dtype=np.uint8)
