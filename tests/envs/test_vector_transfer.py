"""``phone_gym.envs.vector``: the worker ``make_vec`` uses gives the same observations,
rewards and infos as Gymnasium's own worker and as in-process envs, with compact infos;
the pieces it is made of (compact UI element lists, shared-memory writers, text codecs)."""

from __future__ import annotations

import hashlib
import inspect
import multiprocessing as mp
import pickle
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.spaces.utils import flatten
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from gymnasium.vector.vector_env import AutoresetMode

import phone_gym
from phone_gym.envs import PhoneWorldEnv, SharedText
from phone_gym.envs.contract import obs_charset
from phone_gym.envs.infos import PackedUIElements, UIElementList, ui_rows
from phone_gym.envs.spaces import decode_text, encode_text
from phone_gym.envs.vector import compact_info, obs_writer, phone_worker
from phone_gym.world.a11y import ui_elements

N, STEPS = 3, 40


def fns(**kwargs: Any) -> list:
    return [lambda: gym.make("PhoneWorld-v0", **kwargs) for _ in range(N)]


def plain(value: Any) -> Any:
    """Batched observations or infos as plain, comparable Python values (big arrays as a
    digest of their bytes)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return [plain(v) for v in value]
        if value.size > 1000:
            return (value.dtype.str, value.shape, hashlib.sha1(value.tobytes()).hexdigest())
        return value.tolist()
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [plain(v) for v in value]
    return value


def rollout(vec: gym.vector.VectorEnv, steps: int = STEPS) -> list[Any]:
    """Everything ``vec`` returns over ``steps`` seeded random steps, as plain values."""
    vec.action_space.seed(0)
    actions = [vec.action_space.sample() for _ in range(steps)]
    try:
        out = [plain(vec.reset(seed=list(range(N))))]
        out += [plain(vec.step(action)) for action in actions]
    finally:
        vec.close()
    return out


def assert_same(got: list[Any], want: list[Any], what: str) -> None:
    assert len(got) == len(want)
    for step, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"{what}: step {step} differs"


@pytest.fixture(scope="module")
def in_process() -> list[Any]:
    """The reference: in-process envs, whose UI element lists are checked against
    ``UIElement.to_dict`` of each env's screen after every step."""
    vec = gym.vector.SyncVectorEnv(fns())
    checked: list[int] = []

    class Checked(gym.vector.VectorWrapper):
        def reset(self, **kwargs: Any) -> Any:
            return self._check(self.env.reset(**kwargs))

        def step(self, actions: Any) -> Any:
            return self._check(self.env.step(actions))

        def _check(self, result: Any) -> Any:
            for i, env in enumerate(vec.envs):
                want = [e.to_dict() for e in ui_elements(env.unwrapped.device.frame())]
                assert list(result[-1]["ui_elements"][i]) == want
            checked.append(len(vec.envs))
            return result

    out = rollout(Checked(vec))
    assert checked == [N] * (STEPS + 1)
    return out


def test_make_vec_async_matches_gymnasium_worker_and_sync(in_process: list[Any]) -> None:
    ended = sum(int(np.sum(r[2]) + np.sum(r[3])) for r in in_process[1:])
    assert ended > 0, "no episode ended: autoreset untested"
    vec = phone_gym.make_vec(N)
    assert vec.worker is phone_worker
    assert_same(rollout(vec), in_process, "make_vec vs sync")
    assert_same(rollout(gym.vector.AsyncVectorEnv(fns())), in_process, "gymnasium vs sync")


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
def test_autoreset_modes_match_gymnasium_worker(mode: AutoresetMode) -> None:
    def run(worker: Any) -> list[Any]:
        vec = gym.vector.AsyncVectorEnv(fns(), worker=worker, autoreset_mode=mode)
        vec.action_space.seed(1)
        vec.reset(seed=list(range(N)))
        out = []
        try:
            for _ in range(12):
                obs, reward, terminated, truncated, infos = vec.step(vec.action_space.sample())
                out.append(plain((obs, reward, terminated, truncated, infos)))
                if mode == AutoresetMode.DISABLED and (terminated | truncated).any():
                    vec.reset(seed=list(range(N)))
        finally:
            vec.close()
        return out

    ours, theirs = run(phone_worker), run(None)
    assert_same(ours, theirs, mode.value)
    if mode == AutoresetMode.SAME_STEP:  # the final infos' UI element lists came across too
        finals = [elements for s in ours if "final_info" in s[4]
                  for elements in s[4]["final_info"]["ui_elements"] if elements is not None]
        assert finals and all(isinstance(e, dict) for elements in finals for e in elements)


def test_received_infos_read_as_lists_of_dicts_and_pickle() -> None:
    vec = phone_gym.make_vec(2)
    try:
        _, infos = vec.reset(seed=[5, 6])
        _, _, _, _, infos = vec.step(vec.action_space.sample())
    finally:
        vec.close()
    for elements in infos["ui_elements"]:
        assert isinstance(elements, UIElementList) and len(elements) > 0
        assert all(isinstance(e, dict) and "bounds_norm" in e for e in elements)
        assert isinstance(elements[0]["bounds"], list)
    copied = pickle.loads(pickle.dumps(infos))
    assert all(type(e) is list for e in copied["ui_elements"])
    assert plain(copied) == plain(infos)


def test_make_vec_worker_choices() -> None:
    vec = phone_gym.make_vec(1, vector_kwargs={"worker": None, "copy": False})
    assert vec.worker is None and vec.copy is False
    vec.close()
    vec = phone_gym.make_vec(1, vector_kwargs={"copy": False})
    assert vec.worker is phone_worker and vec.copy is False
    vec.close()


def test_worker_calls_attributes_errors_and_concurrency_limit() -> None:
    limit = ({"max_concurrency": 1}  # Gymnasium >= 1.4: the worker gets a semaphore
             if "max_concurrency" in inspect.signature(gym.vector.AsyncVectorEnv).parameters
             else {})
    vec = gym.vector.AsyncVectorEnv(fns(), worker=phone_worker, **limit)
    try:
        vec.reset(seed=0)
        assert vec.get_attr("ui_in_obs") == (False,) * N
        vec.set_attr("end_on_success", True)
        assert vec.get_attr("end_on_success") == (True,) * N
        assert len(vec.call("oracle_action")) == N
        with pytest.raises(ValueError, match="use `step` directly"):
            vec.call("step", None)
    finally:
        vec.close()


def test_ui_in_obs_and_no_shared_memory_match_gymnasium_worker() -> None:
    for kwargs in ({"shared_memory": False}, {}):
        got, want = (rollout(gym.vector.AsyncVectorEnv(fns(ui_in_obs=True), worker=w,
                                                       **kwargs), steps=8)
                     for w in (phone_worker, None))
        assert_same(got, want, f"ui_in_obs {kwargs}")
        assert got[-1][0]["ui"][0].startswith("[0] ")


# --- the pieces -------------------------------------------------------------------------------


def stepped_env(action: str = 'open_app(app="Contacts")') -> PhoneWorldEnv:
    env = PhoneWorldEnv()
    env.reset(seed=0)
    env.step(action)
    return env


def test_ui_element_list_matches_to_dict_and_packs() -> None:
    env = stepped_env()
    frame = env.device.frame()
    want = [e.to_dict() for e in ui_elements(frame)]
    assert UIElementList(frame) == want and list(UIElementList(frame)) == want
    assert ui_rows(frame) is ui_rows(frame)  # the last frame's rows are remembered
    packed = UIElementList(frame).packed()
    assert isinstance(packed, PackedUIElements)
    received = pickle.loads(pickle.dumps(packed))
    assert isinstance(received, UIElementList) and received == want
    assert len(pickle.dumps(packed)) < len(pickle.dumps(want))
    assert type(pickle.loads(pickle.dumps(received))) is list
    env.step('press(button="home")')
    assert UIElementList(env.device.frame()) == [e.to_dict() for e in
                                                 ui_elements(env.device.frame())] != want
    with pytest.raises(ValueError):
        UIElementList()


def test_compact_info_replaces_ui_lists_only() -> None:
    info = stepped_env().step("wait(seconds=1)")[4]
    assert compact_info({"a": 1, "b": {"c": [2]}}) == {"a": 1, "b": {"c": [2]}}
    plain_info = {"a": 1, "b": {"c": [2]}}
    assert compact_info(plain_info) is plain_info
    nested = {"final_info": info, "x": 1}
    out = compact_info(nested)
    assert isinstance(out["final_info"]["ui_elements"], PackedUIElements)
    assert isinstance(nested["final_info"]["ui_elements"], UIElementList)  # not changed
    assert pickle.loads(pickle.dumps(out)) == pickle.loads(pickle.dumps(nested))


def space_cases() -> list[spaces.Space[Any]]:
    return [
        spaces.Dict({"shot": spaces.Box(0, 255, (6, 5, 3), np.uint8),
                     "text": SharedText(40, charset=obs_charset()),
                     "plain": spaces.Text(12, charset="abc"),
                     "k": spaces.Discrete(7),
                     "t": spaces.Tuple((spaces.MultiBinary(4), spaces.Box(-1, 1, (2,)))),
                     "m": spaces.MultiDiscrete([3, 5])}),
        spaces.Box(0, 1, (3, 2), np.float32),
    ]


@pytest.mark.parametrize("space", space_cases())
def test_obs_writer_writes_what_gymnasium_writes(space: spaces.Space[Any]) -> None:
    n = 3
    ours, theirs = (create_shared_memory(space, n=n, ctx=mp) for _ in range(2))
    writers = [obs_writer(space, ours, i) for i in range(n)]
    space.seed(0)
    samples = [space.sample() for _ in range(4)]
    for value in samples + [samples[0], samples[0], samples[1]]:  # unchanged text is skipped
        for index, write in enumerate(writers):
            write(value)
            write_to_shared_memory(space, index, value, theirs)
            assert plain(read_from_shared_memory(space, ours, n)) == plain(
                read_from_shared_memory(space, theirs, n))


def test_text_codecs_match_gymnasium() -> None:
    charset = obs_charset()
    space = SharedText(64, charset=charset)
    rng = np.random.default_rng(0)
    for length in (0, 1, 9, 64):
        for _ in range(20):
            text = "".join(rng.choice(list(charset), length))
            encoded = encode_text(space, text)
            assert encoded.dtype == np.int32
            assert np.array_equal(encoded, flatten(space, text))
            assert decode_text(space, encoded) == text
    for bad, error in (("\ue000", KeyError), ("x" * 65, IndexError), ("\ud800", KeyError)):
        with pytest.raises(error):
            encode_text(space, bad)
