"""The screen kit's bottom navigation (``kit.bottomnav``): Material 3's NavigationBar and
WeChat's bar, their accessibility (as Android's BottomNavigationView) and their pixels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from driving import act
from test_kit import check_accessible, element, region, render, start

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Route, Screen
from phone_gym.world.kit import BottomNav
from phone_gym.world.manifest import AppLook, AppManifest
from phone_gym.world.theme import make_palette
from phone_gym.world.widgets import Text, TopBar

LABELS = ("Chats", "Contacts", "Discover", "Me")
ICONS = ("chat_bubble", "contacts", "explore", "person")
GREEN = (7, 193, 96)


@dataclass
class NavUi:
    tab: str = "Chats"


class NavApp(App):
    manifest = AppManifest("Nav", "com.example.nav",
                           look=AppLook(light=make_palette((11, 87, 208))))
    ui: NavUi

    def initial_ui(self) -> NavUi:
        return NavUi()

    def select(self, tab: str) -> None:
        self.ui.tab = tab

    def view(self, route: Route) -> Screen:
        return Screen(top_bar=TopBar(self.ui.tab), content=[Text(f"{self.ui.tab} page")],
                      bottom=BottomNav(LABELS, ICONS, self.ui.tab, self.select,
                                       style=self.manifest.look.nav_style))


class WeChatNavApp(NavApp):
    manifest = AppManifest("WeNav", "com.example.wenav", look=AppLook(
        light=make_palette(GREEN, bg=(237, 237, 237)), navigation="bottom_bar",
        nav_items=LABELS, nav_style="wechat"))


def tap(device: object, rid: str) -> None:
    x, y = element(device, rid).center_norm  # type: ignore[arg-type]
    act(device, PhoneAction("click", x=x, y=y))  # type: ignore[arg-type]


def near(pixels: np.ndarray, color: tuple[int, int, int], tol: int = 6) -> int:
    """How many pixels are within ``tol`` of ``color``."""
    diff = np.abs(pixels.astype(int) - np.array(color)).max(axis=-1)
    return int((diff <= tol).sum())


def test_each_destination_is_a_clickable_item_with_its_label_and_selected_state() -> None:
    device = start(NavApp)
    check_accessible(device)
    items = [element(device, f"tab_{label.lower()}") for label in LABELS]
    assert [e.text for e in items] == list(LABELS)
    assert [e.content_desc for e in items] == list(LABELS)
    assert all(e.clickable for e in items)
    assert [e.selected for e in items] == [True, False, False, False]
    # side by side, in equal shares, at the bottom above the system's navigation bar
    assert len({e.bounds[1] for e in items}) == 1 and items[0].bounds[1] > 1800
    assert [e.bounds[0] for e in items] == sorted(e.bounds[0] for e in items)
    tap(device, "tab_discover")
    assert element(device, "tab_discover").selected
    assert not element(device, "tab_chats").selected
    assert element(device, "toolbar").text == "Discover"


def test_the_selected_destination_sits_on_the_palettes_pill() -> None:
    device = start(NavApp)
    pal = NavApp.manifest.look.light
    image = render(device)
    chats = region(image, element(device, "tab_chats").bounds)
    me = region(image, element(device, "tab_me").bounds)
    assert near(chats, pal.selected, 2) > 400  # the tonal pill behind the icon
    assert near(me, pal.selected, 2) == 0
    assert near(chats, pal.primary, 30) > 20  # the selected icon in the accent
    assert near(me, pal.primary, 30) == 0
    tap(device, "tab_me")
    image = render(device)
    assert near(region(image, element(device, "tab_me").bounds), pal.selected, 2) > 400


def test_wechat_style_marks_the_selected_tab_green_without_a_pill() -> None:
    device = start(WeChatNavApp)
    pal = WeChatNavApp.manifest.look.light
    image = render(device)
    chats = region(image, element(device, "tab_chats").bounds)
    me = region(image, element(device, "tab_me").bounds)
    assert near(chats, GREEN, 30) > 200 and near(me, GREEN, 30) == 0
    assert near(chats, pal.selected, 2) == 0  # no indicator
    material = start(NavApp)
    assert not np.array_equal(render(material)[-300:], image[-300:])


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"labels": ("One",), "icons": ("home",)}, "1 destinations; accepted: 2 to 5"),
    ({"labels": tuple("ABCDEF"), "icons": ("home",) * 6}, "6 destinations"),
    ({"icons": ("chat_bubble", "contacts")}, "2 icons for 4 labels"),
    ({"icons": ("chat_bubble", "contacts", "explore", "persn")}, "'persn' is not a Material"),
    ({"icons": {"Chats": "home"}}, "no icon for"),
    ({"selected": "Moments"}, "selected 'Moments'; accepted: Chats, Contacts"),
    ({"style": "ios"}, "style 'ios'; accepted: material, wechat"),
    ({"labels": ("A", "A", "B"), "icons": ("home",) * 3, "selected": "A"}, "must differ"),
])
def test_bad_arguments_name_what_is_accepted(kwargs: dict, match: str) -> None:
    args = {"labels": LABELS, "icons": ICONS, "selected": "Chats", "style": "material"} | kwargs
    with pytest.raises(ValueError, match=match):
        BottomNav(args["labels"], args["icons"], args["selected"], lambda _: None,
                  style=args["style"])


def test_icons_may_be_given_by_label_and_a_look_names_its_bar_style() -> None:
    bar = BottomNav(LABELS, dict(zip(LABELS, ICONS, strict=True)), "Me", lambda _: None)
    assert [t.glyph for t in bar.children] == list(ICONS)
    assert [t.selected for t in bar.children] == [False, False, False, True]
    with pytest.raises(ValueError, match="nav_style 'cupertino'; accepted: material, wechat"):
        AppLook(nav_style="cupertino")


def test_chinese_labels_take_their_icons_name_as_id() -> None:
    bar = BottomNav(("首页", "订单", "Me 我的"), ("home", "list", "person"), "首页", print)
    assert [t.id for t in bar.children] == ["tab_home", "tab_list", "tab_me"]
