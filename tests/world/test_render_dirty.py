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


def test_view_redraws_in_place_and_leaves_rendered_images_alone() -> None:
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE)
    env.reset(seed=3)
    renderer = Renderer(*SIZE, cache=TileCache())
    full = Renderer(*SIZE, cache_tiles=False)
    kept = renderer.render(env.device.frame())
    kept_pixels = kept.copy()
    views = []
    for _ in range(4):
        env.step(env.oracle_action())
        shown = renderer.view(env.device.frame())
        assert not shown.flags.writeable
        assert np.array_equal(shown, full.render(env.device.frame()))
        views.append(shown)
    assert np.array_equal(kept, kept_pixels)  # render's image is the caller's: never drawn on
    assert np.shares_memory(views[1], views[-1])  # one buffer, redrawn in place
    env.step(env.oracle_action())
    again = renderer.render(env.device.frame())  # a new array, after views
    assert not np.shares_memory(again, views[-1])
    assert np.array_equal(again, full.render(env.device.frame()))


def test_a_renderer_composes_into_an_adopted_buffer() -> None:
    """After ``adopt``, ``view`` composes into the caller's buffer in place (the frames equal
    full redraws); ``render`` returns a new array and composes away from the buffer, which
    is then left alone; a buffer of another shape or type is refused."""
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE)
    env.reset(seed=3)
    renderer = Renderer(*SIZE, cache=TileCache())
    full = Renderer(*SIZE, cache_tiles=False)
    buffer = renderer.view(env.device.frame()).copy()
    renderer.adopt(buffer)
    for _ in range(8):
        env.step(env.oracle_action())
        shown = renderer.view(env.device.frame())
        assert np.shares_memory(shown, buffer)
        assert np.array_equal(buffer, full.render(env.device.frame()))
    kept = buffer.copy()
    env.step(env.oracle_action())
    image = renderer.render(env.device.frame())
    assert not np.shares_memory(image, buffer)
    env.step(env.oracle_action())
    shown = renderer.view(env.device.frame())
    assert not np.shares_memory(shown, buffer) and np.array_equal(buffer, kept)
    assert np.array_equal(shown, full.render(env.device.frame()))
    for bad in (np.zeros((SIZE[1], SIZE[0], 4), np.uint8), buffer[::2], buffer.astype(float)):
        with pytest.raises(ValueError, match="accepted: a writable, C-contiguous uint8"):
            renderer.adopt(bad)


def test_a_lent_screenshot_is_the_renderers_image() -> None:
    """With ``lend_screenshot`` an observation's screenshot is the renderer's read-only
    image (the same pixels, no copy); without, a copy of its own."""
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE)
    obs, _ = env.reset(seed=3)
    assert obs["screenshot"].flags.writeable
    env.lend_screenshot = True
    obs, *_ = env.step(env.oracle_action())
    lent = obs["screenshot"]
    assert not lent.flags.writeable and np.shares_memory(lent, env.renderer._buf)
    env.lend_screenshot = False
    again, *_ = env.step("wait()")
    assert again["screenshot"].flags.writeable
    assert not np.shares_memory(again["screenshot"], env.renderer._buf)


def test_env_screenshot_follows_a_renderer_used_elsewhere() -> None:
    env = PhoneWorldEnv(apps="Contacts", obs_size=SIZE, render_mode="rgb_array")
    env.reset(seed=2)
    full = Renderer(*SIZE, cache_tiles=False)
    frame = env.device.frame()
    before = full.render(frame)
    for _ in range(10):  # until the screen changes
        env.step(env.oracle_action())
        now = full.render(env.device.frame())
        if not np.array_equal(now, before):
            break
    assert not np.array_equal(now, before)
    env.renderer.view(frame)  # the env's renderer composes the earlier frame meanwhile
    shot = env.render()
    assert shot is not None and np.array_equal(shot, now)


def test_tile_keys_name_palettes_by_number_and_pickle_empty() -> None:
    import pickle
    from dataclasses import replace

    from phone_gym.world.render import _PALETTES, palette_id
    from phone_gym.world.theme import DEFAULT_PALETTE

    other = replace(DEFAULT_PALETTE, primary=(1, 2, 3))
    a, b = palette_id(DEFAULT_PALETTE), palette_id(other)
    assert a != b and palette_id(replace(DEFAULT_PALETTE)) == a
    assert _PALETTES[a] == DEFAULT_PALETTE and _PALETTES[b] == other
    from phone_gym.world.layout import Frame
    from phone_gym.world.widgets import Node

    renderer = Renderer(*SIZE, cache=TileCache())
    frame = Frame()
    frame.add(Node("text", text="Hello", id="t"), (96, 940, 984, 1000))
    renderer.render(frame)
    assert len(renderer.cache) > 0
    clone = pickle.loads(pickle.dumps(renderer.cache))
    assert len(clone) == 0 and clone.nbytes == 0 and clone.max_tiles == renderer.cache.max_tiles
