"""Wrappers that fit a phone env to generic RL libraries (stable-baselines3, cleanrl...).

- ``DiscreteActions``: a ``Discrete`` action space: clicks at the centers of a grid of cells
  over the screen, presses of system buttons, and any extra actions you list.
- ``PixelsOnly``: the screenshot alone as a ``Box`` observation (text keys dropped),
  optionally resized and/or grayscale: what a ``CnnPolicy`` takes.
- ``SuccessInfo``: ``info["is_success"]``, which stable-baselines3 reads at episode end to
  log a success rate.
- ``ScoreOnTruncation``: when a step limit outside the env (Gymnasium's ``TimeLimit``)
  truncates an episode, the final state is scored as the env's own budget would score it.
  ``gym.make`` adds it to every phone-gym id, outside the ``TimeLimit`` that
  ``max_episode_steps=N`` adds.

They wrap ``PhoneWorldEnv`` (or anything with its observation and action contract) and
import neither torch nor any RL library::

    env = PhoneWorldEnv(task="ClockDeleteDisabledAlarms", end_on_success=True)
    env = PixelsOnly(DiscreteActions(SuccessInfo(env), grid=(2, 12)), size=(54, 120))
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import RecordConstructorArgs
from PIL import Image

from ..actions import BUTTONS, COORD_MAX, ActionError, PhoneAction, format_action, to_action

MAX_GRID = 100  # cells per side: finer than the [0, 1000] coordinates are useful
MIN_SIZE, MAX_SIZE = 8, 4096  # sides of a resized screenshot, in pixels


def grid_centers(cols: int, rows: int) -> list[tuple[int, int]]:
    """The ``(x, y)`` centers of a ``cols`` x ``rows`` grid of equal cells over the
    ``[0, 1000]`` coordinate space, in reading order (left to right, then top to bottom)."""
    xs = [round((i + 0.5) * COORD_MAX / cols) for i in range(cols)]
    ys = [round((j + 0.5) * COORD_MAX / rows) for j in range(rows)]
    return [(x, y) for y in ys for x in xs]


def _index(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer (numpy scalars and 0-d or 1-element
    arrays included), else None."""
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


class DiscreteActions(gym.ActionWrapper):
    """A ``Discrete(n)`` action space over a fixed list of phone actions.

    Action ``i`` is, in order: a click at the center of grid cell ``i`` (``grid=(cols,
    rows)`` equal cells over the ``[0, 1000]`` coordinate space, reading order), then a
    press of each of ``buttons``, then each of ``extra`` (``PhoneAction`` objects or action
    text such as ``'open_app(app="Clock")'``). ``action_meanings()`` lists them.

    ``step`` also passes non-integer actions (a ``PhoneAction``, text, a dict) on to the
    env unchanged, so oracles and scripted actions still work. An integer out of range is a
    no-op step with ``info["action_error"]`` set, like any bad action: it never raises.
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        grid: tuple[int, int] = (4, 8),
        buttons: Sequence[str] = ("back", "home"),
        extra: Sequence[PhoneAction | str] = (),
    ) -> None:
        super().__init__(env)
        if (not isinstance(grid, (tuple, list)) or len(grid) != 2
                or not all(_index(v) is not None and 1 <= int(v) <= MAX_GRID for v in grid)):
            raise ValueError(f"grid={grid!r}; accepted: (cols, rows), ints in 1..{MAX_GRID}")
        if not isinstance(buttons, (tuple, list)):
            raise ValueError(f"buttons={buttons!r}; accepted: a sequence of {', '.join(BUTTONS)}")
        unknown = [b for b in buttons if not isinstance(b, str) or b not in BUTTONS]
        if unknown or len(set(buttons)) != len(buttons):
            raise ValueError(
                f"buttons={tuple(buttons)!r}; accepted: distinct names among {', '.join(BUTTONS)}"
            )
        if not isinstance(extra, (tuple, list)):
            raise ValueError(f"extra={extra!r}; accepted: a sequence of PhoneActions or texts")
        extras: list[PhoneAction] = []
        for item in extra:
            if not isinstance(item, (str, PhoneAction)):
                raise ValueError(f"extra action {item!r}; accepted: a PhoneAction or action text")
            try:
                extras.append(to_action(item))
            except ActionError as err:
                raise ValueError(f"extra action {item!r} is not valid: {err}") from err
        cols, rows = int(grid[0]), int(grid[1])
        self.grid = (cols, rows)
        self.actions: tuple[PhoneAction, ...] = (
            *(PhoneAction("click", x=x, y=y) for x, y in grid_centers(cols, rows)),
            *(PhoneAction("press", button=b) for b in buttons),
            *extras,
        )
        self.action_space = spaces.Discrete(len(self.actions))

    def action(self, action: Any) -> Any:
        """The ``PhoneAction`` of index ``action``; anything else is passed on unchanged."""
        index = _index(action)
        if index is None or not 0 <= index < len(self.actions):
            return action
        return self.actions[index]

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        index = _index(action)
        if index is not None and not 0 <= index < len(self.actions):
            # the env reports a bad action as a no-op step; say what was wrong in our terms
            obs, reward, terminated, truncated, info = self.env.step(None)
            info["action_error"] = (
                f"discrete action {index} is out of range: accepted 0..{len(self.actions) - 1}")
            return obs, reward, terminated, truncated, info
        return self.env.step(self.action(action))

    def action_meanings(self) -> list[str]:
        """What each discrete action does, as action text (``format_action``)."""
        return [format_action(a) for a in self.actions]


class PixelsOnly(gym.ObservationWrapper):
    """The screenshot alone as the observation: a uint8 ``Box`` of shape ``(height, width,
    channels)``, the layout stable-baselines3's ``CnnPolicy`` expects (it transposes to
    channels-first itself). The instruction and any other text keys are dropped, so the
    policy has to act from what the screen shows.

    ``size=(width, height)`` resizes with Pillow (box filter: each pixel averages the ones it
    covers); None keeps the env's size (set ``obs_size`` on ``PhoneWorldEnv`` to render
    small in the first place, which is faster). ``grayscale=True`` gives one channel.
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        size: tuple[int, int] | None = None,
        grayscale: bool = False,
    ) -> None:
        super().__init__(env)
        space = env.observation_space
        shot = space.spaces.get("screenshot") if isinstance(space, spaces.Dict) else None
        if not (isinstance(shot, spaces.Box) and shot.dtype == np.uint8
                and len(shot.shape) == 3 and shot.shape[2] == 3):
            raise ValueError(
                f"PixelsOnly needs a Dict observation with a uint8 (H, W, 3) 'screenshot', got "
                f"{space}; accepted: PhoneWorldEnv with screenshot=True"
            )
        if size is not None and (
                not isinstance(size, (tuple, list)) or len(size) != 2
                or not all(_index(v) is not None and MIN_SIZE <= int(v) <= MAX_SIZE
                           for v in size)):
            raise ValueError(
                f"size={size!r}; accepted: None or (width, height), ints in "
                f"{MIN_SIZE}..{MAX_SIZE}"
            )
        if not isinstance(grayscale, (bool, np.bool_)):
            raise ValueError(f"grayscale={grayscale!r}; accepted: True or False")
        height, width = shot.shape[:2]
        self.source_size = (width, height)
        self.size = (int(size[0]), int(size[1])) if size is not None else (width, height)
        self.grayscale = bool(grayscale)
        channels = 1 if self.grayscale else 3
        self.observation_space = spaces.Box(
            0, 255, (self.size[1], self.size[0], channels), np.uint8)

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        shot = np.asarray(observation["screenshot"], dtype=np.uint8)
        if self.size == self.source_size and not self.grayscale:
            return shot
        image = Image.fromarray(shot)
        if self.grayscale:
            image = image.convert("L")
        if self.size != self.source_size:
            image = image.resize(self.size, Image.Resampling.BOX)
        out = np.array(image, dtype=np.uint8)  # a writable copy (torch warns on read-only)
        return out[:, :, None] if out.ndim == 2 else out


class SuccessInfo(gym.Wrapper):
    """Copies ``info["success"]`` (the verifier passes now) to ``info["is_success"]``, the
    key stable-baselines3 reads at episode end (``rollout/success_rate`` in its logs,
    ``EvalCallback``'s success rate)."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        info["is_success"] = bool(info.get("success", False))
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["is_success"] = bool(info.get("success", False))
        return obs, reward, terminated, truncated, info


class ScoreOnTruncation(gym.Wrapper, RecordConstructorArgs):
    """Scores the final state when a wrapper inside this one truncates the episode.

    Gymnasium's ``TimeLimit`` truncates with the reward the env returned for that step
    (0.0 for a phone env before its own end), so a task solved within ``max_episode_steps``
    would score nothing. On a truncating step that the phone env itself did not end, this
    wrapper ends it (``env.unwrapped.end_episode()``): the reward becomes the verifier's
    score of the final state and ``info`` gains the end keys (``task_id``, ``success``,
    ``verdict``, ``progress``), exactly as when the env's own step budget runs out.
    ``gym.make`` puts it outside the ``TimeLimit`` of every phone-gym id; wrap by hand as
    ``ScoreOnTruncation(TimeLimit(env, N))``.
    """

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        base = self.env.unwrapped
        if (truncated and not terminated and not getattr(base, "ended", True)
                and hasattr(base, "end_episode")):
            reward, extra = base.end_episode()
            info = {**info, **extra}
        return obs, reward, terminated, truncated, info
