"""The simulated phone: device, widgets, layout, rendering and accessibility tree."""

from __future__ import annotations

from .app import App, Route
from .device import Device
from .system import Contact, Notification, SystemState
from .widgets import Node, Screen

__all__ = ["App", "Contact", "Device", "Node", "Notification", "Route", "Screen", "SystemState"]
