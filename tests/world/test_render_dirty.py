"""A frame composed from dirty regions (``Renderer.render`` redraws only the rects whose paint
operations changed, into a copy of the last image) equals a full redraw without the tile
cache, over seeded walks (oracle and random actions) in several apps."""

from __future__ import annotations

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world.render import Renderer, TileCache, bounding, merge_rects

SIZE = (270, 600)


@pytest.mark.parametrize("app", ["Contacts", "Calendar", "Music", "Maps", "Settings", "Shop"])
def test_dirty_frames_equal_full_redraws(app: str) -> None:
    env = PhoneWorldEnv(apps=app, obs_size=SIZE)
    env.renderer = Renderer(*SIZE, cache=TileCache())  # its own cache: the misses are drawn
    full = Renderer(*SIZE, cache_tiles=False)  # every tile drawn afresh, the whole frame
    env.reset(seed=7)
    env.action_space.seed(7)
    partial = 0
    for i in range(48):
        action = env.action_space.sample() if i % 6 == 5 else env.oracle_action()
        before = env.renderer._last
        obs, _, terminated, truncated, _ = env.step(action)
        partial += bool(env.renderer._dirty(before, env.renderer._last))
        assert np.array_equal(obs["screenshot"], full.render(env.device.frame())), (app, i)
        if terminated or truncated:
            env.reset()
    assert partial > 0  # the dirty path was taken (not only full redraws)


def test_renderer_output_is_a_new_array_each_time() -> None:
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE)
    env.reset(seed=1)
    renderer = Renderer(*SIZE, cache=TileCache())
    first = renderer.render(env.device.frame())
    second = renderer.render(env.device.frame())  # nothing moved: a copy of the first
    assert second is not first and np.array_equal(first, second)


def test_merge_rects() -> None:
    # (y0, y1, x0, x1): the first two overlap, the third does not
    assert sorted(merge_rects([(0, 10, 0, 10), (5, 20, 5, 20), (30, 40, 0, 5)])) == [
        (0, 20, 0, 20), (30, 40, 0, 5)]
    # a chain: c overlaps the merge of a and b only
    assert merge_rects([(0, 10, 0, 10), (0, 10, 20, 30), (5, 6, 5, 25)]) == [(0, 10, 0, 30)]
    many = [(i * 10, i * 10 + 5, 0, 5) for i in range(20)]
    assert merge_rects(many) == [bounding(many)] == [(0, 195, 0, 5)]
