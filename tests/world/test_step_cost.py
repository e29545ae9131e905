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
    assert icons and all(a11y._SHARED in n.__dict__ for n in icons)


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
