"""Helpers for tests that drive a ``Device`` with actions, finding widgets like an oracle."""

from __future__ import annotations

from collections.abc import Iterator

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.oracle import Driver
from phone_gym.world import Device


def act(device: Device, action: PhoneAction) -> None:
    """Carry out one action; it must not fail."""
    error = device.step(action)
    assert error is None, error


def drive(device: Device, actions: Iterator[PhoneAction]) -> None:
    """Carry out a driver helper's actions (the helper looks at the fresh screen each time)."""
    for action in actions:
        act(device, action)


def tap(device: Device, text: str | None = None, **query: str) -> None:
    """Click a widget, scrolling to it first."""
    drive(device, Driver(device).tap(text, **query))


def long_press(device: Device, text: str | None = None, **query: str) -> None:
    drive(device, Driver(device).long_press(text, **query))


def fill(device: Device, field_id: str, text: str) -> None:
    drive(device, Driver(device).fill(field_id, text))


def press(device: Device, button: str) -> None:
    act(device, PhoneAction("press", button=button))


def open_app(device: Device, name: str) -> None:
    act(device, PhoneAction("open_app", app=name))


def type_text(device: Device, text: str) -> None:
    act(device, PhoneAction("type", text=text))


def shown(device: Device, text: str | None = None, **query: str) -> bool:
    """Whether a matching widget is on screen now."""
    return Driver(device).find(text, **query) is not None
