"""The zh-CN locale: formats, the catalogues (complete for every app that declares zh-CN:
a walk over its screens finds no string that came neither from a catalogue nor from data),
the launcher's Chinese labels, and the locale carried by the env, the episode and the CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from datetime import date, datetime
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401 - registers the envs
from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.mockapps.video import fixtures as video_fixtures
from phone_gym.tasks.task import Episode
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.app import app_strings
from phone_gym.world.keyboard import LETTERS, SYMBOLS
from phone_gym.world.locale import (
    LOCALES,
    Catalogue,
    MissingString,
    count_forms,
    date_forms,
    format_date,
    format_money,
    money_forms,
    system_strings,
)
from phone_gym.world.state import WorldState

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


def seed_opentracks(device: Device) -> None:
    """Recorded activities (a fresh OpenTracks holds none: its list and pages need some)."""
    from phone_gym.mockapps.opentracks.fixtures import random_activity, write_activity
    rng = np.random.default_rng(0)
    for _ in range(3):
        write_activity(WorldState(device),
                       **random_activity(rng, date(2026, 10, 1), date(2026, 10, 14)))


def seed_files(files: Mapping[str, str]) -> Callable[[Device], None]:
    """A walk's setup writing ``files`` (path -> text) into shared storage."""
    def setup(device: Device) -> None:
        state = WorldState(device)
        for path, text in files.items():
            state.write_file(path, text.encode())
    return setup


CLIP = "duration: 0:04\nformat: H.264 1280x720\nframes: 山|水|云|雨"
#: Data seeded before walking an app whose fresh install shows (almost) nothing: shared
#: storage's pictures for the gallery, videos for VLC, activities for OpenTracks.
WALK_SETUP: dict[str, Callable[[Device], None]] = {
    "Gallery": seed_files({"/sdcard/DCIM/Camera/beach.jpg": "beach",
                           "/sdcard/Pictures/garden.jpg": "garden",
                           "/sdcard/Pictures/cat.png": "cat"}),
    "VLC": seed_files({"/sdcard/Movies/clip.mp4": CLIP, "/sdcard/Movies/trip.mkv": CLIP}),
    "OpenTracks": seed_opentracks,
    "Video": lambda device: video_fixtures.seed_others(WorldState(device),
                                                       np.random.default_rng(0), "", 1),
}


def walk(app: str, depth: int = 3, budget: int = 60) -> Iterator[tuple[str, Device]]:
    """Every screen of ``app`` reached by tapping clickable elements, ``depth`` taps deep
    (breadth first, by element id), as ``(path, device)`` with the device on that screen
    (seeded by ``WALK_SETUP`` first)."""
    seen: set[tuple[str, ...]] = set()
    queue: list[tuple[str, ...]] = [()]
    while queue and budget > 0:
        path = queue.pop(0)
        device = Device(APPS, locale="zh-CN")
        if app in WALK_SETUP:
            WALK_SETUP[app](device)
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


@pytest.mark.parametrize("locale", LOCALES)
def test_no_two_apps_share_a_launcher_label(locale: str) -> None:
    """open_app finds an app by its label: Trip.com (Travel) and 携程旅行 (Ctrip) apart."""
    seen: dict[str, str] = {}
    for a in APPS:
        label = a.manifest.label_in(locale).casefold()
        assert label not in seen, f"{a.name} and {seen[label]} are both {label!r} in {locale}"
        seen[label] = a.name
    assert seen["trip.com"] == "Travel" and seen.get("携程旅行", "Ctrip") != "Travel"


def test_the_kits_pickers_and_cjk_widths_in_zh() -> None:
    """The date picker's dates as Android's zh-CN writes them; a chip or toast of Chinese
    text is as wide as its characters draw (one takes about two Latin ones' room)."""
    from phone_gym.world.kit import CalendarState, MaterialDatePicker
    from phone_gym.world.kit.localize import localize_dates
    from phone_gym.world.layout import chip_width
    from phone_gym.world.widgets import Node

    picker = MaterialDatePicker(CalendarState(date(2026, 10, 15), date(2026, 10, 15)),
                                on_done=lambda _: None, on_cancel=lambda: None)
    localize_dates(picker)
    shown: list[str] = []

    def walk(node: Node) -> None:
        shown.extend(x for x in (node.text, node.desc) if x)
        for child in node.children:
            walk(child)
    walk(picker)
    assert {"10月15日周四", "2026年10月 ▾", "日", "六", "今天 10月15日星期四",
            "10月1日星期四"} <= set(shown), shown
    assert not any(m in x for x in shown for m in ("October", "Thu", "Sunday"))
    # three Han characters are as wide as about 5.4 Latin ones (an em each: 1 / CHAR_W)
    assert chip_width(Node("chip", text="Open ")) < chip_width(Node("chip", text="营业中")) \
        < chip_width(Node("chip", text="Open n"))
    device = Device(APPS, locale="zh-CN")
    device.open_app("Weather")
    device.toast_text = "已添加阿姆斯特丹"
    toast = next(e for e in ui_elements(device.frame()) if e.text == "已添加阿姆斯特丹")
    assert toast.bounds[2] - toast.bounds[0] > 16 * 30  # 8 characters, each ~2 Latin wide


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


def test_a_zh_phone_has_gboards_pinyin_keyboard() -> None:
    """The keyboard of a zh-CN phone is Gboard's 拼音 layout: the space bar names it and the
    keys beside it type full-width ，and 。; an en-US phone's is unchanged."""
    typed = {}
    for locale in ("zh-CN", "en-US"):
        device = Device(APPS, locale=locale)
        device.open_app("Notes")
        tap(device, "new_note")
        field = next(e for e in ui_elements(device.frame()) if e.class_name == EDIT_TEXT)
        device.step(PhoneAction("click", x=field.center_norm[0], y=field.center_norm[1]))
        space = next(e for e in ui_elements(device.frame()) if e.resource_id.endswith("key_space"))
        assert space.text == ("拼音" if locale == "zh-CN" else "space")
        for key in ("key_comma", "key_space", "key_a", "key_period"):
            tap(device, key)
        typed[locale] = next(e.text for e in ui_elements(device.frame())
                             if e.class_name == EDIT_TEXT)
    assert typed == {"zh-CN": "， a。", "en-US": ", a."}


def tap(device: Device, id_end: str) -> None:
    e = next(e for e in ui_elements(device.frame()) if e.resource_id.endswith(id_end))
    device.step(PhoneAction("click", x=e.center_norm[0], y=e.center_norm[1]))


def test_a_seeded_datum_comes_from_the_apps_data_catalogue() -> None:
    from phone_gym.world.locale import catalogue_datum

    data = {"zh-CN": {"Gym": "健身"}}
    assert catalogue_datum(data, "Clock", "clock", "zh-CN", "Gym") == "健身"
    assert catalogue_datum(data, "Clock", "clock", "en-US", "Yoga") == "Yoga"
    with pytest.raises(MissingString, match=r"Clock: no zh-CN datum for 'Yoga' \(add it to "
                                            r"clock/strings/zh-CN.data.json\)"):
        catalogue_datum(data, "Clock", "clock", "zh-CN", "Yoga")
    with pytest.raises(MissingString):
        catalogue_datum(data, "Clock", "clock", "zh-CN", "健身")
    assert catalogue_datum(data, "Clock", "clock", "zh-CN", "健身", kept_localized=True) == "健身"
