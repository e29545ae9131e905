"""Device profiles (issue 11, point 4): the virtual device answers ``pm`` with an AOSP
build's or a Pixel's packages, and ``RealPhoneEnv`` reads the phone's packages and Android
version at connect time, resolves each mock app's package and skips what the phone cannot
run.

What the fakes mirror: ``pm list packages`` and ``cmd package query-activities`` print as
AOSP ``PackageManagerShellCommand`` (``runListPackages``, ``runQueryIntentActivities``,
``printResolveInfo``); Pixels ship Google's Contacts, Clock and Files by Google, with
Google's DocumentsUI installed but without a launcher entry (AOSP DocumentsUI enables its
``LauncherActivity`` only where ``@bool/is_launcher_enabled`` is overlaid to true).
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv
from phone_gym.mockapps import APPS
from phone_gym.real.guard import SafetyGuard
from phone_gym.real.profile import (
    DeviceProfile,
    parse_components,
    parse_packages,
    read_profile,
    resolve_app,
)
from phone_gym.virtual import LocalBackend, VirtualAdbServer, VirtualPhone

LAUNCHER_QUERY = ("cmd package query-activities --components -a android.intent.action.MAIN "
                  "-c android.intent.category.LAUNCHER")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "real_phone_check.py"


def out(phone: VirtualPhone, command: str) -> str:
    code, stdout, stderr = phone.shell(command)
    assert code == 0, (command, stderr)
    return stdout.decode()


def env_on(phone: VirtualPhone, **kwargs: Any) -> RealPhoneEnv:
    """The env on ``phone`` in process, its guard opted in to the SMS tasks' Messages app
    (``tests/real/test_guard_rules.py`` tests the guard itself)."""
    kwargs.setdefault("privileged_info", True)
    kwargs.setdefault("guard", SafetyGuard(allow_sensitive={"messaging"}))
    return RealPhoneEnv(backend=LocalBackend(phone), settle=0.0, screenshot=False, **kwargs)


def with_sdk(phone: VirtualPhone, sdk: int, release: str) -> VirtualPhone:
    phone.properties["ro.build.version.sdk"] = str(sdk)
    phone.properties["ro.build.version.release"] = release
    return phone


# --- the virtual device's profiles -------------------------------------------------------
def test_pm_lists_each_profiles_packages() -> None:
    pixel = parse_packages(out(VirtualPhone(profile="pixel"), "pm list packages"))
    aosp = parse_packages(out(VirtualPhone(profile="aosp"), "pm list packages"))
    assert {"com.google.android.contacts", "com.google.android.deskclock",
            "com.google.android.apps.nbu.files", "com.google.android.documentsui",
            "com.android.settings"} <= pixel
    assert "com.android.contacts" not in pixel and "com.android.deskclock" not in pixel
    assert {"com.android.contacts", "com.android.deskclock", "com.android.documentsui",
            "com.android.settings"} <= aosp
    assert not {"com.google.android.contacts", "com.google.android.deskclock",
                "com.google.android.documentsui"} & aosp
    with pytest.raises(ValueError, match="accepted: 'aosp', 'pixel'"):
        VirtualPhone(profile="samsung")


def test_launcher_query_shows_files_by_google_not_documentsui_on_a_pixel() -> None:
    phone = VirtualPhone(profile="pixel")
    text = out(phone, LAUNCHER_QUERY)
    assert "com.google.android.contacts/.MainActivity" in text.splitlines()
    launchable = parse_components(text)
    assert launchable is not None and "com.google.android.apps.nbu.files" in launchable
    assert "com.google.android.documentsui" not in launchable  # installed, no launcher entry
    code, _, err = phone.shell("monkey -p com.google.android.documentsui -c "
                               "android.intent.category.LAUNCHER 1")
    assert code != 0 and b"No activities found" in err
    assert "com.android.documentsui" in (parse_components(
        out(VirtualPhone(profile="aosp"), LAUNCHER_QUERY)) or ())


def test_query_and_resolve_activity_print_as_package_manager_shell_command() -> None:
    phone = VirtualPhone(profile="aosp")
    full = out(phone, "pm query-activities -a android.intent.action.SET_ALARM")
    assert full.startswith("1 activities found:\n  Activity #0:\n    priority=0 ")
    assert "    ActivityInfo:\n      name=com.android.deskclock.MainActivity\n" in full
    brief = out(phone, "cmd package resolve-activity --brief -a android.intent.action.MAIN "
                       "-c android.intent.category.LAUNCHER -p com.android.settings")
    assert brief.splitlines() == [
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true",
        "com.android.settings/.MainActivity"]
    assert out(phone, "pm query-activities -a android.intent.action.NOPE") == \
        "No activities found\n"
    assert out(phone, "pm resolve-activity -a android.intent.action.MAIN -p no.such") == \
        "No activity found\n"
    assert parse_components("No activities found\n") == frozenset()
    assert parse_components("1 activities found:\n  Activity #0:\n") is None


# --- reading a phone and resolving its apps ----------------------------------------------
@pytest.mark.parametrize(("profile", "expected"), [
    ("pixel", {"Contacts": "com.google.android.contacts",
               "Clock": "com.google.android.deskclock",
               "Files": "com.google.android.apps.nbu.files", "Settings": "com.android.settings"}),
    ("aosp", {"Contacts": "com.android.contacts", "Clock": "com.android.deskclock",
              "Files": "com.android.documentsui", "Settings": "com.android.settings"}),
])
def test_the_env_resolves_each_apps_package_on_the_phone(profile: str,
                                                          expected: dict[str, str]) -> None:
    phone = VirtualPhone(profile=profile)
    profile_read = read_profile(LocalBackend(phone))
    assert (profile_read.sdk, profile_read.release) == (34, "14")
    env = env_on(phone, task="ContactsCreate", packages={"Markor": "net.gsantner.markor"})
    env.reset(seed=0)
    assert {app: env.packages[app] for app in expected} == expected
    assert env.packages["Markor"] == "net.gsantner.markor" and env.skipped == {}
    _, _, _, _, info = env.step('open_app(app="Contacts")')
    assert info["action_error"] is None and phone.device.foreground == "Contacts"
    assert info["package"] == expected["Contacts"]


def test_a_package_given_by_the_caller_is_kept() -> None:
    env = env_on(VirtualPhone(profile="pixel"), task="ContactsCreate",
                 packages={"Contacts": "com.example.mycontacts"})
    env.read_profile()
    assert env.packages["Contacts"] == "com.example.mycontacts"


def test_documentsui_without_a_launcher_entry_does_not_count() -> None:
    phone = DeviceProfile("p", 34, "14", frozenset({"com.google.android.documentsui"}),
                          frozenset({"com.android.settings"}))
    package, why = resolve_app(phone, ("com.google.android.apps.nbu.files",
                                       "com.google.android.documentsui"))
    assert package is None and why == ("com.google.android.documentsui is installed but has "
                                       "no launcher entry")
    unknown = DeviceProfile("p", 34, "14", frozenset({"com.google.android.documentsui"}), None)
    assert resolve_app(unknown, ("com.google.android.documentsui",))[0] == \
        "com.google.android.documentsui"  # no launcher list: installed is enough


# --- templates a phone cannot run ---------------------------------------------------------
def test_android_11_skips_the_clock_templates_with_a_reason() -> None:
    phone = with_sdk(VirtualPhone(profile="pixel"), 30, "11")
    env = env_on(phone)
    seen = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seen.add(info["task_id"])
    clock = {t for t in REAL_TEMPLATES if t.startswith("Clock")}
    assert set(env.skipped) == clock and not seen & clock and len(seen) > 3
    assert all("needs Android 12 (API 31) or later" in why and "Android 11 (API 30)" in why
               for why in env.skipped.values())
    with pytest.raises(ValueError, match="'ClockCreateAlarm' cannot run on emulator-5554: "
                                         "needs Android 12"):
        env.reset(seed=0, options={"task": "ClockCreateAlarm"})
    with pytest.raises(ValueError, match="cannot run on .*needs Android 12"):
        env_on(phone, task="ClockDeleteAlarm").reset(seed=0)


def test_android_9_runs_nothing() -> None:
    env = env_on(with_sdk(VirtualPhone(profile="aosp"), 28, "9"))
    with pytest.raises(ValueError, match=r"no real-device task can run on emulator-5554: "
                                         r"RealPhone-v0 needs Android 10 \(API 29\) or later"):
        env.reset(seed=0)
    assert set(env.skipped) == set(REAL_TEMPLATES)


def test_a_missing_app_skips_its_templates() -> None:
    apps = [a for a in APPS if a.manifest.name != "Contacts"]
    env = env_on(VirtualPhone(apps=apps, profile="pixel"))
    env.reset(seed=0)
    contacts = {t for t in REAL_TEMPLATES if t.startswith("Contacts")}
    assert set(env.skipped) == contacts
    assert all(why.startswith("its app Contacts is not on emulator-5554: none of "
                              "com.google.android.contacts, com.android.contacts")
               for why in env.skipped.values())


# --- the full matrix on the AOSP profile, in process -------------------------------------
@pytest.mark.parametrize("task", sorted(REAL_TEMPLATES))
def test_template_on_the_aosp_profile(task: str) -> None:
    """Oracle, near misses and the no-op under "aosp" (over adb, ``tests/envs`` runs it
    under "pixel" and the oracle and no-op under "aosp")."""
    phone = VirtualPhone(profile="aosp")
    env = env_on(phone, task=task, ui_tree=True)
    for seed in (0, 1):
        env.reset(seed=seed)
        assert env.episode is not None
        for _ in range(env.episode.template.max_steps):
            _, reward, terminated, truncated, info = env.step(env.oracle_action())
            assert info["action_error"] is None, info["action_error"]
            if terminated or truncated:
                break
        assert reward == 1.0 and info["success"], info["verdict"]
        episode, template = env.episode, env.episode.template
        final = episode.host.snapshot(template)
        for miss in template.near_misses(episode.initial, final, episode.params,
                                         info["answer"]):
            assert not template.judge(episode.initial, copy.deepcopy(miss.state),
                                      episode.params, miss.answer, miss.status).success, miss.why
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step('finish(status="success")')
    done_at_start = env.episode.template.done_at_start  # a "...Verify" task: nothing to do
    assert terminated and reward == float(done_at_start)


# --- examples/real_phone_check.py ---------------------------------------------------------
def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("real_phone_check_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("profile", ["pixel", "aosp"])
def test_real_phone_check_prints_a_table(profile: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    assert "NOT YET RUN ON A PHYSICAL PHONE" in (example.__doc__ or "")
    phones = [VirtualPhone("new-phone", profile=profile),
              with_sdk(VirtualPhone("old-phone", profile=profile), 30, "11")]
    tasks = "ContactsCreate,FilesDeleteFile,ClockCreateAlarm"
    with VirtualAdbServer(phones) as server:
        new = example.main(["--serial", "new-phone", "--port", str(server.port),
                            "--tasks", tasks, "--timeout", "5", "--settle", "0"])
        first = capsys.readouterr().out.splitlines()
        old = example.main(["--serial", "old-phone", "--port", str(server.port),
                            "--tasks", tasks, "--timeout", "5", "--settle", "0"])
        second = capsys.readouterr().out.splitlines()
    assert new == 0 and old == 0
    # the system packages (the permission controller too), the pixel's DocumentsUI besides
    # Files by Google, one per app
    count = (10 if profile == "pixel" else 9) + len(APPS)
    assert first[0] == f"new-phone: Android 14 (API 34), {count} packages"
    assert first[1].split() == ["template", "result", "steps", "seconds", "note"]
    rows = {line.split()[0]: line.split() for line in first[3:-1]}
    assert {t: r[1] for t, r in rows.items()} == dict.fromkeys(tasks.split(","), "pass")
    assert all(int(r[2]) > 0 and float(r[3]) >= 0 for r in rows.values())
    assert first[-1] == "3 pass, 0 fail, 0 skipped"
    skipped = next(line for line in second if line.startswith("ClockCreateAlarm"))
    assert skipped.split()[1:4] == ["skipped", "0", "0.0"]
    assert "needs Android 12 (API 31) or later" in skipped and "Android 11 (API 30)" in skipped
    assert second[-1] == "2 pass, 0 fail, 1 skipped"


def test_real_phone_check_without_a_phone_is_one_line(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert load_example().main(["--port", "1", "--timeout", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err


def test_a_pixel_ships_adaptive_brightness_on_and_aosp_off() -> None:
    """Pixels' SettingsProvider overlay turns ``def_screen_brightness_automatic_mode`` on;
    AOSP's default is off. Adaptive brightness then moves ``screen_brightness`` by itself,
    also after a factory reset."""
    pixel, aosp = VirtualPhone("pixel-1", profile="pixel"), VirtualPhone("aosp-1", profile="aosp")
    mode = "settings get system screen_brightness_mode"
    assert pixel.shell(mode)[1] == b"1\n" and aosp.shell(mode)[1] == b"0\n"
    levels = {pixel.shell("settings get system screen_brightness")[1] for _ in range(12)}
    assert len(levels) > 1  # the system moved it
    pixel.reset()
    assert pixel.shell(mode)[1] == b"1\n"
