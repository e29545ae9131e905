"""Cheap steps across processes for Gymnasium's ``AsyncVectorEnv``.

``phone_worker`` is a drop-in ``worker`` for ``AsyncVectorEnv`` (``phone_gym.make_vec`` uses
it in ``"async"`` mode). It runs the commands of Gymnasium's own worker the same way, with
less work per step:

- observations go into shared memory with one copy per array (Gymnasium flattens each array
  into a temporary copy first) and text only when it changed (an instruction stays the same
  all episode);
- ``info["ui_elements"]`` crosses the pipe in compact form (``infos.PackedUIElements``:
  tuples of values, the rows of an unchanged screen reused) instead of a list of dicts: the
  receiving side gets a ``UIElementList`` whose dicts are made on first access.

Observations, rewards and infos read the same as with Gymnasium's worker (Gymnasium 1.0 to
1.4). Use it with any ``AsyncVectorEnv``: ``AsyncVectorEnv(env_fns, worker=phone_worker)``.
What stays per env-step: one pipe round trip (the action out, a few KB of info back), the
screenshot copied into shared memory in the worker and, with ``copy=True`` (the default),
out of it in the main process (``vector_kwargs={"copy": False}`` returns views of shared
memory instead, overwritten by the next step).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.spaces.utils import is_space_dtype_shape_equiv
from gymnasium.vector.utils import write_to_shared_memory

from .infos import UIElementList

Writer = Callable[[Any], None]


def _written_as(space: spaces.Space[Any], kind: type[spaces.Space[Any]]) -> bool:
    """Whether Gymnasium writes ``space`` to shared memory as it writes a ``kind``."""
    return write_to_shared_memory.dispatch(type(space)) is write_to_shared_memory.dispatch(kind)


def compact_info(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with every ``UIElementList`` (also in nested dicts, e.g. ``final_info``) in
    its compact form for the pipe; ``info`` itself when there is none."""
    out = info
    for key, value in info.items():
        if isinstance(value, UIElementList):
            new: Any = value.packed()
        elif isinstance(value, dict):
            new = compact_info(value)
        else:
            continue
        if new is not value:
            if out is info:
                out = dict(info)
            out[key] = new
    return out


def obs_writer(space: spaces.Space[Any], shared_memory: Any, index: int) -> Writer:
    """A function writing env ``index``'s observation of ``space`` into ``shared_memory``
    (made by ``create_shared_memory``), as ``write_to_shared_memory`` does."""
    if isinstance(space, spaces.Dict) and _written_as(space, spaces.Dict):
        writers = {key: obs_writer(sub, shared_memory[key], index)
                   for key, sub in space.spaces.items()}

        def write_dict(value: Any) -> None:
            for key, write in writers.items():
                write(value[key])
        return write_dict
    if isinstance(space, spaces.Tuple) and _written_as(space, spaces.Tuple):
        parts = [obs_writer(sub, mem, index) for sub, mem in zip(space.spaces, shared_memory,
                                                                strict=True)]

        def write_tuple(value: Any) -> None:
            for write, part in zip(parts, value, strict=True):
                write(part)
        return write_tuple
    if _written_as(space, spaces.Box):  # Box, Discrete, MultiBinary, MultiDiscrete
        dtype, shape = space.dtype, space.shape
        assert dtype is not None and shape is not None
        memory = np.frombuffer(shared_memory.get_obj(), dtype=dtype)
        destination = memory.reshape((-1, int(np.prod(shape, dtype=np.int64))))[index]

        def write_array(value: Any) -> None:  # one copy (no flattened temporary)
            np.copyto(destination, np.asarray(value, dtype=dtype).reshape(-1))
        return write_array
    if isinstance(space, spaces.Text):
        last: list[str | None] = [None]

        def write_text(value: str) -> None:  # only this worker writes this slot
            if value != last[0]:
                # Gymnasium annotates the value as an array; a Text space's writer takes the str
                write_to_shared_memory(space, index, value, shared_memory)  # type: ignore[arg-type]
                last[0] = value
        return write_text

    def write_other(value: Any) -> None:
        write_to_shared_memory(space, index, value, shared_memory)
    return write_other


def phone_worker(
    index: int,
    env_fn: Callable[[], Any],
    pipe: Connection,
    parent_pipe: Connection,
    shared_memory: Any,
    error_queue: Any,
    autoreset_mode: Any = None,
    semaphore: Any = None,
) -> None:
    """``AsyncVectorEnv``'s worker (same arguments and commands as Gymnasium's
    ``_async_worker``: ``autoreset_mode`` since Gymnasium 1.1, ``semaphore`` since 1.4)
    with cheaper observation writes and compact infos."""
    mode = getattr(autoreset_mode, "value", autoreset_mode) or "NextStep"
    env = env_fn()
    observation_space, action_space = env.observation_space, env.action_space
    write = obs_writer(observation_space, shared_memory, index) if shared_memory else None
    autoreset, observation = False, None
    parent_pipe.close()
    try:
        while True:
            command, data = pipe.recv()
            permit_held = semaphore is not None and command in ("reset", "step")
            if permit_held:
                semaphore.acquire()
            try:
                if command == "reset":
                    observation, info = env.reset(**data)
                    if write is not None:
                        write(observation)
                        observation, autoreset = None, False
                    if permit_held:  # released before `send`, which waits for the reader
                        permit_held = False
                        semaphore.release()
                    pipe.send(((observation, compact_info(info)), True))
                elif command == "reset-noop":
                    pipe.send(((observation, {}), True))
                elif command == "step":
                    if mode == "NextStep":
                        if autoreset:
                            observation, info = env.reset()
                            reward, terminated, truncated = 0, False, False
                        else:
                            observation, reward, terminated, truncated, info = env.step(data)
                        autoreset = terminated or truncated
                    elif mode == "SameStep":
                        observation, reward, terminated, truncated, info = env.step(data)
                        if terminated or truncated:
                            reset_observation, reset_info = env.reset()
                            info = {"final_info": info, "final_obs": observation, **reset_info}
                            observation = reset_observation
                    elif mode == "Disabled":
                        assert autoreset is False
                        observation, reward, terminated, truncated, info = env.step(data)
                    else:
                        raise ValueError(f"Unexpected autoreset_mode: {autoreset_mode}")
                    if write is not None:
                        write(observation)
                        observation = None
                    if permit_held:
                        permit_held = False
                        semaphore.release()
                    pipe.send(((observation, reward, terminated, truncated,
                                compact_info(info)), True))
                elif command == "close":
                    pipe.send((None, True))
                    break
                elif command == "_call":
                    name, args, kwargs = data
                    if name in ["reset", "step", "close", "_setattr", "_check_spaces"]:
                        raise ValueError(f"Trying to call function `{name}` with `call`, "
                                         f"use `{name}` directly instead.")
                    attr = env.get_wrapper_attr(name)
                    pipe.send((attr(*args, **kwargs) if callable(attr) else attr, True))
                elif command == "_setattr":
                    name, value = data
                    env.set_wrapper_attr(name, value)
                    pipe.send((None, True))
                elif command == "_check_spaces":
                    obs_mode, single_obs_space, single_action_space = data
                    same = (single_obs_space == observation_space if obs_mode == "same"
                            else is_space_dtype_shape_equiv(single_obs_space, observation_space))
                    pipe.send(((same, single_action_space == action_space), True))
                else:
                    raise RuntimeError(
                        f"Received unknown command `{command}`. Must be one of [`reset`, "
                        "`step`, `close`, `_call`, `_setattr`, `_check_spaces`].")
            finally:
                if permit_held:
                    semaphore.release()
    except (KeyboardInterrupt, Exception):
        error_type, error_message, _ = sys.exc_info()
        error_queue.put((index, error_type, error_message, traceback.format_exc()))
        pipe.send((None, False))
    finally:
        env.close()


__all__ = ["compact_info", "obs_writer", "phone_worker"]
