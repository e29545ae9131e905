"""phone-gym's own action text: ``click(x=540, y=210)``, ``type(text="Bob")``, ...

Parsing is ``phone_gym.actions.parse_action`` (calls, JSON objects or a ``<tool_call>``,
literal-only, the last action in the text wins) and rendering is ``format_action``.
Coordinates are phone-gym's ``[0, 1000]`` whatever the screen size; every action type,
element indices included, round-trips exactly.
"""

from __future__ import annotations

from ..action import ACTION_TYPES, PhoneAction
from ..parser import format_action, parse_action
from .base import ActionFormat


class PhoneGymFormat(ActionFormat):
    """phone-gym's canonical call form (``parse_action`` / ``format_action``)."""

    name = "phone_gym"
    indices = True
    typing = frozenset({"point", "clear", "enter"})
    supported = frozenset(ACTION_TYPES)

    def _parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        return parse_action(text)

    def _render(self, action: PhoneAction, screen: tuple[int, int]) -> str:
        return format_action(action)


PHONE_GYM = PhoneGymFormat()
