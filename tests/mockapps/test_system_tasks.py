"""AndroidWorld's system tasks (``suites.aw_system``): the "...Verify" tasks pass when
nothing is done and fail when their switch is left the other way, the composite tasks score
half for one part, the launch tasks read the package on screen, and the apps they launch
are the ones installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phone_gym.actions import PhoneAction
from phone_gym.crossapp.system import TEMPLATES
from phone_gym.crossapp.system.tasks import APP_NAMES, BUILTIN, launchable
from phone_gym.mockapps import APPS, REGISTRY, Episode
from phone_gym.suites.aw_system import MAPPED
from phone_gym.tasks.aw import AW_START
from phone_gym.world import Device


def episode(task_id: str, seed: int = 0) -> tuple[Episode, Device]:
    device = Device(APPS)
    return Episode(REGISTRY.template(task_id), device, np.random.default_rng(seed)), device


def run(device: Device, ep: Episode, *actions: Any) -> None:
    for action in actions:
        for a in action if not isinstance(action, PhoneAction) else [action]:
            assert device.step(a) is None, a
            ep.observe(a)


def test_every_mapped_template_is_registered_on_aw_date() -> None:
    assert len(MAPPED) == 16
    for name, (task_id, differs) in MAPPED.items():
        task = REGISTRY.template(task_id)
        assert task.start == AW_START and differs, name
    assert {t.id for t in TEMPLATES} == {"OpenAppTaskEval", "TurnOnWifiAndOpenApp",
                                         "SystemCopyToClipboard"}


def test_launchable_apps_are_installed() -> None:
    found = launchable()
    assert {n for _, n, _ in found} >= set(BUILTIN)
    for aw_name, name, package in found:
        assert name in APP_NAMES[aw_name] and REGISTRY.app(name).manifest.package == package


@pytest.mark.parametrize("task_id", ["SystemWifiTurnOffVerify", "SystemBluetoothTurnOnVerify",
                                     "SystemBrightnessMaxVerify", "ClockStopWatchPausedVerify"])
def test_verify_tasks_pass_untouched_and_fail_when_changed(task_id: str) -> None:
    ep, device = episode(task_id)
    assert ep.template.done_at_start and ep.verify(None, "success").success
    assert not ep.verify(None, "infeasible").success
    if task_id == "ClockStopWatchPausedVerify":
        steps = [PhoneAction("open_app", app="Clock")]
        run(device, ep, *steps)
        run(device, ep, ep.driver().tap(id="tab_stopwatch"), ep.driver().tap("Start"))
    elif task_id == "SystemBrightnessMaxVerify":
        device.system.put_setting("system", "screen_brightness", "200")
    else:
        run(device, ep, PhoneAction("open_app", app="Settings"))
        page = "Connected devices" if "Bluetooth" in task_id else "Network & internet"
        run(device, ep, ep.driver().tap(page, kind="list_item"))
        if "Wifi" in task_id:
            run(device, ep, ep.driver().tap("Internet", kind="list_item"))
        label = "Bluetooth" if "Bluetooth" in task_id else "Wi-Fi"
        run(device, ep, ep.driver().tap(label, kind="toggle"))
        assert not ep.verify(None, "success").success  # flipped the wrong way
        run(device, ep, ep.driver().tap(label, kind="toggle"))
        assert ep.verify(None, "success").success  # and back: the same state
        return
    assert not ep.verify(None, "success").success


def test_composites_score_one_half_per_part() -> None:
    ep, device = episode("TurnOffWifiAndTurnOnBluetooth")
    assert ep.verify(None).progress == 0.0
    device.system.put_setting("global", "wifi_on", "0")
    half = ep.verify(None)
    assert half.progress == 0.5 and not half.success
    device.system.put_setting("global", "bluetooth_on", "1")
    assert ep.verify(None).success
    ep, device = episode("TurnOnWifiAndOpenApp", 1)
    run(device, ep, PhoneAction("open_app", app=ep.params["app"]))
    half = ep.verify(None)
    assert half.progress == 0.5 and not half.success


def test_open_app_reads_the_package_on_screen() -> None:
    for seed in range(6):
        ep, device = episode("OpenAppTaskEval", seed)
        assert ep.instruction == f"Open the {ep.params['app_name']} app."
        other = next(n for n in BUILTIN if n != ep.params["app"])
        run(device, ep, PhoneAction("open_app", app=other))
        assert not ep.verify(None).success
        run(device, ep, PhoneAction("open_app", app=ep.params["app"]))
        assert ep.verify(None).success
        run(device, ep, PhoneAction("press", button="home"))
        assert not ep.verify(None).success


def test_copy_to_clipboard_compares_text() -> None:
    ep, device = episode("SystemCopyToClipboard", 3)
    text = ep.params["clipboard_content"]
    assert device.system.clipboard == ep.params["before"] != text
    device.system.clipboard = f"  {text.upper()} "
    assert ep.verify(None).success
    device.system.clipboard = text[:-2]
    assert not ep.verify(None).success


def test_timer_entry_must_not_start() -> None:
    ep, device = episode("ClockTimerEntry", 2)
    answer, _ = ep.solve()
    assert ep.verify(answer).success
    run(device, ep, ep.driver().tap(id="timer_start"))
    assert not ep.verify(None).success
