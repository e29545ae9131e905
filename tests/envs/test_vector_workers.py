"""``make_vec``'s workers may die (killed, crashed, or their env raised): the vector env says
which one and what to do (``WorkerDied``), closes without leaving a process behind, and with
``autorestart=True`` restarts the worker while the other envs' episodes go on unchanged."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.vector_env import AutoresetMode

import phone_gym
from phone_gym.envs.vector import (
    PhoneAsyncVectorEnv,
    WorkerDied,
    exit_reason,
    phone_worker,
    restart_seed,
)

N, SEEDS, STEPS, KILL_AT = 3, [21, 22, 23], 8, 3
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # gymnasium's logger.warn


def children() -> set[int]:
    """Pids of this process's child processes (psutil's view when installed)."""
    mp.active_children()  # reaps the multiprocessing children that ended
    try:
        import psutil
    except ImportError:
        return {p.pid for p in mp.active_children() if p.pid is not None}
    return {p.pid for p in psutil.Process().children(recursive=True)
            if p.status() != psutil.STATUS_ZOMBIE}


@pytest.fixture
def no_new_children() -> Any:
    before = children()
    yield
    deadline = time.monotonic() + 5
    while children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not children() - before, "a worker process was left behind"


def plain(value: Any) -> Any:
    """Comparable plain values (arrays as bytes and shape)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def env_obs(obs: Any, i: int) -> Any:
    return {k: plain(np.asarray(v[i]) if not isinstance(v, tuple) else v[i])
            for k, v in obs.items()}


def env_info(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s info out of a vector info (Gymnasium's ``_key`` masks)."""
    return {k: env_info(v, i) if isinstance(v, dict) else plain(v[i])
            for k, v in infos.items() if not k.startswith("_") and infos[f"_{k}"][i]}


def row(result: tuple[Any, ...], i: int) -> tuple[Any, ...]:
    """Env ``i``'s ``(obs, reward, terminated, truncated, info)`` out of a vector step."""
    obs, reward, terminated, truncated, infos = result
    return (env_obs(obs, i), float(reward[i]), bool(terminated[i]), bool(truncated[i]),
            env_info(infos, i))


def actions(vec: gym.vector.VectorEnv, steps: int = STEPS) -> list[Any]:
    vec.action_space.seed(7)
    return [vec.action_space.sample() for _ in range(steps)]


def reference(steps: int = STEPS, **kwargs: Any) -> list[tuple[Any, ...]]:
    """Every step of a run nobody kills: ``[(obs, infos), step results...]``."""
    vec = phone_gym.make_vec(N, **kwargs)
    try:
        out: list[tuple[Any, ...]] = [vec.reset(seed=SEEDS)]
        out += [vec.step(a) for a in actions(vec, steps)]
    finally:
        vec.close()
    return out


@pytest.fixture(scope="module")
def ref() -> list[tuple[Any, ...]]:
    return reference()


def single_run(seed: int, acts: list[Any], index: int) -> list[tuple[Any, ...]]:
    """One in-process env, reset with ``seed`` and stepped with env ``index``'s actions,
    with the ``NextStep`` autoreset of a vector env."""
    env = gym.make("PhoneWorld-v0")
    obs, info = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs, 0.0, False, False, info)]
    ended = False
    for batch in acts:
        action = {k: v[index] for k, v in batch.items()}
        if ended:
            obs, info = env.reset()
            out.append((obs, 0.0, False, False, info))
        else:
            out.append(env.step(action))
        ended = out[-1][2] or out[-1][3]
    env.close()
    return [(plain(o), float(r), bool(te), bool(tr), plain(dict(i))) for o, r, te, tr, i in out]


def kill(vec: Any, i: int) -> None:
    pid = vec.processes[i].pid
    os.kill(pid, signal.SIGKILL)
    vec.processes[i].join(5)  # dead before the next call: no race on who notices first


# --- without autorestart ---------------------------------------------------------------------


def test_killed_worker_raises_worker_died_and_close_ends_every_process(
        ref: list[tuple[Any, ...]], no_new_children: None) -> None:
    vec = phone_gym.make_vec(N)
    acts = actions(vec)
    vec.reset(seed=SEEDS)
    for step in range(KILL_AT):
        got = vec.step(acts[step])
        assert [row(got, i) for i in range(N)] == [row(ref[step + 1], i) for i in range(N)]
    pid = vec.processes[1].pid
    kill(vec, 1)
    for _ in range(2):  # this step and every later call
        with pytest.raises(WorkerDied) as caught:
            vec.step(acts[KILL_AT])
        error = caught.value
        assert (error.index, error.exitcode, error.pid) == (1, -signal.SIGKILL, pid)
        assert isinstance(error, RuntimeError)
        for words in ("env 1", f"pid {pid}", "SIGKILL", "autorestart=True", "close()"):
            assert words in str(error)
    with pytest.raises(WorkerDied, match="env 1"):
        vec.get_attr("app_names")
    with pytest.raises(WorkerDied):
        vec.reset(seed=SEEDS)
    vec.close()  # never raises for a dead worker
    vec.close()
    assert not any(p.is_alive() for p in vec.processes)


def test_worker_killed_while_a_step_is_pending_then_close(no_new_children: None) -> None:
    vec = phone_gym.make_vec(N)
    vec.reset(seed=SEEDS)
    vec.step_async(actions(vec, 1)[0])
    kill(vec, 2)
    vec.close()  # reads the pending answers, dead worker included, then closes
    assert vec.closed


def test_env_error_raises_as_gymnasium_then_worker_died(no_new_children: None) -> None:
    vec = PhoneAsyncVectorEnv(factories(crash={1: ("raise", 2)}), worker=phone_worker)
    acts = actions(vec)
    vec.reset(seed=SEEDS)
    vec.step(acts[0])
    with pytest.raises(RuntimeError, match="boom in env step"):  # the env's own exception
        vec.step(acts[1])
    with pytest.raises(WorkerDied, match="raised RuntimeError: boom in env step"):
        vec.step(acts[2])
    vec.close()


def test_worker_that_cannot_start_is_reported(no_new_children: None) -> None:
    parent = os.getpid()

    def make() -> gym.Env[Any, Any]:
        if os.getpid() != parent:  # in the worker: its env cannot be made
            sys.exit(3)
        return gym.make("PhoneWorld-v0")

    with pytest.raises(WorkerDied, match="exited with code 3"):
        PhoneAsyncVectorEnv([make, make], worker=phone_worker)


def test_exit_reasons_and_restart_seeds() -> None:
    assert exit_reason(-9) == "was killed by SIGKILL (exit code -9)"
    assert exit_reason(1) == "exited with code 1"
    assert restart_seed(1, 1, 22) == restart_seed(1, 1, 22)
    assert len({restart_seed(1, 1, 22), restart_seed(1, 2, 22), restart_seed(0, 1, 22),
                restart_seed(1, 1, None), restart_seed(1, 1, 23)}) == 5
    error = WorkerDied(2, "its worker process (pid 5) was killed by SIGKILL", -9, 5)
    import pickle
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.index, copy.exitcode, copy.pid, str(copy)) == (2, -9, 5, str(error))
    with pytest.raises(ValueError, match="async"):
        phone_gym.make_vec(2, vectorization_mode="sync", autorestart=True)


# --- with autorestart ------------------------------------------------------------------------


def test_autorestart_restarts_a_killed_worker_and_the_others_go_on(
        ref: list[tuple[Any, ...]], no_new_children: None) -> None:
    vec = phone_gym.make_vec(N, autorestart=True)
    acts = actions(vec)
    _, infos = vec.reset(seed=SEEDS)
    assert "restarted" not in infos
    got = []
    for step in range(STEPS):
        if step == KILL_AT:
            kill(vec, 1)
        got.append(vec.step(acts[step]))
    vec.close()
    assert vec.restarts == [0, 1, 0]
    for i in (0, 2):  # the other envs' episodes: as if nothing happened
        assert [row(g, i) for g in got] == [row(r, i) for r in ref[1:]], f"env {i}"
    assert [row(g, 1) for g in got[:KILL_AT]] == [row(r, 1) for r in ref[1:KILL_AT + 1]]
    # env 1: its episode ends (truncated) at the kill, on a fresh env reset with the
    # restart seed; the next step is the reset step (NextStep), then the fresh episode
    fresh = single_run(restart_seed(1, 1, SEEDS[1]), acts[KILL_AT + 2:], 1)
    obs, reward, terminated, truncated, info = row(got[KILL_AT], 1)
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["restarted"] is True and "SIGKILL" in info["worker_error"]
    assert set(info) == {"restarted", "worker_error"}
    assert obs == fresh[0][0]
    obs, reward, terminated, truncated, info = row(got[KILL_AT + 1], 1)
    assert (obs, reward, terminated, truncated) == (fresh[0][0], 0.0, False, False)
    assert info == fresh[0][4] and "restarted" not in info
    assert [row(g, 1) for g in got[KILL_AT + 2:]] == fresh[1:]


def test_autorestart_after_a_crash_inside_step(ref: list[tuple[Any, ...]],
                                               no_new_children: None) -> None:
    """Env 1 kills itself in its 3rd step (a segfault, say), env 2 raises in its 5th: both
    are restarted, env 0 goes on."""
    vec = PhoneAsyncVectorEnv(factories(crash={1: ("kill", 3), 2: ("raise", 5)}),
                              worker=phone_worker, autorestart=True)
    acts = actions(vec)
    vec.reset(seed=SEEDS)
    got = [vec.step(a) for a in acts]
    vec.close()
    assert [row(g, 0) for g in got] == [row(r, 0) for r in ref[1:]]
    killed, raised = row(got[2], 1), row(got[4], 2)
    assert killed[3] and "was killed by SIGKILL" in killed[4]["worker_error"]
    assert raised[3] and raised[4]["worker_error"].endswith(
        "raised RuntimeError: boom in env step 5")
    assert [row(g, 2) for g in got[:4]] == [row(r, 2) for r in ref[1:5]]
    # the fresh env 1 crashes in its own 3rd step again (after its reset step): restart 2
    assert [row(g, 1)[3] for g in got] == [False, False, True, False, False, False, True,
                                           False]
    assert vec.restarts == [0, 2, 1]


def test_autorestart_in_reset_and_call(no_new_children: None) -> None:
    vec = phone_gym.make_vec(N, autorestart=True)
    acts = actions(vec)
    try:
        vec.reset(seed=SEEDS)
        kill(vec, 0)
        obs, infos = vec.reset(seed=[5, 6, 7])  # reset as asked, and said so
        want, _ = gym.make("PhoneWorld-v0").reset(seed=5)
        assert env_obs(obs, 0) == plain(want)
        assert list(infos["restarted"]) == [True, False, False]
        assert "SIGKILL" in infos["worker_error"][0]
        kill(vec, 2)
        assert len(vec.get_attr("app_names")) == N  # asked again of the fresh env
        result = vec.step(acts[0])  # its episode ends at the next step
        assert row(result, 2)[3] and row(result, 2)[4]["restarted"]
        assert not row(result, 0)[3] and "restarted" not in row(result, 0)[4]
        kill(vec, 1)
        vec.set_attr("end_on_success", True)
        assert vec.get_attr("end_on_success") == (True,) * N
        assert vec.restarts == [1, 1, 1]
    finally:
        vec.close()


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
def test_autorestart_in_the_other_autoreset_modes(mode: AutoresetMode,
                                                  no_new_children: None) -> None:
    kwargs = {"vector_kwargs": {"autoreset_mode": mode, "shared_memory": False}}
    vec = phone_gym.make_vec(N, autorestart=True, **kwargs)
    acts = actions(vec)
    vec.reset(seed=SEEDS)
    vec.step(acts[0])
    kill(vec, 1)
    result = vec.step(acts[1])
    obs, reward, terminated, truncated, info = row(result, 1)
    fresh, _ = gym.make("PhoneWorld-v0").reset(seed=restart_seed(1, 1, SEEDS[1]))
    assert (obs, reward, terminated, truncated) == (plain(fresh), 0.0, False, True)
    assert info["restarted"] and "SIGKILL" in info["worker_error"]
    if mode == AutoresetMode.SAME_STEP:
        assert info["final_info"] == {"restarted": True, "worker_error": info["worker_error"]}
        assert info["final_obs"] == plain(fresh) and "instruction" in info
        assert not row(vec.step(acts[2]), 1)[3]  # the fresh episode goes on
    else:
        vec.reset(seed=[None, 9, None], options={"reset_mask": np.array([False, True, False])})
        assert not row(vec.step(acts[2]), 1)[3]
    vec.close()


# --- envs that crash -------------------------------------------------------------------------


class Crash(gym.Wrapper[Any, Any, Any, Any]):
    """Kills its own process (``"kill"``) or raises (``"raise"``) in its ``at``-th step."""

    def __init__(self, env: gym.Env[Any, Any], how: str, at: int) -> None:
        super().__init__(env)
        self.how, self.at, self.steps = how, at, 0

    def step(self, action: Any) -> Any:
        self.steps += 1
        if self.steps == self.at and os.getpid() != PARENT:
            if self.how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError(f"boom in env step {self.at}")
        return super().step(action)


PARENT = os.getpid()


def factories(crash: dict[int, tuple[str, int]]) -> list[Any]:
    def make(i: int) -> Any:
        def env() -> gym.Env[Any, Any]:
            made = gym.make("PhoneWorld-v0")
            return Crash(made, *crash[i]) if i in crash else made
        return env
    return [make(i) for i in range(N)]
