"""Prompts for vision-language phone policies, generated from the action definitions.

A turn is a chat: the system prompt (the actions, their fields, the ``[0, 1000]`` coordinate
convention, the apps), then one user message (the task, the earlier actions, the error of the
last action if it had one, optionally the screenshots of earlier steps, the current
screenshot). The model answers with one action in ``format_action`` syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ACTION_DOCS, ACTION_TYPES, COORD_MAX

#: How answers are judged, as the system prompt says it (``verifiers.answers``).
ANSWER_FORMAT = (
    "Answers: give the one value the question asks for, in any usual format (07:30 or "
    "7:30 AM, (415) 555-0134, 3), with at most a short lead-in; a list of guesses or a "
    "second value fails. Or name the value in JSON: answer(text='{\"time\": \"07:30\"}'). "
    'If the task cannot be done on this phone, end with finish(status="infeasible").')


#: What an SFT target holds before its action (``sft.reasons`` in a config, ``--reasons``
#: of ``phone-gym collect``): nothing, the step's reason, or its reason and step instruction.
REASONS: tuple[str, ...] = ("none", "reason", "reason_and_step")


def assistant_text(action: str, reason: str | None = None,
                   step_instruction: str | None = None, reasons: str = "none") -> str:
    """The assistant's target for a step: the action alone (``reasons="none"``), or a short
    thought before it, as AndroidControl-style data has it::

        Reason: The note lists three expenses; the second is still to add.
        Step: Tap “Save”
        Action: click(x=500, y=912)

    (``Step:`` only with ``"reason_and_step"``; a part the step did not record is left
    out). The action parser reads the action after the thought."""
    if reasons not in REASONS:
        raise ValueError(f"reasons={reasons!r}; accepted: {', '.join(REASONS)}")
    lines = []
    if reasons != "none" and reason:
        lines.append(f"Reason: {reason}")
    if reasons == "reason_and_step" and step_instruction:
        lines.append(f"Step: {step_instruction}")
    if not lines:
        return action
    return "\n".join([*lines, f"Action: {action}"])


@dataclass
class Turn:
    """One earlier step as the policy remembers it."""

    action: str  #: the action as carried out (``format_action``), else the raw text
    error: str | None = None  #: ``info["action_error"]`` of that step
    screenshot: Any = None  #: the screen the action was taken on (an array or a reference)


def reasons_prompt(reasons: str) -> str:
    """The system prompt's line for targets with a thought (``assistant_text``); empty for
    ``reasons="none"``."""
    if reasons not in REASONS:
        raise ValueError(f"reasons={reasons!r}; accepted: {', '.join(REASONS)}")
    if reasons == "none":
        return ""
    step = " and the step in a few words on a line 'Step: ...'" \
        if reasons == "reason_and_step" else ""
    return (f"Before the action, give a short reason on a line 'Reason: ...'{step}; then "
            "write the action on a line 'Action: ...'.")


def system_prompt(app_names: Sequence[str] | None = None, reasons: str = "none") -> str:
    """The system prompt: role, actions with their fields, coordinates, answer format (and
    with ``reasons``, the thought that comes before the action: ``reasons_prompt``)."""
    lines = [
        "You operate an Android phone to complete a task. Each turn you see the task, your "
        "earlier actions and a screenshot of the current screen. Reply with exactly one "
        "action, written as a function call with keyword arguments.",
        "Actions:",
        *(f"- {ACTION_DOCS[name]}" for name in ACTION_TYPES),
        f"Coordinates are integers in [0, {COORD_MAX}]: (0, 0) is the top-left corner of the "
        f"screen and ({COORD_MAX}, {COORD_MAX}) the bottom-right one, whatever its size.",
    ]
    if app_names:
        lines.append("Apps: " + ", ".join(app_names) + ".")
    lines.append(ANSWER_FORMAT)
    lines.append('Examples: click(x=540, y=210) | type(text="Bob") | finish(status="success")')
    if reasons != "none":
        lines.append(reasons_prompt(reasons))
    return "\n".join(lines)


def user_text(instruction: str, actions: Sequence[str], error: str | None = None,
              first_step: int = 1) -> str:
    """The text of the user message (without images)."""
    lines = [f"Task: {instruction}"]
    if actions:
        lines.append("Previous actions:")
        lines += [f"{first_step + i}. {a}" for i, a in enumerate(actions)]
    else:
        lines.append("Previous actions: none")
    if error:
        lines.append(f"Your last action failed: {error}")
    lines.append("Current screen:")
    return "\n".join(lines)


def check_history(max_history: int, history_images: int) -> None:
    """``ValueError`` unless ``0 <= history_images <= max_history``: the earlier screenshots
    shown are those of the earlier actions listed, so no more of them can be shown."""
    if max_history < 0 or history_images < 0:
        raise ValueError(f"max_history={max_history}, history_images={history_images}: "
                         "accepted: integers >= 0")
    if history_images > max_history:
        raise ValueError(f"history_images={history_images} > max_history={max_history}: the "
                         "earlier screenshots shown are those of the listed earlier actions; "
                         "accepted: history_images <= max_history (raise max_history)")


def build_messages(instruction: str, history: Sequence[Turn], screenshot: Any | None,
                   *, system: str | None = None, max_history: int = 8,
                   history_images: int = 0) -> tuple[list[dict[str, Any]], list[Any]]:
    """Chat messages for one turn and the images they refer to, in order.

    ``max_history`` earlier actions are listed (the oldest dropped first); the screenshots of
    the last ``history_images`` of them come before the current one. At step ``t`` (``t``
    earlier turns, each with its screenshot) a prompt thus holds
    ``min(t, history_images) + 1`` images (``check_history``: ``history_images`` is at most
    ``max_history``).
    """
    check_history(max_history, history_images)
    kept = list(history)[-max_history:] if max_history > 0 else []
    first = len(history) - len(kept) + 1
    error = history[-1].error if history else None
    images: list[Any] = []
    content: list[dict[str, Any]] = []
    shown = [t for t in kept[max(len(kept) - history_images, 0):] if t.screenshot is not None] \
        if history_images > 0 else []
    if shown:
        content.append({"type": "text", "text": "Earlier screens:"})
        for turn in shown:
            content.append({"type": "image"})
            images.append(turn.screenshot)
    content.append({"type": "text", "text": user_text(instruction, [t.action for t in kept],
                                                      error, first)})
    if screenshot is not None:
        content.append({"type": "image"})
        images.append(screenshot)
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": content})
    return messages, images
