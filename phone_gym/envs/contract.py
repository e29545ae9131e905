"""What PhoneWorld-v0 and RealPhone-v0 share: argument checks, the observation space and
observation, reading the agent's action, and the info policy. One place, so the two envs
keep one contract.

The info policy: the agent-facing ``info`` never gives the task away. Every step holds
``STEP_KEYS`` (what the agent did and sees); the task's id and the verifier's verdict
(``END_KEYS``) appear only once the episode has ended; the task's params never appear. An
env made with ``privileged_info=True`` (trainers, debugging, dataset tools) adds
``END_KEYS`` and ``PRIVILEGED_KEYS`` to every step, and ``env.unwrapped.privileged_info()``
returns them on demand.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
from gymnasium import spaces

from ..actions import ActionError, PhoneAction, to_action
from ..actions.formats.androidworld import ANDROIDWORLD, androidworld_object
from ..world.glyphs import drawable_chars
from .spaces import SharedText

#: What stands in a text observation for a character outside ``obs_charset()`` (a real
#: phone's screen may show one the phone's fonts lack).
REPLACEMENT = "\ufffd"
T = TypeVar("T")
#: The longest instruction and UI listing a text observation holds (longer text is cut).
#: The longest a template writes is about 820 characters (RecipeAddMultipleRecipes), the
#: longest listing about 10,200 (a cinema's seat map): room to grow, and a test
#: (tests/envs/test_text_observations.py) that no template comes near either.
MAX_INSTRUCTION = 2048
MAX_UI_TEXT = 32768

#: Keys of every step's ``info``: what the agent did and what it sees (``locale``: the
#: phone's, the language of the instruction and of the agent's prompts).
STEP_KEYS: tuple[str, ...] = ("instruction", "locale", "step", "max_steps", "action",
                              "action_error", "answer", "ui_elements")
#: Keys added when the episode ends (terminated or truncated): which task it was, and the
#: verifier's verdict on the final state.
END_KEYS: tuple[str, ...] = ("task_id", "success", "verdict", "progress")
#: Keys only privileged info holds: the task's params (they may hold the answer).
PRIVILEGED_KEYS: tuple[str, ...] = ("params",)


@lru_cache(maxsize=1)
def obs_charset() -> str:
    """The characters of text observations (instruction, UI listing): every character the
    phone can show (``glyphs.drawable_chars``: CJK, accented Latin, currency signs, emoji,
    the selectors emoji carry, white space) and ``REPLACEMENT``."""
    chars = drawable_chars()
    return chars if REPLACEMENT in chars else chars + REPLACEMENT


@lru_cache(maxsize=1)
def _obs_chars() -> frozenset[str]:
    return frozenset(obs_charset())


def clean_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters; a character outside ``obs_charset()`` (none a
    template, fixture or app string produces) becomes ``REPLACEMENT``."""
    text = text[:limit]
    chars = _obs_chars()
    if chars.issuperset(text):
        return text
    return "".join(c if c in chars else REPLACEMENT for c in text)


def _is_int(value: Any) -> bool:
    """An int, numpy's included, but not a bool (``True`` is not a size or a step budget)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_args(render_mode: str | None, obs_size: Any, max_steps: Any) -> tuple[int, int]:
    """Validate the arguments both envs take; return ``obs_size`` as ``(width, height)``.

    ``obs_size`` is the ``(width, height)`` of a portrait phone's screenshot: a landscape
    size (width above height, e.g. ``(1200, 540)``, an image's ``shape`` order) would
    stretch the portrait screen sideways, so it raises ``ValueError`` naming the swapped
    size. Sizes are ints (a bool is not), and so is ``max_steps``."""
    if render_mode not in (None, "rgb_array"):
        raise ValueError(f"render_mode={render_mode!r}; accepted: None, 'rgb_array'")
    if (not isinstance(obs_size, (tuple, list)) or len(obs_size) != 2
            or not all(_is_int(v) and 16 <= v <= 4096 for v in obs_size)):
        raise ValueError(f"obs_size={obs_size!r}; accepted: (width, height), ints in 16..4096")
    width, height = int(obs_size[0]), int(obs_size[1])
    if width > height:
        raise ValueError(f"obs_size={obs_size!r}: obs_size is (width, height) of a portrait "
                         f"phone: did you mean ({height}, {width})?")
    if max_steps is not None and (not _is_int(max_steps) or max_steps < 1):
        raise ValueError(f"max_steps={max_steps!r}; accepted: None or a positive int")
    return width, height


@lru_cache(maxsize=8)
def screenshot_box(height: int, width: int) -> spaces.Box:
    """The screenshot's space, made once per size: every env's is a copy of it that shares
    its bounds (a Box holds four arrays of the image's size: 7.4 MiB at 540 x 1200), which
    are read-only."""
    box = spaces.Box(0, 255, (height, width, 3), np.uint8)
    for arr in (box.low, box.high, box.bounded_below, box.bounded_above):
        arr.flags.writeable = False
    return box


def observation_space(size: tuple[int, int], screenshot: bool, ui_in_obs: bool) -> spaces.Dict:
    """``instruction`` (text), ``screenshot`` (uint8 H x W x 3) and optionally ``ui``."""
    width, height = size
    obs: dict[str, spaces.Space[Any]] = {
        "instruction": SharedText(MAX_INSTRUCTION, charset=obs_charset())}
    if screenshot:
        obs["screenshot"] = copy.copy(screenshot_box(height, width))
    if ui_in_obs:
        obs["ui"] = SharedText(MAX_UI_TEXT, charset=obs_charset())
    return spaces.Dict(obs)


def observation(instruction: str, shot: np.ndarray | None, ui_text: str | None,
                into: np.ndarray | None = None, copy: bool = True) -> dict[str, Any]:
    """The observation dict (``shot``/``ui_text`` None when left out); its screenshot is a
    copy of ``shot``, written into ``into`` when given (an array of its shape and dtype
    that nothing else holds), else new; ``shot`` itself when ``copy`` is False (a lent
    screenshot: ``into`` is then not used)."""
    obs: dict[str, Any] = {"instruction": clean_text(instruction, MAX_INSTRUCTION)}
    if shot is not None:
        if not copy:
            obs["screenshot"] = shot
        elif into is not None and into.shape == shot.shape and into.dtype == shot.dtype:
            np.copyto(into, shot)
            obs["screenshot"] = into
        else:
            obs["screenshot"] = shot.copy()
    if ui_text is not None:
        obs["ui"] = clean_text(ui_text, MAX_UI_TEXT)
    return obs


def end_info(task_id: str, verdict: Any) -> dict[str, Any]:
    """The ``END_KEYS`` of ``info``: the task and the verifier's ``Verdict``."""
    return {"task_id": task_id, "success": verdict.success, "verdict": verdict.reason,
            "progress": verdict.progress}


def ended_error() -> Exception:
    """What stepping an ended episode raises (Gymnasium's ``ResetNeeded``): a step after
    ``finish``, ``answer`` or truncation could otherwise earn a second reward."""
    import gymnasium as gym

    return gym.error.ResetNeeded("the episode has ended (terminated or truncated); call "
                                 "reset() before step()")


def choose_template(templates: Sequence[T], options: Mapping[str, Any] | None,
                    select: Callable[[Any], Sequence[T]], rng: np.random.Generator) -> T:
    """The template a reset runs: ``options["task"]`` (looked up with ``select``) or one of
    ``templates`` drawn by ``rng``."""
    if options and "task" in options:
        return select(options["task"])[0]
    return templates[int(rng.integers(len(templates)))]


def read_action(action: Any, app_names: Sequence[str], screen: tuple[int, int] | None = None
                ) -> tuple[PhoneAction | None, str | None, bool, str | None]:
    """``(parsed, error, ends, answer)``: the agent's action as a ``PhoneAction`` (None and
    an error message when it is not one), whether it ends the episode (answer, finish) and
    the answer it gives.

    An AndroidWorld JSON action (a dict or text of its shape: ``formats.androidworld``'s
    ``androidworld_object``) is read as AndroidWorld reads it, x/y in pixels of ``screen``
    (the phone's ``(width, height)``; None while it is not known); any other goes to
    ``to_action`` (x/y on the ``[0, 1000]`` grid)."""
    try:
        obj = androidworld_object(action)
        if obj is None:
            parsed = to_action(action, app_names)
        elif screen is None:
            raise ActionError("an AndroidWorld action's x/y are screen pixels, and the screen "
                              "size is not known yet: reset() first")
        else:
            parsed = ANDROIDWORLD.read(obj, screen)
    except ActionError as exc:
        return None, str(exc), False, None
    ends = parsed.type in ("answer", "finish")
    return parsed, None, ends, parsed.text if parsed.type == "answer" else None
