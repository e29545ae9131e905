"""Implicit intents on the virtual phone: ``am start`` resolves them to the apps whose
manifests answer them, as PackageManager does, and shows AOSP's resolver dialog where
several do (``phone_gym.virtual.resolver``); the app that gets one shows what it carries."""

from __future__ import annotations

import re

import pytest

from phone_gym.virtual.phone import VirtualPhone
from phone_gym.virtual.resolver import ACTIVITY, candidates, matches
from phone_gym.world.a11y import parse_xml

VIEW, SEND = "android.intent.action.VIEW", "android.intent.action.SEND"
CHROME, DIALER = "com.android.chrome", "com.google.android.dialer"
MESSAGES, GMAIL = "com.simplemobiletools.smsmessenger", "com.google.android.gm"
MAPS, OSMAND = "com.google.android.apps.maps", "net.osmand"
RESOLVER = f"android/{ACTIVITY}"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode(), err.decode()


def focus(phone: VirtualPhone) -> str:
    """The focused window, as ``dumpsys window`` names it."""
    found = re.search(r"mCurrentFocus=Window\{\S+ u0 (\S+)\}", run(phone, "dumpsys window")[1])
    assert found is not None
    return found.group(1)


def texts(phone: VirtualPhone) -> list[str]:
    return [n.text for n in parse_xml(phone.ui_xml()) if n.text]


def node(phone: VirtualPhone, text: str) -> dict[str, str]:
    """The attributes of the dump's node with ``text``."""
    for found in re.finditer(r"<node ([^>]*)/?>", phone.ui_xml()):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', found.group(1)))
        if attrs.get("text") == text:
            return attrs
    raise AssertionError(f"no node {text!r} in the dump")


def tap(phone: VirtualPhone, text: str) -> None:
    x0, y0, x1, y1 = map(int, re.findall(r"\d+", node(phone, text)["bounds"]))
    assert run(phone, f"input tap {(x0 + x1) // 2} {(y0 + y1) // 2}")[0] == 0


def start(phone: VirtualPhone, args: str) -> str:
    code, out, err = run(phone, f"am start {args}")
    assert code == 0 and "Error" not in out + err, (out, err)
    return out


# --- one app answers: it gets the intent ----------------------------------------------------
def test_a_web_address_opens_in_chrome(phone: VirtualPhone) -> None:
    out = start(phone, f"-a {VIEW} -d 'https://example.com/a?b=c'")
    assert out == f"Starting: Intent {{ act={VIEW} dat=https://example.com/... }}\n"
    app = phone.device.current_app
    assert app is not None and app.package == CHROME and focus(phone).startswith(CHROME)
    assert "https://example.com/a?b=c" in texts(phone)  # the address bar (the phone is offline)
    start(phone, "-a android.intent.action.VIEW -c android.intent.category.BROWSABLE "
                 "-d http://example.org")  # a browsable link too
    assert focus(phone).startswith(CHROME)


def test_dial_types_the_number_on_the_keypad(phone: VirtualPhone) -> None:
    calls = len(phone.device.system.calls)
    out = start(phone, "-a android.intent.action.DIAL -d tel:555-0123")
    assert "dat=tel:xxx-xxxx" in out  # Uri.toSafeString hides the number
    assert focus(phone).startswith(DIALER) and "555-0123" in texts(phone)
    assert len(phone.device.system.calls) == calls  # dialled, not called
    start(phone, "-a android.intent.action.DIAL")  # no number: the keypad
    assert focus(phone).startswith(DIALER) and "Keypad" in texts(phone)
    start(phone, f"-a {VIEW} -d tel:%2B41791234567")  # VIEW tel: too, the number decoded
    assert "+41791234567" in texts(phone)


def test_sendto_smsto_opens_a_new_conversation_without_sending(phone: VirtualPhone) -> None:
    before = len(phone.device.system.messages)
    out = start(phone, "-a android.intent.action.SENDTO -d smsto:5550123 --es sms_body 'On my way'")
    assert "dat=smsto:xxxxxxx (has extras)" in out
    assert focus(phone).startswith(MESSAGES)
    shown = texts(phone)
    assert "New conversation" in shown and "5550123" in shown and "On my way" in shown
    assert len(phone.device.system.messages) == before
    start(phone, f"-a {VIEW} -d 'sms:5550199?body=Hi'")
    assert "5550199" in texts(phone) and "Hi" in texts(phone)


def test_mailto_opens_compose(phone: VirtualPhone) -> None:
    start(phone, "-a android.intent.action.SENDTO -d 'mailto:ann@example.com?subject=Hello'")
    assert focus(phone).startswith(GMAIL)
    assert {"ann@example.com", "Hello"} <= set(texts(phone))


def test_what_no_app_answers_is_not_resolved(phone: VirtualPhone) -> None:
    for args in (f"-a {SEND} --es android.intent.extra.TEXT x",  # a share names a type
                 "-a android.intent.action.SENDTO",  # SENDTO names a scheme
                 f"-a {VIEW} -d market://details?id=x",  # no store app
                 f"-a {VIEW} -c android.intent.category.OPENABLE -d geo:1,2",
                 f"-a {SEND} -t text/plain -c android.intent.category.BROWSABLE"):
        code, _, err = run(phone, f"am start {args}")
        assert code == 1 and "Error: Activity not started, unable to resolve Intent" in err, args
    assert phone.device.current_app is None and phone.overlays.cover() is None


def test_resolution_follows_the_manifests(phone: VirtualPhone) -> None:
    names = [c.package for c in candidates(phone, VIEW, "geo:1,2", None, [])]
    assert names == [MAPS, OSMAND]  # by label: "Google Maps", "OsmAnd"
    assert [c.package for c in candidates(phone, SEND, None, "text/plain", [])] == [
        GMAIL, MESSAGES]
    assert [c.package for c in candidates(phone, "android.intent.action.SET_ALARM", None, None,
                                          [])] == ["com.google.android.deskclock"]
    manifest = phone.device.apps.class_of(CHROME).manifest  # type: ignore[union-attr]
    assert matches(manifest, None, "https://x.org", None, [])  # a null action matches
    assert not matches(manifest, SEND, "https://x.org", None, [])
    few = VirtualPhone(apps=[a for a in phone.device.app_classes if a.package != OSMAND])
    start(few, f"-a {VIEW} -d geo:47.14,9.52")  # only Maps left: no dialog
    assert focus(few).startswith(MAPS)


# --- several answer: the resolver dialog -----------------------------------------------------
def test_geo_shows_the_resolver_and_starts_the_app_picked(phone: VirtualPhone) -> None:
    out = start(phone, f"-W -a {VIEW} -d 'geo:47.14151,9.52154?q=Vaduz'")
    assert f"Activity: {RESOLVER}\n" in out
    assert focus(phone) == RESOLVER and phone.device.current_app is None
    assert texts(phone) == ["Open with", "Google Maps", "OsmAnd", "Just once", "Always"]
    assert node(phone, "Just once")["enabled"] == "false"
    tap(phone, "Just once")  # nothing picked yet: nothing happens
    assert focus(phone) == RESOLVER
    tap(phone, "OsmAnd")  # a first tap picks the row
    assert node(phone, "OsmAnd")["checked"] == "true" and node(phone, "Just once")[
        "enabled"] == "true" and focus(phone) == RESOLVER
    tap(phone, "Just once")
    assert focus(phone).startswith(OSMAND) and "Vaduz" in texts(phone)  # its search for q=
    run(phone, "input keyevent 3")
    start(phone, f"-a {VIEW} -d geo:47.16498,9.50867")
    tap(phone, "Google Maps")
    tap(phone, "Google Maps")  # a second tap on the picked row starts it
    assert focus(phone).startswith(MAPS)
    log = run(phone, "logcat -d -s ActivityTaskManager")[1]
    assert f"cmp={RESOLVER}}} with LAUNCH_MULTIPLE from uid 2000" in log
    assert re.search(r"START u0 \{act=android.intent.action.VIEW dat=geo:47.16498,9.50867 "
                     rf"flg=0x10000000 cmp={MAPS}/.MainActivity\}} with LAUNCH_MULTIPLE from "
                     r"uid 1000 ", log)  # the resolver starts it, as the system


def test_back_home_or_another_start_closes_the_resolver(phone: VirtualPhone) -> None:
    for leave in ("input keyevent 4", "input keyevent 3", "am start -n com.example.notes/."
                  "MainActivity", "monkey -p com.android.settings 1"):
        start(phone, f"-a {VIEW} -d geo:1,2")
        assert focus(phone) == RESOLVER
        assert run(phone, leave)[0] == 0
        assert phone.overlays.cover() is None and focus(phone) != RESOLVER, leave
        assert phone.device.foreground not in ("Maps", "OsmAnd"), leave


def test_always_remembers_the_choice_until_a_factory_reset(phone: VirtualPhone) -> None:
    start(phone, f"-a {VIEW} -d geo:47.14151,9.52154")
    tap(phone, "OsmAnd")
    tap(phone, "Always")
    assert focus(phone).startswith(OSMAND) and "47.14151, 9.52154" in texts(phone)  # its page
    run(phone, "input keyevent 3")
    start(phone, f"-a {VIEW} -d geo:47.06659,9.50251")  # no dialog any more
    assert focus(phone).startswith(OSMAND) and "47.06659, 9.50251" in texts(phone)
    resolved = run(phone, f"pm resolve-activity --components -a {VIEW} -d geo:1,2")[1]
    assert resolved == f"{OSMAND}/.MainActivity\n"
    start(phone, f"-a {SEND} -t text/plain --es android.intent.extra.TEXT x")
    assert focus(phone) == RESOLVER  # remembered for geo: only
    phone.reset()
    start(phone, f"-a {VIEW} -d geo:1,2")
    assert focus(phone) == RESOLVER


def test_a_share_asks_and_the_app_gets_the_text(phone: VirtualPhone) -> None:
    before = len(phone.device.system.messages)
    start(phone, f"-a {SEND} -t text/plain --es android.intent.extra.TEXT 'Dinner at 8?'")
    assert texts(phone) == ["Share", "Gmail", "SMS Messenger", "Just once", "Always"]
    tap(phone, "SMS Messenger")
    tap(phone, "Just once")
    assert focus(phone).startswith(MESSAGES) and "Dinner at 8?" in texts(phone)
    run(phone, "input keyevent 3")
    start(phone, f"-a {SEND} -t text/plain --es android.intent.extra.TEXT 'Notes' "
                 "--es android.intent.extra.SUBJECT Minutes")
    tap(phone, "Gmail")
    tap(phone, "Gmail")
    assert focus(phone).startswith(GMAIL) and {"Minutes", "Notes"} <= set(texts(phone))
    assert len(phone.device.system.messages) == before  # nothing sent by itself


def test_package_manager_queries_agree(phone: VirtualPhone) -> None:
    listed = run(phone, f"pm query-activities --components -a {VIEW} -d geo:1,2")[1]
    assert sorted(listed.split()) == [f"{MAPS}/.MainActivity", f"{OSMAND}/.MainActivity"]
    brief = run(phone, f"pm resolve-activity --brief -a {VIEW} -d geo:1,2")[1].splitlines()
    assert brief[1] == RESOLVER and "isDefault=false" in brief[0]
    assert run(phone, f"pm resolve-activity --components -a {VIEW} -d https://a.org")[1] == \
        f"{CHROME}/.MainActivity\n"


def test_the_resolver_draws_over_the_screen(phone: VirtualPhone) -> None:
    before = phone.screenshot()
    start(phone, f"-a {VIEW} -d geo:1,2")
    shot = phone.screenshot()
    assert shot.shape == before.shape and (shot != before).any()
    assert shot[100:200].mean() < before[100:200].mean()  # the screen around it dimmed
