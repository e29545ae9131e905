"""Model-native action formats, converted both ways to ``PhoneAction``.

``get_format(name)`` (or ``FORMATS[name]``) gives an ``ActionFormat``: ``parse(text,
screen)`` reads a model's reply, ``render(action, screen)`` writes one, ``prompt()`` is the
system prompt template (``prompts/<name>.md``, package data) and ``system_prompt(instruction,
screen)`` fills it in. ``screen`` is ``(width, height)`` in pixels of the image the model saw
(``model_screen(w, h)`` gives it for models that resize their input).

Formats: ``phone_gym`` (phone-gym's own), ``qwen25vl`` and ``qwen3vl`` (Qwen ``mobile_use``
tool calls: resized-image pixels, and the 0-999 grid), ``uitars`` (UI-TARS-1.5, resized-image
pixels; ``UITarsFormat(coords="relative")`` for earlier UI-TARS), ``glm`` (AutoGLM) and
``androidworld`` (AndroidWorld's JSON actions). See docs/action-formats.md.
"""

from __future__ import annotations

import difflib

from .androidworld import ANDROIDWORLD, AndroidWorldFormat
from .base import ActionFormat, smart_resize
from .glm import GLM, GLMFormat
from .phone_gym import PHONE_GYM, PhoneGymFormat
from .qwen import QWEN3VL, QWEN25VL, QwenMobileUse
from .uitars import UITARS, UITarsFormat

FORMATS: dict[str, ActionFormat] = {
    fmt.name: fmt for fmt in (PHONE_GYM, QWEN25VL, QWEN3VL, UITARS, GLM, ANDROIDWORLD)
}


def get_format(name: str) -> ActionFormat:
    """The format called ``name``; ``ValueError`` naming the known ones otherwise."""
    if isinstance(name, str) and name in FORMATS:
        return FORMATS[name]
    close = difflib.get_close_matches(str(name).lower(), list(FORMATS), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise ValueError(
        f"unknown action format {name!r}: {hint}known formats: {', '.join(FORMATS)}"
    )


__all__ = [
    "FORMATS", "ActionFormat", "AndroidWorldFormat", "GLMFormat", "PhoneGymFormat",
    "QwenMobileUse", "UITarsFormat", "get_format", "smart_resize",
]
