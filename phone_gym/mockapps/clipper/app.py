"""Clipper: a one-screen app that shows the clipboard and sets it, as the Clipper app
AndroidWorld uses (``ca.zgrs.clipper``) does.

The clipboard is the system's (``system.clipboard``, snapshot key ``clipboard``): what Copy
in any app writes, and what Paste reads. The app keeps only the text being typed (transient
``ClipperUi``): "Set clipboard" copies it onto the clipboard, "Clear" empties the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...world.app import App, Route
from ...world.system import SystemState
from ...world.widgets import Button, Row, Screen, Text, TextField, TopBar
from .manifest import MANIFEST


# --- state -------------------------------------------------------------------------------
@dataclass
class ClipperUi:
    """Transient state, lost on force-stop: the text typed."""

    text: str = ""


# --- updates -------------------------------------------------------------------------------
def set_clipboard(system: SystemState, text: str) -> bool:
    """Put ``text`` on the clipboard; False (nothing done) for empty text."""
    if not text:
        return False
    if system.clipboard != text:
        system.clipboard = text
    return True


# --- the app -------------------------------------------------------------------------------
class ClipperApp(App):
    manifest = MANIFEST

    ui: ClipperUi

    def initial_ui(self) -> ClipperUi:
        return ClipperUi()

    def type_text(self, text: str) -> None:
        self.ui.text = text

    def set_clip(self) -> None:
        if set_clipboard(self.system, self.ui.text):
            self.toast(self.t("Copied to clipboard"))
        else:
            self.toast(self.t("Type some text first"))

    def clear(self) -> None:
        self.ui.text = ""

    def view(self, route: Route) -> Screen:
        current, t = self.system.clipboard, self.t
        return Screen(top_bar=TopBar(t("Clipper")), content=[
            Text(t("Current clipboard"), style="caption", id="clipboard_title"),
            Text(current or t("(empty)"), id="clipboard_text", copyable=bool(current)),
            TextField(self.ui.text, self.type_text, hint=t("Text to copy"), id="clip_input",
                      label=t("Text to copy"), on_submit=self.set_clip),
            Row([Button(t("Clear"), self.clear, id="clear", style="secondary"),
                 Button(t("Set clipboard"), self.set_clip, id="set_clipboard")], id="buttons"),
        ])
