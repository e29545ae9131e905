"""System templates: AndroidWorld's ``OpenAppTaskEval``, ``TurnOnWifiAndOpenApp`` and
``SystemCopyToClipboard``, on its device date.

Which app is on screen is ``foreground`` in an episode's snapshot (the package; ignored by
the collateral-damage check unless a criterion names it, as these do). AndroidWorld's app
names (camera, clock, contacts, settings, dialer) map to PhoneWorld apps by name; the
Camera and Phone apps may not be installed (another package provides them), so params are
drawn only among the apps the registry holds when a task is sampled (``launchable``): with
only the built-in Clock, Contacts and Settings, those three."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...mockapps.clipper.fixtures import put_clipboard
from ...mockapps.settings.fixtures import (
    PAGES,
    WIFI,
    SwitchIs,
    perturb_settings,
    put_switch,
    scramble,
    switch_value,
)
from ...tasks.aw import AW_START
from ...tasks.driver import Driver
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import Allowed, Becomes, Criterion, NearMiss, Value, same_text

#: AndroidWorld's app names and the PhoneWorld app names that may stand for each.
APP_NAMES: dict[str, tuple[str, ...]] = {
    "camera": ("Camera",),
    "clock": ("Clock",),
    "contacts": ("Contacts",),
    "settings": ("Settings",),
    "dialer": ("Phone", "Dialer"),
}
#: The apps always there (the task's ``apps``: closed at a clean start).
BUILTIN = ("Clock", "Contacts", "Settings")


def launchable() -> tuple[tuple[str, str, str], ...]:
    """``(AndroidWorld name, app name, package)`` of each of ``APP_NAMES`` the registry
    holds now (read at call time: the registry is being built when this module loads)."""
    from ...mockapps import REGISTRY

    out = []
    for aw_name, names in APP_NAMES.items():
        for name in names:
            try:
                manifest = REGISTRY.app(name).manifest
            except ValueError:
                continue
            out.append((aw_name, manifest.name, manifest.package))
            break
    return tuple(out)


def launch_params(rng: np.random.Generator) -> dict[str, Any]:
    aw_name, name, _ = pick(rng, launchable())
    return {"app_name": aw_name, "app": name}


def package_of(app: str) -> str:
    from ...mockapps import REGISTRY

    return REGISTRY.app(app).manifest.package


class AwSystemTask(Task):
    start = AW_START

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        """Settings the task is not about scrambled, a few notifications (bystanders)."""
        scramble(state, rng)


class OpenAppTaskEval(AwSystemTask):
    """Launch an app: the criterion is the package on screen."""

    apps = BUILTIN
    template = "Open the {app_name} app."
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return launch_params(rng)

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Value("foreground", package_of(params["app"]))]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        other = next(p for _, _, p in launchable() if p != package_of(params["app"]))
        return [NearMiss({**final, "foreground": other}, answer, "another app opened"),
                NearMiss({**final, "foreground": initial["foreground"]}, answer,
                         "back on the home screen")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app(params["app"])
        yield from ui.finish()


class TurnOnWifiAndOpenApp(AwSystemTask):
    """Two parts, one criterion each (``info["progress"]`` 0, 0.5 or 1, as AndroidWorld
    scores it): Wi-Fi on (it starts off), and the app on screen at the end."""

    apps = BUILTIN
    template = "Turn on Wi-Fi, then open the {app_name} app."
    complexity, max_steps = 2, 20

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return launch_params(rng)

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        put_switch(state, WIFI, False)

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [SwitchIs(WIFI, True), Value("foreground", package_of(params["app"]))]

    def allowed(self, params: Mapping[str, Any], initial: Any) -> Sequence[Allowed]:
        return [Becomes(f"settings.{WIFI.namespace}.{WIFI.key}", switch_value(WIFI, True))]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        home = {**final, "foreground": initial["foreground"]}
        return [NearMiss(perturb_settings(final, wifi_on="0"), answer, "Wi-Fi left off"),
                NearMiss(home, answer, "the app not open at the end")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Settings")
        yield from ui.tap(PAGES["network"], kind="list_item")
        yield from ui.tap(PAGES["internet"], kind="list_item")
        yield from ui.set_switch("Wi-Fi", True)
        yield from ui.open_app(params["app"])
        yield from ui.finish()


#: Things one copies (addresses, emails, order and tracking numbers, codes...): 36.
CLIP_TEXTS = (
    "1600 Amphitheatre Parkway, Mountain View, CA 94043",
    "221B Baker Street, London NW1 6XE",
    "350 Fifth Avenue, New York, NY 10118",
    "4 Privet Drive, Little Whinging, Surrey",
    "742 Evergreen Terrace, Springfield",
    "10 Downing Street, London SW1A 2AA",
    "Calle Mayor 12, 28013 Madrid",
    "Rue de Rivoli 99, 75001 Paris",
    "maria.novak@example.com",
    "support@harborinn.example",
    "j.okafor@mailbox.example.org",
    "billing@greenleaf-energy.example",
    "team-lunch@office.example.net",
    "Order #A7734-1192",
    "Order number 558-2201-9934",
    "Tracking 1Z999AA10123456784",
    "Tracking number LX482913605DE",
    "Invoice INV-2023-0457",
    "Booking reference K7Q2XM",
    "Confirmation code 8HT4RW",
    "Promo code AUTUMN25",
    "Discount code FREESHIP50",
    "Gift card 4921-7735-0086",
    "Wi-Fi password: blue-otter-42",
    "Meeting ID 874 2210 3391",
    "Flight LH 455, seat 23C",
    "Table for four at 7:30 pm, Friday",
    "Pick up the dry cleaning before 6",
    "IBAN DE44 5001 0517 5407 3249 31",
    "License key 7F3K-92QD-LM4X-0PZA",
    "Serial number 44-1093-B",
    "Account 0042 7781 5530",
    "https://example.com/shared/recipe-lasagna",
    "https://maps.example.com/?q=harbor+inn",
    "Call me back at +1 415 555 0134",
    "Parking level 3, spot 117",
)


class SystemCopyToClipboard(AwSystemTask):
    """Put a given text on the clipboard (Clipper sets it). The clipboard starts with
    another text, so doing nothing fails; it is compared as text (case, punctuation and
    spacing aside)."""

    apps = ("Clipper",)
    template = 'Copy "{clipboard_content}" to the clipboard.'
    complexity, max_steps = 1, 10

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        content, before = pick(rng, CLIP_TEXTS, 2)
        return {"clipboard_content": content, "before": before}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        put_clipboard(state, params["before"])

    def criteria(self, params: Mapping[str, Any], initial: Any) -> Sequence[Criterion]:
        return [Value("clipboard", same_text(params["clipboard_content"]))]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        text = params["clipboard_content"]
        return [NearMiss({**final, "clipboard": text[:-3]}, answer, "the end cut off"),
                NearMiss({**final, "clipboard": f"{text} {params['before']}"}, answer,
                         "the old clipboard kept beside it")]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Clipper")
        yield from ui.fill("clip_input", params["clipboard_content"])
        yield from ui.tap(id="set_clipboard")
        yield from ui.finish()


TEMPLATES: list[Task] = [OpenAppTaskEval(), TurnOnWifiAndOpenApp(), SystemCopyToClipboard()]
