"""The Gymnasium action space: a ``Dict`` whose ``sample()`` is always a valid action, and
conversions between samples and ``PhoneAction`` (for vector envs)."""

from __future__ import annotations

import numbers
import string
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from .action import (
    ACTION_FIELDS,
    ACTION_TYPES,
    BUTTONS,
    COORD_MAX,
    DIRECTIONS,
    FINISH_STATUSES,
    MAX_TEXT_LENGTH,
    ActionError,
    PhoneAction,
    _short,
)
from .parser import _build, format_action, parse_action

# --------------------------------------------------------------------------------------
# Gymnasium action space
# --------------------------------------------------------------------------------------

#: Characters of the ``"text"`` sub-space: printable ASCII letters, digits, space, punctuation.
TEXT_CHARSET: str = string.ascii_letters + string.digits + " " + string.punctuation
_COORD_INDEX: dict[str, int] = {"x": 0, "y": 1, "x2": 2, "y2": 3}
#: ``action_type`` of a sample whose ``text`` holds a whole action string to parse (used by
#: ``to_sample`` to pass model output through vector envs; never drawn by ``sample()``).
RAW_TEXT = -1


def make_action_space(app_names: Sequence[str], max_text_length: int = 64) -> spaces.Dict:
    """The gymnasium ``Dict`` space for phone actions over the given apps.

    Keys: ``action_type`` (index into ``ACTION_TYPES``), ``coords`` (x, y, x2, y2),
    ``text``, ``direction`` / ``button`` / ``app`` / ``status`` (indices into
    ``DIRECTIONS``, ``BUTTONS``, ``app_names``, ``FINISH_STATUSES``) and ``seconds``.
    Convert samples with ``action_from_sample``.
    """
    if isinstance(app_names, str):
        raise TypeError("app_names must be a sequence of app names, not a single string")
    if len(app_names) == 0:
        raise ValueError("app_names is empty: the action space needs at least one app")
    for name in app_names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"app_names must be non-blank strings, got {name!r}")
    if isinstance(max_text_length, bool) or not isinstance(max_text_length, int):
        raise TypeError(f"max_text_length must be an integer, got {max_text_length!r}")
    if not 1 <= max_text_length <= MAX_TEXT_LENGTH:
        raise ValueError(f"max_text_length={max_text_length} is not in [1, {MAX_TEXT_LENGTH}]")
    return spaces.Dict(
        {
            "action_type": spaces.Discrete(len(ACTION_TYPES)),
            "coords": spaces.Box(0, COORD_MAX, shape=(4,), dtype=np.int64),
            "text": spaces.Text(min_length=1, max_length=max_text_length, charset=TEXT_CHARSET),
            "direction": spaces.Discrete(len(DIRECTIONS)),
            "button": spaces.Discrete(len(BUTTONS)),
            "app": spaces.Discrete(len(app_names)),
            "seconds": spaces.Box(0.0, 10.0, shape=(1,), dtype=np.float32),
            "status": spaces.Discrete(len(FINISH_STATUSES)),
        }
    )


def _sample_index(sample: Mapping[str, Any], key: str, size: int) -> int:
    if key not in sample:
        raise ActionError(f"sample has no {key!r}")
    value = sample[key]
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ActionError(f"sample {key} must be an integer index, got {_short(value)}")
    index = int(value)
    if not 0 <= index < size:
        raise ActionError(f"sample {key}={index} is out of range [0, {size})")
    return index


def _sample_vector(sample: Mapping[str, Any], key: str, size: int) -> list[Any]:
    if key not in sample:
        raise ActionError(f"sample has no {key!r}")
    value = sample[key]
    if isinstance(value, np.ndarray):
        value = value.reshape(-1).tolist() if value.ndim <= 1 else None
    elif isinstance(value, numbers.Number) and size == 1:
        value = [value]
    if not isinstance(value, (list, tuple)) or len(value) != size:
        raise ActionError(f"sample {key} must hold {size} numbers, got {_short(sample[key])}")
    return list(value)


def action_from_sample(sample: Mapping[str, Any], app_names: Sequence[str]) -> PhoneAction:
    """Convert a sample of ``make_action_space(app_names)`` to a ``PhoneAction``.

    Only the entries the chosen ``action_type`` needs are read.
    """
    if not isinstance(sample, Mapping):
        raise ActionError(f"expected a mapping sample, got {_short(sample)}")
    raw = sample.get("action_type")
    if isinstance(raw, np.ndarray) and raw.size == 1:
        raw = raw.reshape(()).item()
    if isinstance(raw, numbers.Integral) and not isinstance(raw, bool) and int(raw) == RAW_TEXT:
        text = sample.get("text")
        if not isinstance(text, str):
            raise ActionError(f"a raw-text sample needs text, got {_short(text)}")
        return parse_action(text)
    kind = ACTION_TYPES[_sample_index(sample, "action_type", len(ACTION_TYPES))]
    values: dict[str, Any] = {}
    for name in ACTION_FIELDS[kind]:
        if name in _COORD_INDEX:
            values[name] = _sample_vector(sample, "coords", 4)[_COORD_INDEX[name]]
        elif name == "seconds":
            values[name] = _sample_vector(sample, "seconds", 1)[0]
        elif name == "text":
            values[name] = sample.get("text")
        elif name == "direction":
            values[name] = DIRECTIONS[_sample_index(sample, "direction", len(DIRECTIONS))]
        elif name == "button":
            values[name] = BUTTONS[_sample_index(sample, "button", len(BUTTONS))]
        elif name == "status":
            values[name] = FINISH_STATUSES[_sample_index(sample, "status", len(FINISH_STATUSES))]
        elif name == "app":
            if not app_names:
                raise ActionError(f"{kind} from a sample needs app_names")
            values[name] = app_names[_sample_index(sample, "app", len(app_names))]
    return _build(kind, values)


def to_sample(action: PhoneAction | str, app_names: Sequence[str]) -> dict[str, Any]:
    """An action in the layout of ``make_action_space(app_names)`` samples.

    A string that parses is encoded like the action it names; one that does not (or an app
    not in ``app_names``) is passed on as ``action_type=RAW_TEXT`` with the text, so the env
    reports the error in ``info["action_error"]`` instead of this call raising.
    """
    sample: dict[str, Any] = {
        "action_type": RAW_TEXT, "coords": np.zeros(4, np.int64), "text": "",
        "direction": 0, "button": 0, "app": 0,
        "seconds": np.zeros(1, np.float32), "status": 0,
    }
    if isinstance(action, str):
        try:
            action = parse_action(action)
        except ActionError:
            sample["text"] = action
            return sample
    if action.app is not None and action.app not in app_names:
        sample["text"] = format_action(action)
        return sample
    sample["action_type"] = ACTION_TYPES.index(action.type)
    for name, i in _COORD_INDEX.items():
        value = getattr(action, name)
        if value is not None:
            sample["coords"][i] = value
    if action.text is not None:
        sample["text"] = action.text
    if action.direction is not None:
        sample["direction"] = DIRECTIONS.index(action.direction)
    if action.button is not None:
        sample["button"] = BUTTONS.index(action.button)
    if action.app is not None:
        sample["app"] = list(app_names).index(action.app)
    if action.seconds is not None:
        sample["seconds"][0] = action.seconds
    if action.status is not None:
        sample["status"] = FINISH_STATUSES.index(action.status)
    return sample


def batch_actions(actions: Sequence[PhoneAction | str], app_names: Sequence[str]) -> dict[str, Any]:
    """Actions for a vector env's ``step``: one ``to_sample`` per env, stacked the way
    Gymnasium batches a ``Dict`` space (arrays, and a tuple for ``text``)."""
    samples = [to_sample(a, app_names) for a in actions]
    batch: dict[str, Any] = {}
    for key in samples[0] if samples else ():
        values = [s[key] for s in samples]
        batch[key] = tuple(values) if key == "text" else np.stack(
            [np.asarray(v) for v in values])
    return batch


