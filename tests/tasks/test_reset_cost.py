"""What a reset costs: the draws made without building the ranges they draw from, and no
template's reset holding more than a few frames' worth of memory at once."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES
from phone_gym.tasks.vocab import distinct_ints, draws


@pytest.mark.parametrize(("start", "stop", "k", "step"), [
    (100_000, 9_000_000, 5, 1), (5, 20_000, 3, 1), (0, 20_000, 1_000, 1),  # both of numpy's ways
    (1_000, 5_000_000, 5, 997), (3, 60, 57, 1)])
def test_distinct_ints_draws_what_choice_over_the_range_draws(start: int, stop: int, k: int,
                                                               step: int) -> None:
    for seed in range(20):
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        got = distinct_ints(ours, start, stop, k, step=step)
        want = theirs.choice(np.arange(start, stop, step), k, replace=False)
        assert got.tolist() == want.tolist() and got.dtype == want.dtype
        assert ours.integers(1 << 30) == theirs.integers(1 << 30)  # the same state after


def test_draws_are_one_integers_call_each() -> None:
    sizes = (11, 30, 1, 2, 43_200, 19, 2**31 + 5, 2**33, 7)
    for seed in range(50):
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        ours.random(), theirs.random()  # half of a 64-bit draw kept by the generator
        assert draws(ours, sizes) == [int(theirs.integers(n)) for n in sizes]
        assert ours.integers(1 << 40) == theirs.integers(1 << 40)


@pytest.mark.slow
def test_no_reset_allocates_more_than_a_few_frames() -> None:
    env = PhoneWorldEnv()
    for template in TEMPLATES:  # first resets fill what is shared per process
        env.reset(seed=0, options={"task": template})
    tracemalloc.start()
    try:
        peaks = {}
        for template in TEMPLATES:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            env.reset(seed=1, options={"task": template})
            peaks[template] = (tracemalloc.get_traced_memory()[1] - base) / 2**20
    finally:
        tracemalloc.stop()
    # a 540 x 1200 frame is 1.9 MiB; a range of millions of numbers to draw five was 68
    assert max(peaks.values()) < 8, sorted(peaks.items(), key=lambda kv: -kv[1])[:5]
