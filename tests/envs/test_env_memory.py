"""What an env holds of its own: no image-sized arrays beyond its frames (the screenshot
space's bounds are shared per size; fills are cached as rows)."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv, phone_world
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
    # its renderer composes it over the home screen painted when the env was made
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


def test_the_first_env_freezes_what_lives_as_long_as_the_process_once(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(phone_world, "_FROZEN", False)
    monkeypatch.setattr(phone_world.gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(phone_world.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.delenv("PHONE_GYM_NO_GC_FREEZE", raising=False)
    PhoneWorldEnv(task=["ContactsAddContact"])
    PhoneWorldEnv(task=["ContactsAddContact"])
    assert calls == ["collect", "freeze"]  # garbage first (never frozen), then once
    for off in ({"PHONE_GYM_NO_GC_FREEZE": "1"}, {"isenabled": False}):
        monkeypatch.setattr(phone_world, "_FROZEN", False)
        calls.clear()
        if "isenabled" in off:  # a process that runs its own collections
            monkeypatch.delenv("PHONE_GYM_NO_GC_FREEZE")
            monkeypatch.setattr(phone_world.gc, "isenabled", lambda: False)
        else:
            monkeypatch.setenv("PHONE_GYM_NO_GC_FREEZE", "1")
        PhoneWorldEnv(task=["ContactsAddContact"])
        assert calls == []


@pytest.mark.slow
def test_a_full_collection_after_the_first_env_scans_only_newer_objects() -> None:
    code = ("import gc, time; from phone_gym.envs import PhoneWorldEnv; "
            "assert gc.get_freeze_count() == 0; env = PhoneWorldEnv(); env.reset(seed=0); "
            "print(gc.get_freeze_count(), len(gc.get_objects()))")
    env = {**os.environ, "PHONE_GYM_NO_PLUGINS": "1"}
    env.pop("PHONE_GYM_NO_GC_FREEZE", None)
    frozen, scanned = map(int, subprocess.run([sys.executable, "-c", code], env=env, text=True,
                                              capture_output=True, check=True).stdout.split())
    assert frozen > 30_000 and scanned < frozen / 3  # modules, templates, apps: frozen
