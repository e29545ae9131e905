"""What real-device tasks watch: derived from their apps' manifests (``real.watch``)."""

from __future__ import annotations

from typing import ClassVar

import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES
from phone_gym.mockapps import REGISTRY, Task
from phone_gym.mockapps.files.app import FOLDERS
from phone_gym.mockapps.settings import app as settings_app
from phone_gym.real.state import ADB_STORES, PHONEWORLD_ONLY
from phone_gym.real.watch import (
    PHONE_SETTINGS,
    SYSTEM_DRIVEN,
    app_stores,
    describe_watch,
    explicit_watch,
    task_watch,
    watch_for,
)
from phone_gym.verifiers.state import (
    SHARED_DIRS,
    STORE_NAMES,
    WATCHED_DIRS,
    WATCHED_SETTINGS,
    Watch,
)
from phone_gym.world.manifest import AppManifest
from phone_gym.world.system import default_settings

MANIFESTS = REGISTRY.manifests


def test_settings_tasks_watch_every_setting_the_settings_app_changes() -> None:
    switches = [v for v in vars(settings_app).values() if isinstance(v, settings_app.Switch)]
    changed = {(s.namespace, s.key) for s in switches} | {settings_app.BRIGHTNESS}
    assert len(changed) == 6
    phone = {(ns, k) for ns, keys in default_settings().items() for k in keys}
    tasks = [t for t in REAL_TEMPLATES.values() if "Settings" in t.apps]
    assert tasks
    for task in tasks:
        watch = task_watch(task, MANIFESTS)
        # adaptive brightness rewrites screen_brightness: only the brightness tasks watch it
        own = {(task.namespace, task.key)} & SYSTEM_DRIVEN  # type: ignore[attr-defined]
        assert changed - SYSTEM_DRIVEN | own <= set(watch.settings), task.id
        assert phone - SYSTEM_DRIVEN | own <= set(watch.settings), task.id
        assert set(watch.settings) == (set(WATCHED_SETTINGS) | set(PHONE_SETTINGS)) \
            - SYSTEM_DRIVEN | own
    assert any(SYSTEM_DRIVEN <= set(task_watch(t, MANIFESTS).settings) for t in tasks)


@pytest.mark.parametrize("task", sorted(REAL_TEMPLATES))
def test_every_real_task_watches_its_apps_stores(task: str) -> None:
    template = REAL_TEMPLATES[task]
    watch = task_watch(template, MANIFESTS)
    assert not explicit_watch(template)
    assert set(WATCHED_SETTINGS) - SYSTEM_DRIVEN <= set(watch.settings)
    assert watch.contacts and set(WATCHED_DIRS) <= set(watch.dirs)
    stores = set(app_stores(template.apps, MANIFESTS))
    for store in stores - {"settings"}:
        if store == "files":
            assert set(SHARED_DIRS) <= set(watch.dirs)
            assert {prefix.rstrip("/") for _, prefix in FOLDERS} <= set(watch.dirs)
        else:
            assert store in watch.store_names(), (task, store)
    assert watch.alarms == ("alarms" in stores)  # reading alarms opens the clock: only theirs
    assert watch.skipped == ()


def test_the_clock_tasks_watch_alarms_and_the_others_do_not() -> None:
    watched = {t.id for t in REAL_TEMPLATES.values() if task_watch(t, MANIFESTS).alarms}
    assert watched == {t.id for t in REAL_TEMPLATES.values() if "Clock" in t.apps}
    assert {"ClockDeleteAlarm", "ClockCreateAlarm"} <= watched


class Pinned(Task):
    """A template that chooses its own watch."""

    id = "PinnedWatchForTests"
    apps: ClassVar[tuple[str, ...]] = ("Clock",)
    watch = Watch(contacts=False, alarms=False, dirs=())


class PinnedChild(Pinned):
    id = "PinnedChildForTests"


def test_a_template_that_sets_its_watch_keeps_it() -> None:
    for task in (Pinned(), PinnedChild()):
        assert explicit_watch(task)
        assert task_watch(task, MANIFESTS) == Pinned.watch
        assert watch_for(task, MANIFESTS).alarms  # what it would have been


class Spender(Task):
    id = "SpenderForTests"
    apps: ClassVar[tuple[str, ...]] = ("Wallet",)


def test_stores_a_phone_cannot_read_are_recorded_not_dropped() -> None:
    wallet = AppManifest("Wallet", "com.example.wallet", owns=("wallet",),
                         reads=("contacts", "clipboard", "messages"))
    watch = watch_for(Spender(), [*MANIFESTS, wallet])
    assert dict(watch.skipped) == {"wallet": PHONEWORLD_ONLY["wallet"],
                                   "clipboard": PHONEWORLD_ONLY["clipboard"]}
    assert "messages" in watch.store_names() and "wallet" not in watch.store_names()
    text = describe_watch(watch)
    assert "not read: wallet (a wallet's balance" in text
    everything = watch_for(Spender(), [*MANIFESTS, wallet], readable=STORE_NAMES)
    assert everything.skipped == () and "wallet" in everything.store_names()
    assert watch_for(Spender(), [wallet], readable=ADB_STORES - {"files"}).dirs == ()
