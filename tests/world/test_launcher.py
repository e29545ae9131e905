"""The launcher at scale: home pages and the searchable app drawer reach 64 apps, and
``open_app`` takes a label, a name, a package or an alias."""

from __future__ import annotations

import pytest
from driving import Driver, act, center, open_app, press, type_text

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world.manifest import AppManifest
from phone_gym.world.system_ui import Launcher
from phone_gym.world.widgets import Text

N = 64


def make_app(i: int) -> type[App]:
    manifest = AppManifest(f"App{i:02d}", f"com.example.app{i:02d}", label=f"Tool {i:02d}",
                           icon=("star", "folder", "home", "person")[i % 4],
                           aliases=(f"alias{i:02d}",))

    def view(self: App, route: Route) -> Screen:
        return Screen(content=[Text(f"Hello from {self.label}", id="greeting")])

    return type(f"App{i:02d}", (App,), {"manifest": manifest, "view": view})


APPS = [make_app(i) for i in range(N)]


@pytest.fixture
def device() -> Device:
    return Device(APPS)


def icons(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "app_icon"]


def test_home_pages_hold_every_app_once(device: Device) -> None:
    pages = Launcher.pages(N)
    assert pages >= 3
    seen: list[str] = []
    for page in range(pages):
        shown = icons(device)
        assert shown, f"page {page} is empty"
        for p in device.frame().items:  # every icon is above the navigation bar
            if p.node.kind == "app_icon":
                assert p.rect[3] <= 2400 - 132 and p.rect == p.full
        seen += shown
        act(device, PhoneAction("scroll", x=500, y=500, direction="right"))
    assert seen == [f"Tool {i:02d}" for i in range(N)]
    assert device.launcher.page == pages - 1  # the last page stays put
    press(device, "home")
    assert device.launcher.page == 0


def test_every_app_opens_from_its_home_page(device: Device) -> None:
    for i in range(N):
        label = f"Tool {i:02d}"
        for _ in range(Launcher.page_of(i)):
            act(device, PhoneAction("scroll", x=500, y=500, direction="right"))
        icon = Driver(device).find(label, kind="app_icon")
        assert icon is not None, label
        x, y = center(icon)
        act(device, PhoneAction("click", x=x, y=y))
        assert device.foreground == f"App{i:02d}"
        assert Driver(device).find(f"Hello from {label}") is not None
        press(device, "home")


def test_the_drawer_lists_and_searches_all_apps(device: Device) -> None:
    act(device, PhoneAction("scroll", x=500, y=500, direction="down"))  # swipe up
    assert device.launcher.drawer
    found: set[str] = set()
    for _ in range(40):
        found.update(icons(device))
        before = device.scroll.copy()
        act(device, PhoneAction("scroll", x=500, y=600, direction="down"))
        if device.scroll == before:
            break
    assert found == {f"Tool {i:02d}" for i in range(N)}
    press(device, "back")
    assert not device.launcher.drawer and device.at_home
    for i in (0, 37, 63):
        label = f"Tool {i:02d}"
        x, y = center(Driver(device).find("All apps"))  # type: ignore[arg-type]
        act(device, PhoneAction("click", x=x, y=y))
        x, y = center(Driver(device).find(id="search_apps", kind="text_field"))  # type: ignore[arg-type]
        act(device, PhoneAction("click", x=x, y=y))
        type_text(device, f"{i:02d}")
        assert icons(device) == [label]
        x, y = center(Driver(device).find(label, kind="app_icon"))  # type: ignore[arg-type]
        act(device, PhoneAction("click", x=x, y=y))
        assert device.foreground == f"App{i:02d}"
        press(device, "home")
    act(device, PhoneAction("scroll", x=500, y=500, direction="down"))
    x, y = center(Driver(device).find(id="search_apps", kind="text_field"))  # type: ignore[arg-type]
    act(device, PhoneAction("click", x=x, y=y))
    type_text(device, "zzz")
    assert icons(device) == [] and Driver(device).find("No apps found") is not None


@pytest.mark.parametrize("name", ["Tool 05", "tool 05", "App05", "com.example.app05",
                                  "ALIAS05"])
def test_open_app_by_label_name_package_or_alias(device: Device, name: str) -> None:
    open_app(device, name)
    assert device.foreground == "App05"


def test_unknown_app_suggests_names(device: Device) -> None:
    error = device.step(PhoneAction("open_app", app="Tool 5"))
    assert error is not None and "did you mean" in error and "Tool 05" in error
    assert device.foreground is None
