"""The Gymnasium action space: a ``Dict`` whose ``sample()`` is always a valid action, and
conversions between samples and ``PhoneAction`` (for vector envs).

A vector env over phone envs (``phone_gym.make_vec``, Gymnasium's ``SyncVectorEnv`` /
``AsyncVectorEnv``) steps with a batch of samples (``batch_actions`` makes one from model
text) or with a plain list of one action per env (strings, dicts or ``PhoneAction``
objects): its batched space (``BatchedPhoneActionSpace``) hands each env its own item.
"""

from __future__ import annotations

import numbers
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from copy import deepcopy
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, iterate

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
    action_fields,
    present_fields,
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


_TYPE = ACTION_TYPES.index("type")


class PhoneActionSpace(spaces.Dict):
    """The phone action ``Dict`` space (``make_action_space``).

    ``sample()`` is always a valid action: every drawn field is in range, ``text`` uses
    ``TEXT_CHARSET`` (printable ASCII, which the phone's fonts draw), ``app`` is an index into
    the env's apps. With ``can_type`` set (``PhoneWorldEnv`` sets it to "a text field has
    focus"), a ``type`` is drawn only when it can be typed: otherwise ``action_type`` is drawn
    again among the other actions. ``can_type`` is not copied or pickled with the space (it
    belongs to one env); a sample with an explicit ``mask`` or ``probability`` is Gymnasium's.
    """

    can_type: Callable[[], bool] | None = None

    def sample(self, mask: dict[str, Any] | None = None,
               probability: dict[str, Any] | None = None) -> dict[str, Any]:
        sample = super().sample(mask=mask, probability=probability)
        if (mask is None and probability is None and self.can_type is not None
                and int(sample["action_type"]) == _TYPE and not self.can_type()):
            others = np.ones(len(ACTION_TYPES), dtype=np.int8)
            others[_TYPE] = 0
            sample["action_type"] = self.spaces["action_type"].sample(mask=others)
        return sample

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("can_type", None)  # a hook into one env: copies and pickles go without
        return state


class BatchedPhoneActionSpace(spaces.Dict):
    """The action space of a vector env over phone envs (Gymnasium's ``batch_space`` of a
    ``PhoneActionSpace``): a batched ``Dict``, as Gymnasium makes it, whose ``iterate`` also
    takes a list (or tuple, or 1-d array) of one action per env and hands each env its own
    (``env.step`` reads any action form)."""

    def __init__(self, spaces_: Mapping[str, spaces.Space[Any]], num_envs: int,
                 seed: Any = None) -> None:
        super().__init__(dict(spaces_), seed=seed)
        self.num_envs = num_envs


@batch_space.register(PhoneActionSpace)
def _batch_phone_space(space: PhoneActionSpace, n: int = 1) -> BatchedPhoneActionSpace:
    """Gymnasium's ``batch_space`` of a ``Dict``, as a ``BatchedPhoneActionSpace``."""
    return BatchedPhoneActionSpace(
        {key: batch_space(sub, n=n) for key, sub in space.spaces.items()}, n,
        seed=deepcopy(space.np_random))


@iterate.register(BatchedPhoneActionSpace)
def _iterate_phone_actions(  # type: ignore[misc]  # mypy cannot bind iterate's Space[_T]
        space: BatchedPhoneActionSpace, items: Any) -> Iterator[Any]:
    """One action per env: from a list of actions, or from a batch of samples (a mapping,
    as Gymnasium iterates a ``Dict``)."""
    if isinstance(items, np.ndarray) and items.ndim == 1:
        items = items.tolist()
    if isinstance(items, (list, tuple)):
        if len(items) != space.num_envs:
            raise ValueError(
                f"{len(items)} actions for {space.num_envs} envs: a vector env steps with one "
                f"action per env (a list of {space.num_envs} action strings, dicts or "
                f"PhoneActions), or a batch of samples such as "
                f"phone_gym.actions.batch_actions(texts, app_names)")
        return iter(items)
    if not isinstance(items, Mapping):
        raise ValueError(
            f"a vector env steps with a list of {space.num_envs} actions (one per env: action "
            f"strings, dicts or PhoneActions) or a batch of samples such as "
            f"phone_gym.actions.batch_actions(texts, app_names), got {_short(items)}")
    missing = [key for key in space.spaces if key not in items]
    if missing:
        raise ValueError(
            f"a batch of samples needs the keys {', '.join(space.spaces)} (missing "
            f"{', '.join(missing)}): make one with phone_gym.actions.batch_actions(texts, "
            f"app_names), or step with a list of {space.num_envs} actions")
    return iterate.dispatch(spaces.Dict)(space, items)


def make_action_space(app_names: Sequence[str], max_text_length: int = 64,
                      can_type: Callable[[], bool] | None = None) -> PhoneActionSpace:
    """The gymnasium ``Dict`` space (a ``PhoneActionSpace``) for phone actions over the
    given apps.

    Keys: ``action_type`` (index into ``ACTION_TYPES``), ``coords`` (x, y, x2, y2),
    ``text``, ``direction`` / ``button`` / ``app`` / ``status`` (indices into
    ``DIRECTIONS``, ``BUTTONS``, ``app_names``, ``FINISH_STATUSES``) and ``seconds``.
    Convert samples with ``action_from_sample``. ``can_type``: whether a ``type`` can be
    typed now (see ``PhoneActionSpace``).
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
    space = PhoneActionSpace(
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
    space.can_type = can_type
    return space


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
    reports the error in ``info["action_error"]`` instead of this call raising. An
    element-index action, or one with ``OPTIONAL_FIELDS`` set (the space has neither), is
    passed on as its text too, and so is an AndroidWorld JSON action (the env reads its x/y
    as screen pixels: ``phone_gym.actions.formats.androidworld``).
    """
    from .formats.androidworld import androidworld_object  # the formats build on this module

    sample: dict[str, Any] = {
        "action_type": RAW_TEXT, "coords": np.zeros(4, np.int64), "text": "",
        "direction": 0, "button": 0, "app": 0,
        "seconds": np.zeros(1, np.float32), "status": 0,
    }
    if isinstance(action, str):
        try:
            if androidworld_object(action) is not None:
                raise ActionError("read by the env, in its screen's pixels")
            action = parse_action(action)
        except ActionError:
            sample["text"] = action
            return sample
    extra = present_fields(action) != action_fields(action.type, action.index is not None)
    if extra or action.index is not None or (action.app is not None
                                             and action.app not in app_names):
        sample["text"] = format_action(action)  # the space has no index: sent as text
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


