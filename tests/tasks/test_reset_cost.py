"""What a reset costs: the draws made without building the ranges they draw from, many draws
made from outputs fetched in bulk (``Draws``: numpy's numbers, and its generator's state),
and no template's reset holding more than a few frames' worth of memory at once."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES
from phone_gym.tasks.vocab import Draws, distinct_ints, draws, pick


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


def _script(seed: int) -> list[tuple[str, int, int]]:
    """A random mix of draws: (what, n, k)."""
    g = np.random.default_rng(10_000 + seed)
    out = []
    for _ in range(int(g.integers(0, 150))):
        kind = ("below", "random", "sample", "integers")[int(g.integers(4))]
        n = int(g.choice([1, 2, 3, 10, 75, 43_200, 2**31 + 1, 2**32 - 5])) if kind == "below" \
            else int(g.integers(1, 60))
        out.append((kind, n, int(g.integers(0, n + 1))))
    return out


def _numpy(rng: np.random.Generator, kind: str, n: int, k: int) -> object:
    if kind == "below":
        return int(rng.integers(n))
    if kind == "integers":
        return int(rng.integers(1, n + 1))
    if kind == "random":
        return rng.random()
    return [int(i) for i in rng.choice(n, size=k, replace=False)]


def _ours(draw: Draws, kind: str, n: int, k: int) -> object:
    if kind == "below":
        return draw.below(n)
    if kind == "integers":
        return draw.integers(1, n + 1)
    if kind == "random":
        return draw.random()
    return draw.sample(n, k)


def _same(a: object, b: object) -> bool:
    """Equal generator states (MT19937's holds an array)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, np.asarray(b)))
    return a == b


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_draws_are_numpys_and_leave_its_state(bit_generator: type) -> None:
    for seed in range(80):
        script = _script(seed)
        theirs = np.random.Generator(bit_generator(seed))
        ours = np.random.Generator(bit_generator(seed))
        for rng in (theirs, ours):
            for _ in range(seed % 3):  # none, or half of an output kept (``has_uint32``)
                rng.integers(7)
        want = [_numpy(theirs, *step) for step in script]
        with Draws(ours) as draw:
            if seed % 2:
                draw.reserve(4 * len(script) + 10)  # fetched ahead: more than the draws read
            got = [_ours(draw, *step) for step in script]
        assert got == want, seed
        assert _same(ours.bit_generator.state, theirs.bit_generator.state), seed


def test_draws_pick_as_pick_does() -> None:
    items = tuple("abcdefghij")
    for seed in range(30):
        theirs, ours = np.random.default_rng(seed), np.random.default_rng(seed)
        want = [pick(theirs, items), pick(theirs, items, 3), pick(theirs, items, 10)]
        with Draws(ours) as draw:
            got = [draw.pick(items), draw.pick(items, 3), draw.pick(items, 10)]
        assert got == want and ours.random() == theirs.random()


def test_draws_refuse_what_numpy_draws_no_word_for() -> None:
    draw = Draws(np.random.default_rng(0))
    for n in (0, -3, 2**32, 2**40):
        with pytest.raises(ValueError, match="n from 1 to 2"):
            draw.below(n)
    assert draw.below(1) == 0


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


def test_draws_sample_of_two_as_numpy() -> None:
    """``sample(n, 2)``'s own path: numpy's two numbers (collisions included) and its state."""
    for seed in range(60):
        theirs, ours = np.random.default_rng(seed), np.random.default_rng(seed)
        ns = [2, 3, 4, 7, 40, 10_000] * 20
        want = [[int(i) for i in theirs.choice(n, size=2, replace=False)] for n in ns]
        with Draws(ours) as draw:
            got = [draw.sample(n, 2) for n in ns]
        assert got == want, seed
        assert ours.random() == theirs.random(), seed


@pytest.mark.parametrize("sizes", [(7, 3, 12), (9,), (2**31 + 1, 5), (1, 4)])
def test_draws_skip_as_belows(sizes: tuple[int, ...]) -> None:
    """``skip``: the state of the ``below`` calls it stands for (a kept half before or not,
    words redrawn or not), and the draws after it the same."""
    for seed in range(40):
        theirs, ours = np.random.default_rng(seed), np.random.default_rng(seed)
        repeat = seed % 7
        with Draws(theirs) as a, Draws(ours) as b:
            for draw in (a, b):
                for _ in range(seed % 3):
                    draw.below(10)
            for _ in range(repeat):
                for n in sizes:
                    a.below(n)
            b.skip(sizes, repeat)
            assert [a.below(50) for _ in range(5)] == [b.below(50) for _ in range(5)], seed
        assert _same(ours.bit_generator.state, theirs.bit_generator.state), seed
