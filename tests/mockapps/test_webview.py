"""The WeChat Browser (the web view of Chat) driven through phone actions: a link message
opens its page, slow pages load (``wait``), links between pages, forms (one page and
multi-page), coupons, the page menu (copy link, share to chat, font size, Chrome), back to
the chat, and ``check_app``."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, fill, long_press, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.app import ChatApp
from phone_gym.mockapps.chat.fixtures import add_account, add_article, seed_social
from phone_gym.mockapps.webview.app import LOAD_SECONDS, WebViewApp, domain
from phone_gym.mockapps.webview.fixtures import add_page, answers_are, share_link
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState

BASE = "https://events.weixin-h5.cn/run"


def web_of(device: Device) -> WebViewApp:
    app = device.app("WebView")
    assert isinstance(app, WebViewApp)
    return app


def chat_of(device: Device) -> ChatApp:
    app = device.app("Chat")
    assert isinstance(app, ChatApp)
    return app


@pytest.fixture
def device() -> Device:
    """Friends Li Na and Tom Reed; Li Na sent a link to a (slow) event page with a form, a
    link on it to a two-page registration, and a coupon page."""
    dev = Device(APPS)
    state = WorldState(dev)
    chats = seed_social(state, np.random.default_rng(0), ["Li Na", "Tom Reed"])
    reg2 = add_page(state, f"{BASE}/reg/2", "Registration (2/2)", "## Step 2",
                    form="Run registration", fields=(("size", "Size", "S/M/L"),),
                    submit="Finish")
    add_page(state, f"{BASE}/reg", "Registration (1/2)", "## Step 1", form="Run registration",
             fields=(("name", "Name", ""),), next=reg2.url)
    add_page(state, f"{BASE}/coupons", "Coupons", "# Coupons",
             coupons=(("Cafe: ¥5 off", "On orders over ¥30"),))
    page = add_page(state, BASE, "Night Run", f"# Night Run\n\nJoin us.\n\n"
                    f"[Register as a runner]({BASE}/reg)\n\n[Coupons]({BASE}/coupons)",
                    form="Night Run sign-up", submit="Sign up", slow=True,
                    fields=(("name", "Your name", ""), ("people", "People", "1/2/3")))
    share_link(state, chats["Li Na"], "Li Na", page)
    return dev


def open_link(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, "Li Na", kind="list_item")
    tap(device, "[Link] Night Run")


def test_a_link_message_opens_its_page_which_loads(device: Device) -> None:
    open_link(device)
    assert device.foreground == "WebView"
    assert shown(device, id="loading") and shown(device, "🔒 events.weixin-h5.cn")
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    assert not shown(device, id="loading") and shown(device, "Join us.")
    press(device, "back")  # the first page: back in the chat
    assert device.foreground == "Chat" and shown(device, "[Link] Night Run")


def test_sign_up_form_needs_every_field_then_submits(device: Device) -> None:
    open_link(device)
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    tap(device, id="submit")
    assert not web_of(device).data.submissions  # nothing filled in
    fill(device, "field_name", "Anna Berg")
    press(device, "back")
    tap(device, "2", kind="chip")
    tap(device, id="submit")
    (sub,) = web_of(device).data.submissions
    assert sub.form == "Night Run sign-up" and dict(sub.answers) == {"name": "Anna Berg",
                                                                    "people": "2"}
    assert shown(device, id="submitted")
    assert answers_are({"name": "anna berg", "people": "2"})(
        [list(pair) for pair in sub.answers])
    assert not answers_are({"people": "3"})(sub.answers)


def test_a_multi_page_form_keeps_the_answers_of_each_page(device: Device) -> None:
    open_link(device)
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    tap(device, "Register as a runner")
    fill(device, "field_name", "Tom Reed")
    press(device, "back")
    tap(device, id="submit")  # Next
    assert shown(device, "Registration (2/2)") and not web_of(device).data.submissions
    tap(device, "M", kind="chip")
    tap(device, id="submit")
    (sub,) = web_of(device).data.submissions
    assert sub.form == "Run registration"
    assert dict(sub.answers) == {"name": "Tom Reed", "size": "M"}


def test_claiming_a_coupon_once(device: Device) -> None:
    open_link(device)
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    tap(device, "Coupons")
    tap(device, id="claim_0")
    tap(device, id="claim_0")  # "Claimed": no second coupon
    assert [c.title for c in web_of(device).data.coupons] == ["Cafe: ¥5 off"]


def test_page_menu_copies_and_shares_the_link(device: Device) -> None:
    open_link(device)
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    tap(device, id="page_menu")
    tap(device, "Copy link")
    assert device.system.clipboard == BASE
    tap(device, id="page_menu")
    tap(device, "Share to chat")
    tap(device, "Tom Reed", kind="list_item")
    assert shown(device, "Send to Tom Reed?")
    tap(device, id="button_send")
    data = chat_of(device).data
    last = max(data.messages, key=lambda m: m.id)
    assert (last.kind, last.text, last.content, last.chat) == ("link", "Night Run", BASE, 2)


def test_font_size_and_open_in_chrome(device: Device) -> None:
    open_link(device)
    device.step(PhoneAction("wait", seconds=LOAD_SECONDS))
    tap(device, id="page_menu")
    tap(device, "Font size")
    tap(device, "Large")
    assert web_of(device).ui.font == "Large"
    tap(device, id="page_menu")
    tap(device, "Open in Chrome")
    assert device.foreground == "Chrome"


def test_forwarding_a_link_keeps_its_address(device: Device) -> None:
    open_app(device, "Chat")
    tap(device, "Li Na", kind="list_item")
    long_press(device, "[Link] Night Run")
    tap(device, "Forward", kind="menu_item")
    tap(device, "Tom Reed", kind="list_item")
    tap(device, id="button_send")
    last = max(chat_of(device).data.messages, key=lambda m: m.id)
    assert (last.kind, last.content, last.chat) == ("link", BASE, 2)


def test_official_account_articles_open_newest_first(device: Device) -> None:
    state = WorldState(device)
    account = add_account(state, "Metro Daily", "Daily updates")
    add_article(state, account, "Old news", f"{BASE}/coupons", "2026-09-01")
    add_article(state, account, "Night Run", BASE, "2026-09-05")
    open_app(device, "Chat")
    tap(device, id="tab_contacts")
    tap(device, id="official_accounts")
    tap(device, "Metro Daily", kind="list_item")
    new, old = Driver(device).find("Night Run"), Driver(device).find("Old news")
    assert new is not None and old is not None and new.rect[1] < old.rect[1]
    tap(device, "Old news", kind="list_item")
    assert device.foreground == "WebView" and shown(device, "Coupons")
    press(device, "back")
    assert device.foreground == "Chat" and shown(device, "Metro Daily")


def test_domain() -> None:
    assert domain("https://mp.weixin-h5.cn/s/a?b=1") == "mp.weixin-h5.cn"
    assert domain("not a url") == "not a url"


def test_open_app_refuses_the_web_view() -> None:
    dev = Device(APPS)
    error = dev.step(PhoneAction("open_app", app="WebView"))
    assert error is not None


def test_check_app() -> None:
    assert check_app("WebView", 1000).steps == 1000


def test_the_browser_speaks_chinese_in_zh_cn() -> None:
    """In zh-CN the page menu, the font sizes, a missing answer's toast and the done screen
    are WeChat's Chinese words; the page's own text is data and shows as written."""
    dev = Device(APPS, locale="zh-CN")
    state = WorldState(dev)
    add_page(state, BASE, "夜跑活动", "# 夜跑活动\n\n欢迎报名。", form="夜跑报名",
             fields=(("name", "姓名", ""),), submit="报名")
    web = web_of(dev)
    dev.open_app("Chat")
    web.open_link(BASE)
    dev.open_app("WebView")
    assert shown(dev, "夜跑活动") and shown(dev, "报名")
    tap(dev, id="page_menu")
    words = ("刷新", "复制链接", "在浏览器打开", "发送给朋友", "调整字体")
    assert all(shown(dev, w) for w in words)
    tap(dev, "调整字体")
    assert shown(dev, "标准") and shown(dev, "特大") and not shown(dev, "Standard")
    tap(dev, "取消")
    tap(dev, id="submit")
    assert shown(dev, "请填写：姓名")  # the toast
    fill(dev, "field_name", "王芳")
    tap(dev, id="submit")
    assert shown(dev, "已提交") and shown(dev, "感谢参与！您的答卷已提交。")
