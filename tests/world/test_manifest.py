"""App manifests: validation with useful errors, and what the device derives from them
(names for open_app, intents, deep links, pm clear of the stores an app owns)."""

from __future__ import annotations

from typing import Any

import pytest

from phone_gym.mockapps import APPS
from phone_gym.world import App, Device, Route, Screen
from phone_gym.world.manifest import AppManifest, Intent, did_you_mean
from phone_gym.world.widgets import Text


@pytest.mark.parametrize("kwargs, fragment", [
    ({"name": "My App", "package": "com.example.x"}, "letters, digits and _"),
    ({"name": "App", "package": "example"}, "Android package"),
    ({"name": "App", "package": "com.example.x", "color": (300, 0, 0)}, "0..255"),
    ({"name": "App", "package": "com.example.x", "owns": ("contact",)},
     "did you mean 'contacts'"),
])
def test_bad_manifests_say_what_is_accepted(kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        AppManifest(**kwargs)


def test_defaults_and_names() -> None:
    m = AppManifest("PhotoBook", "com.example.photos", aliases=("Photos",))
    assert m.label == "PhotoBook" and m.icon == "apps"
    assert m.names() == ("PhotoBook", "com.example.photos", "Photos")
    assert did_you_mean("Photobok", ["PhotoBook", "Notes"]) == " (did you mean 'PhotoBook'?)"
    assert did_you_mean("zzz", ["PhotoBook"]) == ""


class Maps(App):
    manifest = AppManifest("Atlas", "com.example.maps", intents=("android.intent.action.VIEW",),
                           deep_links=("geo:",), owns=("events",))

    def initial_ui(self) -> dict[str, str]:
        return {"shown": ""}

    def open_link(self, uri: str) -> None:
        self.ui["shown"] = uri

    def handle_intent(self, intent: Intent) -> bool:
        self.ui["shown"] = f"intent {intent.action}"
        return not intent.extras.get("quiet")

    def view(self, route: Route) -> Screen:
        return Screen(content=[Text(self.ui["shown"] or "map", id="shown")])


def test_intents_and_deep_links_reach_the_app_that_declares_them() -> None:
    device = Device([*APPS, Maps])  # Maps and OsmAnd open geo: links too: name the package
    app = device.start_intent(Intent("android.intent.action.VIEW", "com.example.maps",
                                     data="geo:48.85,2.35"))
    assert app.name == "Atlas" and device.foreground == "Atlas"
    assert app.ui["shown"] == "geo:48.85,2.35"
    device.press("home")
    app = device.start_intent(Intent("android.intent.action.VIEW", "com.example.maps",
                                     extras={"quiet": True}))
    assert app.ui["shown"] == "intent android.intent.action.VIEW" and device.foreground is None
    clock = device.start_intent(Intent("android.intent.action.SET_ALARM", extras={
        "android.intent.extra.alarm.HOUR": 6, "android.intent.extra.alarm.MINUTES": 30,
        "android.intent.extra.alarm.SKIP_UI": True}))
    assert clock.name == "Clock" and [(a.hour, a.minute) for a in device.system.alarms] == [
        (6, 30)]
    settings = device.start_intent(Intent("android.settings.DISPLAY_SETTINGS"))
    assert settings.name == "Settings" and settings.route.name == "display"
    with pytest.raises(LookupError, match="no app handles"):
        device.start_intent(Intent("android.intent.action.CALL"))


def test_pm_clear_empties_the_stores_an_app_owns() -> None:
    device = Device([*APPS, Maps])
    device.system.add_alarm(7, 0)
    device.system.events.new(title="Dentist", start="2026-10-16T09:00")
    device.system.add_contact("Ann")
    assert device.clear_data("com.example.maps") and len(device.system.events) == 0
    assert len(device.system.alarms) == 1
    assert device.clear_data("com.google.android.deskclock") and len(device.system.alarms) == 0
    assert device.clear_data("com.android.providers.contacts")
    assert len(device.system.contacts) == 0
    assert not device.clear_data("com.example.nothing")


def test_the_device_refuses_clashing_apps() -> None:
    class Twin(App):
        manifest = AppManifest("Twin", "com.android.contacts")

    with pytest.raises(ValueError, match="packages must be unique"):
        Device([*APPS, Twin])
