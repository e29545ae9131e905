"""Prompts for vision-language phone policies, generated from the action definitions.

A turn is a chat: the system prompt (the actions, their fields, the ``[0, 1000]`` coordinate
convention, the apps), then one user message (the task, the earlier actions, the error of the
last action if it had one, optionally the screenshots of earlier steps, the current
screenshot). The model answers with one action in ``format_action`` syntax.

Every prompt has an en-US and a zh-CN version (``PROMPT_LOCALES``), chosen by the episode's
locale (``locale=``; ``prompt_locale`` maps any phone locale to one of them). The zh-CN text
is written for a Chinese reader; the action grammar (``click(x=..., y=...)``, field names,
``success``/``infeasible``) stays literal, as the parser reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ACTION_DOCS, ACTION_TYPES, COORD_MAX

#: The locales every prompt is written in (the phone's ``world.locale.LOCALES``).
PROMPT_LOCALES: tuple[str, ...] = ("en-US", "zh-CN")


def prompt_locale(locale: str | None) -> str:
    """The prompt language for a phone locale (``None``: en-US); ValueError for a locale
    the prompts are not written in."""
    if locale is None:
        return PROMPT_LOCALES[0]
    if locale not in PROMPT_LOCALES:
        raise ValueError(f"prompt locale {locale!r}; accepted: {', '.join(PROMPT_LOCALES)}")
    return locale


#: ``ACTION_DOCS`` in zh-CN: the calls as written, the explanation in Chinese.
ACTION_DOCS_ZH: dict[str, str] = {
    "click": "click(x, y)：点击坐标 (x, y)，取值为 [0, 1000] 内的整数；或 click(index)：点击编号为 "
    "index 的界面元素的中心",
    "double_click": "double_click(x, y) 或 double_click(index)：在 (x, y) 处或第 index 个元素上"
    "快速点击两次",
    "long_press": "long_press(x, y) 或 long_press(index)：在 (x, y) 处或第 index 个元素上长按",
    "type": "type(text)：在当前获得焦点的输入框中输入文字；type(text, index)：先点击第 index "
    "个元素，再输入",
    "scroll": "scroll(x, y, direction)：在 (x, y) 处滚动，默认为屏幕中心 (500, 500)；direction "
    "取 up|down|left|right，down 表示查看下方内容；scroll(direction, index)：在第 index "
    "个元素内滚动",
    "drag": "drag(x, y, x2, y2)：从 (x, y) 拖动到 (x2, y2)",
    "press": "press(button)：按系统按键：back|home|enter|recents",
    "open_app": "open_app(app)：按名称打开应用",
    "close_app": "close_app(app)：按名称强行停止应用",
    "wait": "wait(seconds)：等待 0 到 60 秒",
    "answer": "answer(text)：回答问题并结束本轮任务（只给一个值，或用 JSON 指明该值）",
    "finish": "finish(status)：结束本轮任务；status 为 success（默认）或 infeasible",
}

#: How answers are judged, as the system prompt says it (``verifiers.answers``).
ANSWER_FORMAT = (
    "Answers: give the one value the question asks for, in any usual format (07:30 or "
    "7:30 AM, (415) 555-0134, 3), with at most a short lead-in; a list of guesses or a "
    "second value fails. Or name the value in JSON: answer(text='{\"time\": \"07:30\"}'). "
    'If the task cannot be done on this phone, end with finish(status="infeasible").')
#: ``ANSWER_FORMAT`` in zh-CN.
ANSWER_FORMAT_ZH = (
    "回答：只给出问题所问的那一个值，常见写法均可（07:30 或 下午7:30、¥12.50 或 12.5元、3 或 三），"
    "前面最多加一句简短的引导语；列出多个猜测或给出第二个值都算错。也可以用 JSON 指明该值："
    "answer(text='{\"time\": \"07:30\"}')。"
    '如果这台手机上无法完成任务，请以 finish(status="infeasible") 结束。')


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


def reasons_prompt(reasons: str, locale: str = "en-US") -> str:
    """The system prompt's line for targets with a thought (``assistant_text``); empty for
    ``reasons="none"``. The line labels stay ``Reason:``/``Step:``/``Action:`` in zh-CN."""
    if reasons not in REASONS:
        raise ValueError(f"reasons={reasons!r}; accepted: {', '.join(REASONS)}")
    if reasons == "none":
        return ""
    if prompt_locale(locale) == "zh-CN":
        step = "，并在 'Step: ...' 一行用几个字写出这一步" if reasons == "reason_and_step" else ""
        return (f"在操作之前，先在 'Reason: ...' 一行简要说明理由{step}；然后在 'Action: ...' "
                "一行写出操作。")
    step = " and the step in a few words on a line 'Step: ...'" \
        if reasons == "reason_and_step" else ""
    return (f"Before the action, give a short reason on a line 'Reason: ...'{step}; then "
            "write the action on a line 'Action: ...'.")


def system_prompt(app_names: Sequence[str] | None = None, reasons: str = "none",
                  locale: str = "en-US") -> str:
    """The system prompt: role, actions with their fields, coordinates, answer format (and
    with ``reasons``, the thought that comes before the action: ``reasons_prompt``), in
    ``locale``'s language (``prompt_locale``)."""
    if prompt_locale(locale) == "zh-CN":
        return _system_prompt_zh(app_names, reasons)
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


def _system_prompt_zh(app_names: Sequence[str] | None, reasons: str) -> str:
    lines = [
        "你在操作一部安卓手机来完成任务。每一轮你会看到任务、你之前的操作和当前屏幕的截图。"
        "请只回复一个操作，写成带关键字参数的函数调用。",
        "可用操作：",
        *(f"- {ACTION_DOCS_ZH[name]}" for name in ACTION_TYPES),
        f"坐标是 [0, {COORD_MAX}] 内的整数：无论屏幕实际多大，(0, 0) 都是左上角，"
        f"({COORD_MAX}, {COORD_MAX}) 是右下角。",
    ]
    if app_names:
        lines.append("手机上的应用：" + "、".join(app_names) + "。")
    lines.append(ANSWER_FORMAT_ZH)
    lines.append('示例：click(x=540, y=210) | type(text="张伟") | finish(status="success")')
    if reasons != "none":
        lines.append(reasons_prompt(reasons, "zh-CN"))
    return "\n".join(lines)


#: The user message's labels per prompt locale (``user_text``).
USER_LABELS: dict[str, dict[str, str]] = {
    "en-US": {"task": "Task: ", "previous": "Previous actions:", "none": "Previous actions: none",
              "failed": "Your last action failed: ", "screen": "Current screen:",
              "earlier": "Earlier screens:", "ui": "UI elements:"},
    "zh-CN": {"task": "任务：", "previous": "之前的操作：", "none": "之前的操作：无",
              "failed": "你的上一个操作失败了：", "screen": "当前屏幕：",
              "earlier": "之前的屏幕：", "ui": "界面元素："},
}


def user_text(instruction: str, actions: Sequence[str], error: str | None = None,
              first_step: int = 1, locale: str = "en-US") -> str:
    """The text of the user message (without images), in ``locale``'s language."""
    labels = USER_LABELS[prompt_locale(locale)]
    lines = [labels["task"] + instruction]
    if actions:
        lines.append(labels["previous"])
        lines += [f"{first_step + i}. {a}" for i, a in enumerate(actions)]
    else:
        lines.append(labels["none"])
    if error:
        lines.append(labels["failed"] + error)
    lines.append(labels["screen"])
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
                   history_images: int = 0, locale: str = "en-US"
                   ) -> tuple[list[dict[str, Any]], list[Any]]:
    """Chat messages for one turn and the images they refer to, in order.

    ``max_history`` earlier actions are listed (the oldest dropped first); the screenshots of
    the last ``history_images`` of them come before the current one. At step ``t`` (``t``
    earlier turns, each with its screenshot) a prompt thus holds
    ``min(t, history_images) + 1`` images (``check_history``: ``history_images`` is at most
    ``max_history``). ``locale`` picks the user message's language (``user_text``).
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
        content.append({"type": "text", "text": USER_LABELS[prompt_locale(locale)]["earlier"]})
        for turn in shown:
            content.append({"type": "image"})
            images.append(turn.screenshot)
    content.append({"type": "text", "text": user_text(instruction, [t.action for t in kept],
                                                      error, first, locale)})
    if screenshot is not None:
        content.append({"type": "image"})
        images.append(screenshot)
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": content})
    return messages, images
