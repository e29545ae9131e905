"""What an env holds of its own: no image-sized arrays beyond its frames (the screenshot
space's bounds are shared per size; fills are cached as rows)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world import render


def test_envs_share_the_screenshot_bounds_read_only() -> None:
    a, b = PhoneWorldEnv(), PhoneWorldEnv()
    box_a, box_b = a.observation_space["screenshot"], b.observation_space["screenshot"]
    assert box_a is not box_b
    for name in ("low", "high", "bounded_below", "bounded_above"):
        assert np.shares_memory(getattr(box_a, name), getattr(box_b, name))
        with pytest.raises(ValueError):
            getattr(box_a, name)[0, 0, 0] = 1
    box_a.seed(1)  # each env's space draws from its own generator
    assert box_b.np_random is not box_a.np_random
    assert box_a == b.observation_space["screenshot"] and box_a.sample() in box_b


def test_making_an_env_allocates_its_two_first_images_only() -> None:
    PhoneWorldEnv()  # what is made once per process
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        env = PhoneWorldEnv()
        made = tracemalloc.get_traced_memory()[0] - base
        text_only = PhoneWorldEnv(screenshot=False)
        made_text_only = tracemalloc.get_traced_memory()[0] - base - made
    finally:
        tracemalloc.stop()
    assert env.observation_space["screenshot"].shape == (1200, 540, 3)
    image = 1200 * 540 * 3  # 1.9 MiB (the space's bounds were four more)
    # the renderer's own image and the first observation's: made with the env, so that a
    # new env's first reset does not pay for new memory; nothing else image-sized
    assert 2 * image <= made < 2 * image + 2**20
    assert made_text_only < 2**20 and text_only._first_shot is None
    shot = env.reset(seed=0)[0]["screenshot"]
    assert env._first_shot is None and shot.flags.writeable and shot.flags.owndata
    assert not np.shares_memory(shot, env.reset(seed=1)[0]["screenshot"])


@pytest.mark.parametrize("kw", [{}, {"locale": "zh-CN"}, {"obs_size": (270, 600)},
                                {"set_of_marks": True}])
def test_a_new_envs_first_screenshot_is_a_whole_redraw(kw: dict) -> None:
    # its renderer composes it over the blank frame painted when the env was made
    env = PhoneWorldEnv(task=["SimpleCalendarEventsOnDate", "ContactsAddContact"], **kw)
    shot = env.reset(seed=2)[0]["screenshot"]
    whole = render.Renderer(*env.obs_size, cache_tiles=False).render(env.device.frame())
    assert np.array_equal(env.render() if env.render_mode else env._screenshot(), whole)
    if not kw.get("set_of_marks"):
        assert np.array_equal(shot, whole)


def test_a_fill_is_a_row_that_paints_what_the_color_paints() -> None:
    color = (12, 200, 77)
    row = render._fill(540, color)
    assert row.shape == (1, 540, 3) and not row.flags.writeable
    out, want = np.zeros((1200, 540, 3), np.uint8), np.zeros((1200, 540, 3), np.uint8)
    op = (None, 0, 0, 0, 1200, 0, 540)
    render._apply(out, [op], [color], (100, 300, 20, 500))
    want[100:300, 20:500] = color
    assert np.array_equal(out, want)
    render._apply(out, [op], [color], None)
    assert (out == np.array(color, np.uint8)).all()
