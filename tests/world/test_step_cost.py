"""What keeps a step that draws nothing cheap (issue 29): the nodes made once and shown in
many frames (keyboard, system bars, launcher icons) are not made into elements again, a
container is measured once per frame, and an action that names no element makes none. Each
check also holds the result to what the plain computation gives."""

from __future__ import annotations

import random

import pytest
from driving import tap

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import APPS
from phone_gym.world import Device, a11y, layout
from phone_gym.world import theme as T
from phone_gym.world.a11y import UIElement, element, ui_elements, worth_showing
from phone_gym.world.layout import Frame, measure, place_column, text_height
from phone_gym.world.widgets import Column, Node, Text


def plain_elements(device: Device) -> list[UIElement]:
    """The elements of the device's frame, each made by ``element`` (no memo)."""
    out: list[UIElement] = []
    for placed in device.frame().items:
        e = element(placed, len(out))
        if worth_showing(e):
            out.append(e)
    return out


def full(e: UIElement) -> tuple[object, ...]:
    """Every field of an element, those left out of ``==`` and ``short_id`` too."""
    return (e, e.kind, e.full_bounds, e.short_id, e.index)


def typing_device() -> Device:
    device = Device(APPS)
    device.launcher.open_drawer()
    device.invalidate()
    tap(device, id="search_apps")
    assert device.keyboard_shown
    return device


def test_shared_nodes_become_elements_once_and_stay_exact(monkeypatch:
                                                         pytest.MonkeyPatch) -> None:
    device = typing_device()
    first = ui_elements(device.frame())
    assert [full(e) for e in first] == [full(e) for e in plain_elements(device)]
    made = []
    real = a11y.element

    def counting(placed: layout.Placed, index: int = 0) -> UIElement:
        made.append(placed.node.kind)
        return real(placed, index)

    monkeypatch.setattr(a11y, "element", counting)
    tap(device, id="key_a")  # the query changes: a new frame, the same keyboard and bars
    second = ui_elements(device.frame())
    assert [e.text for e in second if e.short_id == "search_apps"] == ["a"]
    keys = [e for e in second if e.kind == "key"]
    assert len(keys) > 25
    assert "key" not in made and "nav_bar" not in made and "status_bar" not in made
    monkeypatch.setattr(a11y, "element", real)
    assert [full(e) for e in second] == [full(e) for e in plain_elements(device)]
    # the same key in both frames: equal, each with its own frame's index
    key_a = [e for e in first if e.short_id == "key_a"][0]
    again = [e for e in second if e.short_id == "key_a"][0]
    assert key_a is not again and key_a.bounds == again.bounds


def test_home_icons_and_bars_are_shared_and_exact() -> None:
    device = Device(APPS)
    first = ui_elements(device.frame())
    device.system.advance(120)  # the status bar's clock moves on
    device.invalidate()
    second = ui_elements(device.frame())
    assert [full(e) for e in second] == [full(e) for e in plain_elements(device)]
    clocks = [e.text for e in (*first, *second) if e.short_id == "status_bar"]
    assert len(clocks) == 2 and clocks[0] != clocks[1]
    icons = [p.node for p in device.frame().items if p.node.kind == "app_icon"]
    assert icons and all(a11y.SHARED in n.__dict__ for n in icons)


def test_containers_are_measured_once_per_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [Text(f"line {i}") for i in range(6)]
    tree = Column([Column([Column(texts[:3]), Column(texts[3:])])])
    expected = measure(tree, 1000)
    calls: list[Node] = []
    real = layout.text_height

    def counting(node: Node, width: int) -> int:
        calls.append(node)
        return real(node, width)

    monkeypatch.setattr(layout, "text_height", counting)
    frame = Frame()
    end = place_column(frame, [tree], 40, 1040, 0, (0, 0, 1080, 2400))
    assert end == expected
    # each text measured by its column (once, whatever the depth) and when placed
    assert len(calls) == 2 * len(texts)
    assert frame.heights is not None


def test_text_height_matches_wrapping() -> None:
    rng = random.Random(7)
    words = ["a", "bb", "word", "longerword", "x" * 40, "中文", "line\nbreak", ""]
    for _ in range(2000):
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 9)))
        style = rng.choice(["body", "caption", "title", "big", ""])
        width = rng.randrange(1, 1100)
        font = T.FONT.get(style or "body", T.FONT["body"])
        base = T.HEIGHTS.get(f"text:{style or 'body'}", T.HEIGHTS["text:body"])
        lines = len(T.wrap_text(text, width, font))
        assert text_height(Text(text, style=style), width) == base + (lines - 1) * int(
            font * 1.3), (text, style, width)


def test_short_id_is_set_as_elements_are_made() -> None:
    device = Device(APPS)
    for e in ui_elements(device.frame()):
        assert "short_id" in e.__dict__
        assert e.short_id == e.resource_id.split(":id/", 1)[-1]
    parsed = a11y.parse_xml(a11y.to_xml(device.frame()))
    assert [e.short_id for e in parsed] == [e.resource_id.split(":id/", 1)[-1] for e in parsed]


def test_an_action_without_an_index_makes_no_elements() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact", screenshot=False)
    env.reset(seed=0)
    frame = env.device.frame()
    assert frame.elements is None  # info["ui_elements"] is made on first access
    env.step({"action": "click", "x": 500, "y": 500})
    assert frame.elements is None
    obs, _, _, _, info = env.step({"action": "scroll", "direction": "down", "index": 0})
    assert info["action_error"] is None or "index" in info["action_error"]


def reference_element(placed: layout.Placed, index: int) -> UIElement:
    """``element`` as the dataclass makes it, from the node's properties."""
    node, package = placed.node, placed.package
    rid = f"{package or 'android'}:id/{node.id}" if node.id else ""
    kind = node.kind
    return UIElement(
        index=index, resource_id=rid, class_name=a11y.ANDROID_CLASS.get(kind, "android.view.View"),
        text="" if kind in a11y.NO_TEXT else node.text, content_desc=node.desc, package=package,
        bounds=placed.rect, bounds_norm=a11y.normalize(placed.rect),
        center_norm=a11y.center_of(placed.rect), clickable=node.clickable,
        long_clickable=node.long_clickable, scrollable=placed.scrollable,
        editable=node.editable, checkable=node.checkable, checked=bool(node.checked),
        focused=placed.focused, enabled=node.enabled, selected=node.selected, hint=node.hint,
        kind=kind, full_bounds=placed.full)


def test_elements_are_what_the_nodes_say() -> None:
    """``element`` reads the node's fields directly: the same element as its properties give,
    and ``ui_elements`` keeps exactly those worth showing."""
    env = PhoneWorldEnv(task=["ContactsAddContact", "ClockCreateAlarm", "SimpleSmsSend"],
                        screenshot=False)
    env.reset(seed=1)
    seen = 0
    for _ in range(30):
        frame = env.device.frame()
        expected: list[UIElement] = []
        for placed in frame.items:
            e = reference_element(placed, len(expected))
            assert full(element(placed, e.index)) == full(e)
            if worth_showing(e):
                expected.append(e)
        assert [full(e) for e in ui_elements(frame)] == [full(e) for e in expected]
        seen += len(expected)
        if any(env.step(env.oracle_action())[2:4]):
            env.reset()
    assert seen > 300


def test_keys_and_bars_are_placed_once() -> None:
    """The keyboard's keys and the system bars are placed once and the frames that show
    them share their ``Placed``s (and so their elements' fields, compared by identity)."""
    device = typing_device()
    first = device.frame()
    device.invalidate()  # laid out again, the same look
    second = device.frame()
    assert first is not second
    shared = {id(p.node): p for p in first.items
              if p.node.kind in ("key", "status_bar", "nav_bar", "icon")}
    again = [p for p in second.items if id(p.node) in shared]
    assert len(again) > 25 and all(p is shared[id(p.node)] for p in again)
    assert [full(e) for e in ui_elements(second)] == [full(e) for e in plain_elements(device)]


def test_a_step_that_only_moves_the_device_ui_keeps_the_view() -> None:
    """Focusing a field, scrolling and dropping the focus run no app code: the app's view
    made before still holds (no new one), and the frame is the one a new view gives."""
    env = PhoneWorldEnv(task="ContactsAddContact", screenshot=False)
    env.reset(seed=0)
    device = env.device
    while not any(e.editable for e in ui_elements(device.frame())):  # the new contact's form
        env.step(env.oracle_action())
    field = next(e for e in ui_elements(device.frame()) if e.editable and not e.focused)
    screen = device.screen()
    x, y = field.center_norm
    for action in ({"action": "click", "x": x, "y": y}, {"action": "press", "button": "back"},
                   {"action": "scroll", "direction": "down", "x": 500, "y": 500}):
        env.step(action)
        kept = [full(e) for e in ui_elements(device.frame())]
        assert device.screen() is screen, action
        device._screen = device._frame = None  # a new view, laid out again
        assert [full(e) for e in ui_elements(device.frame())] == kept
        screen = device.screen()
    assert any(e.focused for e in ui_elements(device.frame())) is False
    env.step({"action": "click", "x": x, "y": y})
    env.step({"action": "type", "text": "Ann"})  # the app's code ran: a new view
    assert device.screen() is not screen
