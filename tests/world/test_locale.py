"""The zh-CN locale: formats, the catalogues (complete for every app that declares zh-CN:
a walk over its screens finds no string that came neither from a catalogue nor from data),
the launcher's Chinese labels, and the locale carried by the env, the episode and the CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from datetime import date, datetime
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401 - registers the envs
from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.tasks.task import Episode
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.app import app_strings
from phone_gym.world.keyboard import LETTERS, SYMBOLS
from phone_gym.world.locale import (
    Catalogue,
    MissingString,
    count_forms,
    date_forms,
    format_date,
    format_money,
    money_forms,
    system_strings,
)

LATIN = re.compile(r"[A-Za-z]")
#: The on-screen keyboard's key labels (``world.keyboard``), both cases.
KEYBOARD_LABELS = {k for rows in (LETTERS, SYMBOLS) for row in rows for k in row} | \
    {k.upper() for k in "qwertyuiopasdfghjklzxcvbnm"}
EDIT_TEXT = "android.widget.EditText"
ZH_APPS = [a for a in APPS if "zh-CN" in a.manifest.locales]


# --- formats ------------------------------------------------------------------------------
def test_formats_follow_the_locale() -> None:
    day = date(2026, 10, 15)
    assert format_date(day, "zh-CN") == "2026年10月15日"
    assert format_date(day, "zh-CN", year=False, weekday=True) == "10月15日 星期四"
    assert format_date(day, "en-US") == "October 15, 2026"
    assert format_money(1250, "zh-CN") == "¥12.50"
    assert format_money(1250, "zh-CN", symbol=False) == "12.50元"
    assert format_money(123456, "en-US") == "$1,234.56"
    assert {"12.50元", "¥12.50", "12.5元"} <= set(money_forms(1250, "zh-CN"))
    assert "10月15日" in date_forms(day, "zh-CN")
    assert set(count_forms(3, "zh-CN")) == {"3", "三"}
    assert "两" in count_forms(2, "zh-CN")


def test_a_bad_locale_names_the_accepted_ones() -> None:
    with pytest.raises(ValueError, match="accepted: en-US, zh-CN"):
        Device(APPS, locale="zh-TW")
    with pytest.raises(ValueError, match="accepted: en-US, zh-CN"):
        gym.make("PhoneWorld-v0", locale="fr")


def test_a_missing_string_is_an_error_not_english(tmp_path: Any) -> None:
    (tmp_path / "zh-CN.json").write_text(json.dumps({"Save": "保存"}), encoding="utf-8")
    strings = Catalogue("demo", tmp_path, "zh-CN")
    assert strings.t("Save") == "保存"
    with pytest.raises(MissingString, match="no zh-CN string for 'Cancel'"):
        strings.t("Cancel")
    assert Catalogue("demo", tmp_path, "en-US").t("Cancel") == "Cancel"


# --- the phone in zh-CN -----------------------------------------------------------------------
def texts(device: Device) -> list[str]:
    return [e.text for e in ui_elements(device.frame()) if e.text]


def data_strings(value: Any) -> Iterator[str]:
    """Every string in a snapshot (records' fields), split into lines."""
    if isinstance(value, str):
        yield value
        yield from value.splitlines()
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from data_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from data_strings(v)


def allowed_texts(device: Device) -> set[str]:
    """What may show with Latin letters: catalogue values, labels, the phone's data."""
    ok = set(system_strings("zh-CN").strings.values())
    for a in APPS:
        ok.add(a.manifest.label_in("zh-CN"))
        if a in ZH_APPS:
            ok |= set(app_strings(a.cls, "zh-CN").strings.values())
    ok |= KEYBOARD_LABELS  # the keyboard's keys: Latin letters in every locale
    data = {e.text for e in ui_elements(device.frame()) if e.class_name == EDIT_TEXT}
    data |= set(data_strings(device.snapshot()))
    pieces = re.compile("|".join(re.escape(x) for x in sorted(data, key=len, reverse=True)
                                 if x and LATIN.search(x)) or "(?!)")
    ok |= {t for t in texts(device) if not LATIN.search(pieces.sub("", t))}  # data inside
    return ok | data


def untranslated(device: Device, where: str) -> list[str]:
    ok = allowed_texts(device)
    return [f"{where}: {t!r}" for t in texts(device) if LATIN.search(t) and t not in ok]


def test_the_system_ui_speaks_chinese() -> None:
    device = Device(APPS, locale="zh-CN")
    shown = texts(device)
    assert "微信" in shown and "10月15日 星期四" in shown and "所有应用" in shown
    bad = untranslated(device, "home")
    device.step(PhoneAction("scroll", x=500, y=600, direction="down"))  # the drawer
    assert "支付宝" in texts(device)
    bad += untranslated(device, "drawer")
    device.step(PhoneAction("press", button="home"))
    device.system.notify("Settings", "系统更新", "有可用的安全更新")
    device.set_shade(True)
    assert {"快捷设置", "WLAN", "蓝牙", "飞行模式"} <= set(texts(device))
    bad += untranslated(device, "shade")
    device.set_shade(False)
    device.step(PhoneAction("open_app", app="微信"))  # the Chinese label opens the app
    assert device.foreground == "Chat"
    device.step(PhoneAction("press", button="recents"))
    assert "最近使用的应用" in texts(device)
    bad += untranslated(device, "recents")
    assert not bad


def test_english_is_unchanged() -> None:
    device = Device(APPS)
    shown = texts(device)
    assert "WeChat" in shown and "All apps" in shown and "Thursday, October 15" in shown


def walk(app: str, depth: int = 3, budget: int = 60) -> Iterator[tuple[str, Device]]:
    """Every screen of ``app`` reached by tapping clickable elements, ``depth`` taps deep
    (breadth first, by element id), as ``(path, device)`` with the device on that screen."""
    seen: set[tuple[str, ...]] = set()
    queue: list[tuple[str, ...]] = [()]
    while queue and budget > 0:
        path = queue.pop(0)
        device = Device(APPS, locale="zh-CN")
        device.open_app(app)
        try:
            for step in path:
                e = next(e for e in ui_elements(device.frame()) if e.resource_id == step)
                device.step(PhoneAction("click", x=e.center_norm[0], y=e.center_norm[1]))
        except StopIteration:
            continue
        if device.foreground != app:
            continue
        key = tuple(sorted(texts(device)))
        if key in seen:
            continue
        seen.add(key)
        budget -= 1
        yield " > ".join(path) or "start", device
        if len(path) < depth:
            queue += [(*path, e.resource_id) for e in ui_elements(device.frame())
                      if e.clickable and e.resource_id and e.resource_id not in path
                      and e.resource_id != "navigation_bar"]


#: Apps whose fresh install has fewer screens to walk: WeChat's browser shows a page only
#: once a chat link opens one (its placeholder, capsule menu and its toast are all there is).
FEW_SCREENS = {"WebView": 4}


@pytest.mark.parametrize("app", [a.name for a in ZH_APPS])
def test_every_screen_of_a_zh_app_comes_from_its_catalogue(app: str) -> None:
    bad: list[str] = []
    screens = 0
    for path, device in walk(app):
        screens += 1
        bad += untranslated(device, f"{app} {path}")
    assert screens >= FEW_SCREENS.get(app, 6)
    assert not bad, "\n".join(bad)


def test_apps_that_declare_zh_have_a_catalogue() -> None:
    assert {"Settings"} <= {a.name for a in ZH_APPS}
    for a in ZH_APPS:
        assert app_strings(a.cls, "zh-CN").strings, a.name


def test_the_env_and_episode_carry_the_locale() -> None:
    env = gym.make("PhoneWorld-v0", apps="Settings", locale="zh-CN")
    _, info = env.reset(seed=3)
    inner: Any = env.unwrapped
    assert inner.device.system.locale == inner.episode.locale == "zh-CN"
    assert re.search(r"[\u4e00-\u9fff]", info["instruction"])
    assert all("zh-CN" in t.locales for t in inner.templates)
    assert len(inner.templates) >= 20
    inner.device.reset(datetime(2026, 10, 15))
    assert inner.device.system.locale == "zh-CN"  # kept across factory resets


def test_a_template_without_zh_refuses_a_zh_phone() -> None:
    template = next(t for t in REGISTRY.templates.values() if "zh-CN" not in t.locales)
    with pytest.raises(ValueError, match="does not run in locale 'zh-CN'"):
        Episode(template, Device(APPS, locale="zh-CN"), np.random.default_rng(0))


def test_zh_instructions_fill_their_params() -> None:
    env = gym.make("PhoneWorld-v0", task="SettingsSetDarkTheme", locale="zh-CN")
    seen = {env.reset(seed=s)[1]["instruction"] for s in range(8)}
    assert seen == {"在设置里打开深色主题。", "在设置里关闭深色主题。"}
