"""Public fixtures of Clipper: putting text on the clipboard (PhoneWorld: the system's
clipboard; a real phone's shell cannot write it)."""

from __future__ import annotations

from ...verifiers.state import DeviceState
from ...world.state import WorldState

COLLECTION = "clipboard"


def put_clipboard(state: DeviceState, text: str) -> None:
    """Put ``text`` on the clipboard (PhoneWorld only: ``TypeError`` elsewhere)."""
    if not isinstance(state, WorldState):
        raise TypeError("only PhoneWorld can write the clipboard in a setup")
    state.set_clipboard(text)
