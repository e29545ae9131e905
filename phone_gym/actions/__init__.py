"""The fixed phone action space, shared by mock and real phones.

Coordinates are integers normalized to ``[0, 1000]`` over the screen: ``(0, 0)`` is
the top-left corner and ``(1000, 1000)`` the bottom-right one.

Scrolling follows AndroidWorld: ``scroll(direction="down")`` reveals what is *below*
(the content moves up, as a finger swiping upwards would move it). ``finish()`` is
``finish(status="success")`` and ``scroll(direction=...)`` scrolls at the screen centre
(``ACTION_DEFAULTS``). Model text is read up to ``MAX_ACTION_TEXT`` characters.

Three small modules: ``action`` (the ``PhoneAction`` type, its fields and checks),
``parser`` (model text and dicts to actions, literal-only; ``format_action``) and
``space`` (the Gymnasium ``Dict`` space and its samples).
"""

from __future__ import annotations

from .action import (
    ACTION_DEFAULTS,
    ACTION_DOCS,
    ACTION_FIELDS,
    ACTION_TYPES,
    BUTTONS,
    COORD_MAX,
    DIRECTIONS,
    FINISH_STATUSES,
    MAX_ACTION_TEXT,
    MAX_TEXT_LENGTH,
    MAX_WAIT_SECONDS,
    ActionError,
    PhoneAction,
    validate,
)
from .parser import ACTION_ALIASES, action_from_dict, format_action, parse_action, to_action
from .space import (
    RAW_TEXT,
    TEXT_CHARSET,
    BatchedPhoneActionSpace,
    PhoneActionSpace,
    action_from_sample,
    batch_actions,
    make_action_space,
    to_sample,
)

__all__ = [
    "ACTION_ALIASES", "ACTION_DEFAULTS", "ACTION_DOCS", "ACTION_FIELDS", "ACTION_TYPES",
    "BUTTONS", "COORD_MAX", "DIRECTIONS", "FINISH_STATUSES", "MAX_ACTION_TEXT",
    "MAX_TEXT_LENGTH", "MAX_WAIT_SECONDS", "RAW_TEXT", "TEXT_CHARSET", "ActionError",
    "BatchedPhoneActionSpace", "PhoneAction", "PhoneActionSpace", "action_from_dict",
    "action_from_sample", "batch_actions", "format_action", "make_action_space",
    "parse_action", "to_action", "to_sample", "validate",
]
