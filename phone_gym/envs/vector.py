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

``PhoneAsyncVectorEnv`` (what ``make_vec`` builds in ``"async"`` mode) is Gymnasium's
``AsyncVectorEnv`` with workers that may die: a worker killed by a signal, or one that
raised (Gymnasium's worker then exits), is reported as ``WorkerDied`` (which env, its exit
code or signal, what to do) instead of a bare ``BrokenPipeError``/``EOFError`` that leaves the
pipes out of step; ``close()`` never raises for it and leaves no process behind. With
``autorestart=True`` the worker is started again with a fresh env, reset with
``restart_seed(index, restarts, last_seed)``; that env's step ends its episode
(``truncated=True``, ``info["restarted"]``, ``info["worker_error"]``) and the other envs go on
as if nothing happened.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from itertools import islice
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.error import AlreadyPendingCallError, NoAsyncCallError
from gymnasium.spaces.utils import is_space_dtype_shape_equiv
from gymnasium.vector import AsyncVectorEnv
from gymnasium.vector.async_vector_env import AsyncState
from gymnasium.vector.utils import (
    clear_mpi_env_vars,
    concatenate,
    iterate,
    write_to_shared_memory,
)

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




# --- workers that die -----------------------------------------------------------------------

#: Seconds a worker gets to exit (after its pipe broke, it raised, or it acknowledged
#: ``close``) before it is terminated, then killed.
EXIT_GRACE = 5.0


class WorkerDied(RuntimeError):
    """The worker process of env ``index`` is gone: killed (``exitcode`` is minus the signal),
    crashed, or its env raised (Gymnasium's worker then exits). ``what`` says which."""

    def __init__(self, index: int, what: str, exitcode: int | None = None,
                 pid: int | None = None) -> None:
        self.index, self.what, self.exitcode, self.pid = index, what, exitcode, pid
        super().__init__(
            f"env {index}: {what}. Its episode is lost and this vector env cannot go on: "
            "close() it (closing never raises for a dead worker) and make a new one, or build "
            "it with phone_gym.make_vec(..., autorestart=True) to have a dead worker "
            "restarted with a fresh env (its step then ends the episode: truncated=True, "
            "info['restarted'], info['worker_error']).")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.index, self.what, self.exitcode, self.pid)


def exit_reason(exitcode: int | None) -> str:
    """How a process ended, in words (``killed by SIGKILL (exit code -9)``)."""
    if exitcode is None:
        return "closed its pipe while still running"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"was killed by {name} (exit code {exitcode})"
    return f"exited with code {exitcode}"


def restart_seed(index: int, restarts: int, seed: int | None = None) -> int:
    """The seed env ``index``'s fresh env is reset with after its worker's ``restarts``-th
    restart: derived from the index, the count and the env's last reset ``seed`` (if any),
    so a rerun restarts into the same episodes."""
    entropy = [index, restarts] if seed is None else [index, restarts, int(seed)]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


@dataclass
class _Restart:
    """A restarted env whose truncated step is still to be returned."""

    worker_error: str
    observation: Any  # None when it is in shared memory
    info: dict[str, Any]


class _Workers(list):  # type: ignore[type-arg]
    """``AsyncVectorEnv.processes``, remembering how each process was made: a started
    ``Process`` drops its target and arguments (the shared memory and the semaphore among
    them, kept nowhere else), which a restart needs."""

    def __init__(self, processes: Iterable[BaseProcess] = ()) -> None:
        super().__init__(processes)
        self.recipes: list[tuple[Any, tuple[Any, ...], str]] = []

    def append(self, process: BaseProcess) -> None:
        # AsyncVectorEnv.__init__ appends each process before it starts it (Gymnasium 1.0-1.4)
        self.recipes.append((getattr(process, "_target", None),
                             tuple(getattr(process, "_args", ())), process.name))
        super().append(process)


class PhoneAsyncVectorEnv(AsyncVectorEnv[Any, Any]):
    """Gymnasium's ``AsyncVectorEnv`` that survives its workers' deaths.

    Processes and pipes are Gymnasium's (``gymnasium/vector/async_vector_env.py``: a
    ``ctx.Pipe()`` and a ``ctx.Process`` per env, the child's end closed here, commands
    ``(name, data)`` answered ``(result, success)``, errors through ``error_queue``). What
    changes: each pipe write and read notices a worker that is gone (a broken pipe, the
    pipe's end of file, the process's sentinel), every other worker's answer is still read
    (the pipes stay in step), and ``close()`` ends every process whatever happened.

    - ``autorestart=False``: the call that finds a worker gone raises ``WorkerDied`` (or,
      as Gymnasium does, the exception the env raised), and so does every later call but
      ``close()``.
    - ``autorestart=True``: the worker is started again as it first was (worker function, env
      factory, shared memory, error queue, autoreset mode, semaphore) and its fresh env reset
      with ``restart_seed``. Its ``step`` returns reward 0, ``terminated=False``,
      ``truncated=True``, ``info["restarted"] = True`` and ``info["worker_error"]`` (what
      happened): the episode ends there, and the other envs' steps are untouched. By
      autoreset mode: ``NextStep`` (the default): the observation is the fresh env's first
      one, and its next step is the reset step (action ignored, reward 0, the reset info);
      ``SameStep``: the info also holds the fresh env's reset info, ``final_info`` and
      ``final_obs`` (the fresh observation too: the lost episode's last one is gone);
      ``Disabled``: reset it as any ended env. A worker lost in ``reset`` is restarted and
      reset as asked (its info has the two keys); one lost in ``call``/``set_attr`` is
      restarted, the call repeated if it died (raised again if the env raised), and its
      episode ends at the next ``step``. A worker that is lost again before its fresh env
      is reset raises ``WorkerDied``. ``restarts[i]`` counts env ``i``'s restarts.

    With ``max_concurrency``, a worker killed while it held a permit takes it along.
    """

    def __init__(self, env_fns: Sequence[Callable[[], Any]], *, autorestart: bool = False,
                 **kwargs: Any) -> None:
        self.autorestart = autorestart
        self.restarts = [0] * len(env_fns)
        self._gone: dict[int, str] = {}  # env -> what happened to its worker (not restarted)
        self._restarted: dict[int, _Restart] = {}  # restarted, the episode's end not returned
        self._reset_steps: dict[int, tuple[Any, dict[str, Any]]] = {}  # NextStep: due next
        self._due: dict[int, tuple[Any, dict[str, Any]]] = {}  # the reset steps of this step
        self._reported: dict[int, str] = {}  # restarted in this reset: info keys to add
        self._errors: dict[int, tuple[Any, Any, str]] = {}  # from error_queue, by env
        self._seeds: list[int | None] = [None] * len(env_fns)  # last reset seeds
        self._expect: list[int] = []  # the envs whose answer the pending call waits for
        self._resets: dict[int, dict[str, Any]] = {}
        self._call: tuple[str, tuple[Any, ...], dict[str, Any]] = ("", (), {})
        super().__init__(env_fns, **kwargs)

    @property  # type: ignore[override]
    def processes(self) -> list[BaseProcess]:
        """The worker processes, one per env (a restart replaces one)."""
        return self._workers

    @processes.setter
    def processes(self, value: list[BaseProcess]) -> None:
        self._workers = _Workers(value)

    # --- one worker ----------------------------------------------------------------------
    def _died(self, i: int) -> WorkerDied:
        process = self.processes[i]
        return WorkerDied(i, self._gone.get(i, "the worker process is gone"), process.exitcode,
                          process.pid)

    def _lose(self, i: int, what: str | None = None) -> None:
        """Note env ``i``'s worker as gone, and reap it (killed if it still runs)."""
        if i in self._gone:
            return
        process = self.processes[i]
        process.join(EXIT_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
        pipe = self.parent_pipes[i]
        if pipe is not None:
            pipe.close()
        self._gone[i] = f"its worker process (pid {process.pid}) " + (
            what or exit_reason(process.exitcode))
        logger.warn(f"env {i}: {self._gone[i]}")

    def _send(self, i: int, command: str, data: Any = None) -> bool:
        """Send a command to env ``i``'s worker; False (noted as gone) if its pipe broke."""
        pipe = self.parent_pipes[i]
        if i in self._gone or pipe is None or pipe.closed:
            self._lose(i)
            return False
        try:
            pipe.send((command, data))
        except OSError:  # BrokenPipeError, ConnectionResetError: the worker's end is closed
            self._lose(i)
            return False
        return True

    def _ready(self, i: int, timeout: float | None) -> bool:
        """Whether env ``i``'s worker answered, or ended, within ``timeout`` seconds."""
        pipe = self.parent_pipes[i]
        if i in self._gone or pipe is None or pipe.closed:
            return True
        return bool(wait([pipe, self.processes[i].sentinel], timeout))

    def _recv(self, i: int) -> tuple[Any, bool] | None:
        """Env ``i``'s answer ``(result, success)``; None when its worker is gone."""
        pipe = self.parent_pipes[i]
        if i not in self._gone and pipe is not None and not pipe.closed:
            try:
                self._ready(i, None)  # an answer, or the process's end (the sentinel)
                if pipe.poll():  # the end of file counts: recv raises EOFError
                    return pipe.recv()  # type: ignore[no-any-return]
            except (EOFError, OSError):
                pass
        self._lose(i)
        return None

    def _error_of(self, i: int) -> tuple[Any, Any, str]:
        """``(type, value, traceback)`` of what env ``i``'s worker raised (``error_queue``)."""
        while i not in self._errors:
            try:
                index, exctype, value, trace = self.error_queue.get(timeout=EXIT_GRACE)
            except queue.Empty:
                return RuntimeError, "the worker reported an error but did not say which", ""
            self._errors[index] = (exctype, value, trace)
        return self._errors.pop(i)

    def _start_worker(self, i: int) -> None:
        """Start env ``i``'s worker again, as ``AsyncVectorEnv.__init__`` started it."""
        target, args, name = self._workers.recipes[i]
        old = self.processes[i]
        parent_pipe, child_pipe = multiprocessing.Pipe()
        process = type(old)(target=target, name=name, daemon=old.daemon,
                            args=(args[0], args[1], child_pipe, parent_pipe, *args[4:]))
        with clear_mpi_env_vars():
            process.start()
        child_pipe.close()
        self.parent_pipes[i] = parent_pipe
        self._workers[i] = process

    def _revive(self, i: int) -> None:
        """Restart env ``i``'s worker, reset its fresh env with ``restart_seed`` and note
        that its episode ended; ``WorkerDied`` (or the env's error) if that fails."""
        worker_error = self._gone.pop(i)
        self._start_worker(i)
        self.restarts[i] += 1
        seed = restart_seed(i, self.restarts[i], self._seeds[i])
        self._reset_steps.pop(i, None)
        answers, lost = self._gather([i] if self._send(i, "reset", {"seed": seed}) else [])
        if i not in answers:
            self._state = AsyncState.DEFAULT
            raise lost.get(i) or self._died(i)
        observation, info = answers[i]
        self._restarted[i] = _Restart(worker_error, observation, info)
        logger.warn(f"env {i}: restarted its worker (restart {self.restarts[i]}): a fresh "
                    f"env, reset with seed {seed}")

    # --- all workers ---------------------------------------------------------------------
    def _gather(self, indices: Iterable[int]
                ) -> tuple[dict[int, Any], dict[int, BaseException | None]]:
        """The answers of the workers of ``indices``, every one read, and the envs whose
        worker is gone: index -> the exception its env raised, or None (it died)."""
        answers: dict[int, Any] = {}
        raised: dict[int, BaseException] = {}
        for i in indices:
            reply = self._recv(i)
            if reply is None:
                continue
            result, success = reply
            if success:
                answers[i] = result
                continue
            exctype, value, trace = self._error_of(i)
            logger.error(f"Received the following error from Worker-{i} - Shutting it down")
            logger.error(trace)
            raised[i] = value if isinstance(value, BaseException) else exctype(value)
            self._lose(i, f"raised {type(raised[i]).__name__}: {raised[i]}")
        return answers, {i: raised.get(i) for i in self._gone}

    def _settle(self, lost: dict[int, BaseException | None]) -> None:
        """Envs whose worker is gone: restarted with ``autorestart``; else raise what the env
        raised (as Gymnasium does) or ``WorkerDied``."""
        if not lost:
            return
        if self.autorestart:
            for i in sorted(lost):
                self._revive(i)
            return
        self._state = AsyncState.DEFAULT
        raised = [error for error in lost.values() if error is not None]
        raise raised[-1] if raised else self._died(min(lost))

    def _retry(self, i: int, command: str, data: Any) -> Any:
        """Run a command again on env ``i``'s restarted worker; raise if that fails too."""
        answers, lost = self._gather([i] if self._send(i, command, data) else [])
        if i in answers:
            return answers[i]
        self._state = AsyncState.DEFAULT
        raise lost.get(i) or self._died(i)

    def _start(self, name: str) -> None:
        """Checks before sending a command: running, nothing pending, no worker gone."""
        self._assert_is_running()
        if self._state != AsyncState.DEFAULT:
            raise AlreadyPendingCallError(
                f"Calling `{name}` while waiting for a pending call to `{self._state.value}` "
                "to complete.", str(self._state.value))
        self._settle(dict.fromkeys(self._gone))

    def _wait(self, state: AsyncState, name: str, timeout: float | None) -> None:
        """Checks before reading answers; ``multiprocessing.TimeoutError`` after
        ``timeout`` seconds."""
        self._assert_is_running()
        if self._state != state:
            raise NoAsyncCallError(f"Calling `{name}_wait` without any prior call to "
                                   f"`{name}_async`.", state.value)
        if timeout is None:
            return
        end = time.perf_counter() + timeout
        for i in self._expect:
            if not self._ready(i, max(end - time.perf_counter(), 0)):
                self._state = AsyncState.DEFAULT
                raise multiprocessing.TimeoutError(
                    f"The call to `{name}_wait` has timed out after {timeout} second(s).")

    def _batch(self, observations: list[Any]) -> Any:
        if not self.shared_memory:
            self.observations = concatenate(self.single_observation_space, observations,
                                            self.observations)
        return deepcopy(self.observations) if self.copy else self.observations

    def _autoreset_mode(self) -> str:
        mode = getattr(self, "autoreset_mode", None)  # Gymnasium >= 1.1
        return str(getattr(mode, "value", mode) or "NextStep")

    # --- the commands --------------------------------------------------------------------
    def reset_async(self, seed: int | list[int | None] | None = None,
                    options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError("If seeds are passed as a list the length must match "
                             f"num_envs={self.num_envs} but got length={len(seeds)}.")
        options = dict(options) if options is not None else None
        mask = None if options is None else options.pop("reset_mask", None)
        if mask is not None and (not isinstance(mask, np.ndarray) or mask.dtype != np.bool_
                                 or mask.shape != (self.num_envs,) or not mask.any()):
            raise ValueError("`options['reset_mask']` must be a numpy array of "
                             f"{self.num_envs} bools, at least one True; got {mask!r}")
        self._start("reset_async")
        self._expect, self._resets = [], {}
        for i in range(self.num_envs):
            if mask is None or mask[i]:
                self._resets[i] = kwargs = {"seed": seeds[i], "options": options}
                if seeds[i] is not None:
                    self._seeds[i] = seeds[i]
                self._reset_steps.pop(i, None)
                if i in self._restarted:
                    self._reported[i] = self._restarted.pop(i).worker_error
                sent = self._send(i, "reset", kwargs)
            else:
                sent = self._send(i, "reset-noop")
            if sent:
                self._expect.append(i)
        self._state = AsyncState.WAITING_RESET

    def reset_wait(self, timeout: float | None = None) -> tuple[Any, dict[str, Any]]:
        self._wait(AsyncState.WAITING_RESET, "reset", timeout)
        answers, lost = self._gather(self._expect)
        self._settle(lost)
        for i in sorted(lost):  # restarted: reset as asked (or, masked out, left as it is)
            if i in self._resets:
                self._reported[i] = self._restarted.pop(i).worker_error
                answers[i] = self._retry(i, "reset", self._resets[i])
            else:
                answers[i] = (self._restarted[i].observation, {})
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            info = answers[i][1]
            if i in self._reported:
                info = {**info, "restarted": True, "worker_error": self._reported.pop(i)}
            infos = self._add_info(infos, info, i)
        self._state = AsyncState.DEFAULT
        return self._batch([answers[i][0] for i in range(self.num_envs)]), infos

    def step_async(self, actions: Any) -> None:
        self._start("step_async")
        per_env = list(iterate(self.action_space, actions))  # a bad batch raises here, first
        self._due, self._reset_steps = self._reset_steps, {}
        self._expect = []
        for i, action in enumerate(per_env):
            if i not in self._due and i not in self._restarted and self._send(i, "step",
                                                                             action):
                self._expect.append(i)
        self._state = AsyncState.WAITING_STEP

    def step_wait(self, timeout: float | None = None
                  ) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        self._wait(AsyncState.WAITING_STEP, "step", timeout)
        answers, lost = self._gather(self._expect)
        self._settle(lost)
        mode = self._autoreset_mode()
        rows: list[tuple[Any, ...]] = []
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            if i in answers:
                row = answers[i]
            elif i in self._due:  # NextStep: the step after a restart is the reset step
                observation, info = self._due.pop(i)
                row = (observation, 0.0, False, False, info)
            else:  # restarted: its episode ends here
                row = self._ended(i, mode)
            rows.append(row)
            infos = self._add_info(infos, row[4], i)
        self._state = AsyncState.DEFAULT
        return (self._batch([row[0] for row in rows]),
                np.array([row[1] for row in rows], dtype=np.float64),
                np.array([row[2] for row in rows], dtype=np.bool_),
                np.array([row[3] for row in rows], dtype=np.bool_), infos)

    def _ended(self, i: int, mode: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The truncated step of restarted env ``i``."""
        restart = self._restarted.pop(i)
        note = {"restarted": True, "worker_error": restart.worker_error}
        info: dict[str, Any] = dict(note)
        if mode == "SameStep":
            observation = restart.observation
            if observation is None:  # in shared memory
                observation = deepcopy(next(islice(iterate(self.observation_space,
                                                           self.observations), i, None)))
            info = {**restart.info, "final_obs": observation, "final_info": dict(note), **note}
        elif mode == "NextStep":
            self._reset_steps[i] = (restart.observation, restart.info)
        return restart.observation, 0.0, False, True, info

    def call_async(self, name: str, /, *args: Any, **kwargs: Any) -> None:
        self._start("call_async")
        self._call = (name, args, kwargs)
        self._expect = [i for i in range(self.num_envs) if self._send(i, "_call", self._call)]
        self._state = AsyncState.WAITING_CALL

    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        self._wait(AsyncState.WAITING_CALL, "call", timeout)
        answers, lost = self._gather(self._expect)
        self._settle(lost)
        for i in sorted(lost):
            if lost[i] is None:  # died: ask the fresh env
                answers[i] = self._retry(i, "_call", self._call)
        self._state = AsyncState.DEFAULT
        raised = [error for error in lost.values() if error is not None]
        if raised:
            raise raised[-1]
        return tuple(answers[i] for i in range(self.num_envs))

    def set_attr(self, name: str, values: list[Any] | tuple[Any] | object) -> None:
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError("Values must be a list or tuple with length equal to the number "
                             f"of environments. Got `{len(values)}` values for "
                             f"{self.num_envs} environments.")
        self._start("set_attr")
        answers, lost = self._gather([i for i, value in enumerate(values)
                                      if self._send(i, "_setattr", (name, value))])
        self._settle(lost)
        for i in sorted(lost):
            if lost[i] is None:
                self._retry(i, "_setattr", (name, values[i]))
        raised = [error for error in lost.values() if error is not None]
        if raised:
            raise raised[-1]

    def _check_spaces(self) -> None:
        try:
            super()._check_spaces()
        except (EOFError, OSError) as error:  # a worker ended before answering
            # its pipe can break before its process is reaped: wait (bounded) for it to show
            deadline = time.monotonic() + EXIT_GRACE
            while time.monotonic() < deadline and all(p.is_alive() for p in self.processes):
                time.sleep(0.01)
            for i in range(self.num_envs):
                if not self.processes[i].is_alive():
                    self._lose(i)
            died = self._died(min(self._gone)) if self._gone else None
            self.close(terminate=True)
            if died is None:
                raise
            raise died from error

    def close_extras(self, timeout: float | None = None, terminate: bool = False) -> None:
        """Close the envs and end every worker process; never raises for a worker that is
        gone. A worker still running ``EXIT_GRACE`` seconds after it was asked to close
        (``timeout``, when given, bounds the wait for its answer) is terminated, then
        killed."""
        timeout = 0 if terminate else timeout
        if self._state != AsyncState.DEFAULT:
            logger.warn(f"Calling `close` while waiting for a pending call to "
                        f"`{self._state.value}` to complete.")
            try:
                getattr(self, f"{self._state.value}_wait")(timeout)
            except multiprocessing.TimeoutError:
                terminate = True
            except Exception as error:  # noqa: BLE001 - a failed worker must not stop closing
                logger.warn(f"while closing: {error!r}")
            self._state = AsyncState.DEFAULT
        if not terminate:
            end = None if timeout is None else time.perf_counter() + timeout
            for i in [i for i in range(self.num_envs) if self._send(i, "close")]:
                left = None if end is None else max(end - time.perf_counter(), 0)
                if not self._ready(i, left):
                    terminate = True
                    break
                self._recv(i)
        for process in self.processes:
            process.join(0 if terminate else EXIT_GRACE)
            if process.is_alive():
                process.terminate()
                process.join(EXIT_GRACE)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self.parent_pipes:
            if pipe is not None:
                pipe.close()


__all__ = ["EXIT_GRACE", "PhoneAsyncVectorEnv", "WorkerDied", "compact_info", "exit_reason",
           "obs_writer", "phone_worker", "restart_seed"]
