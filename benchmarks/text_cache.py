"""Text cache benchmark: prints one JSON line of figures, word cache off vs on, in one process.

Tile misses draw widgets with fresh strings (words drawn from a pool, so each string is new
but its words are not), as 540 x 1200 tiles, with ``draw_tile`` (no tile cache); each
figure is the best of ``--repeat`` rounds, the cache off and on alternating:

- ``miss_ms_off``: ms per tile miss with the word cache off (Pillow measures and rasterizes
  every string): the baseline
- ``miss_ms_on``: the same tiles with the word cache on, after the pool's words were seen
- ``miss_speedup``: ``miss_ms_off / miss_ms_on``
- ``miss_ms_new_words``: ms per tile miss with the cache on and words (almost all) never seen
  before: its worst case, every word rasterized once as the baseline does
- ``word_hit_rate``: share of word masks found in the cache in the first ``miss_ms_on`` round
  (words cut with an ellipsis to fit are new)
- ``pixel_identical``: whether every tile drawn with the cache on equals the one drawn off

Oracle policy steps/s (540 x 1200 screenshots), each run from the same seed:

- ``oracle_cold_sps_off`` / ``oracle_cold_sps_on``: starting from an empty tile cache (and,
  when on, an empty word cache)
- ``oracle_uncached_sps_off`` / ``oracle_uncached_sps_on``: with the tile cache disabled, so
  every widget is drawn anew each frame

Usage: ``python benchmarks/text_cache.py [--tiles N] [--steps N] [--repeat N] [--seed N]``
(small values make a quick smoke run; the figures then mean little).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

import numpy as np

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world.glyphs import TEXT_CACHE
from phone_gym.world.painter import Look
from phone_gym.world.render import TileCache
from phone_gym.world.widgets_draw import draw_tile

FONT_SCALE = 0.5  # 540 x 1200 output of the 1080 x 2400 logical screen
BG, SURFACE = (250, 250, 252), (255, 255, 255)


def word_pool(rng: random.Random, n: int) -> list[str]:
    """``n`` pronounceable words, some capitalized, some with digits or punctuation."""
    cons, vows = "bcdfghjklmnprstvwxyz", "aeiou"
    words = []
    for _ in range(n):
        word = "".join(rng.choice(cons) + rng.choice(vows) for _ in range(rng.randint(1, 4)))
        roll = rng.random()
        if roll < 0.3:
            word = word.capitalize()
        elif roll < 0.4:
            word += rng.choice(",.:!?")
        elif roll < 0.5:
            word = str(rng.randint(1, 2999))
        words.append(word)
    return words


def looks(rng: random.Random, words: list[str], n: int) -> list[Look]:
    """``n`` tiles of the text-heavy kinds that miss most, with strings made of ``words``."""
    def s(lo: int, hi: int) -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(lo, hi)))

    def look(kind: str, text: str, lw: int, lh: int, *, hint: str = "", desc: str = "",
             style: str = "", glyph: str = "", extra: object = None, bg: tuple[int, ...] = BG,
             focused: bool = False) -> Look:
        return Look(kind, text, hint, desc, style, glyph, None, None, True, False, focused,
                    extra, bg, lw, lh, round(lw * FONT_SCALE), round(lh * FONT_SCALE))

    makers = [
        lambda: look("list_item", s(1, 3), 984, 196, hint=s(2, 6), glyph=rng.choice("ABCDE")),
        lambda: look("list_item", s(1, 4), 984, 196, hint=s(2, 5), extra="toggle"),
        lambda: look("text_field", s(1, 5), 888, 184, hint="Name", desc=s(1, 2),
                     bg=SURFACE, focused=rng.random() < 0.5),
        lambda: look("text", s(3, 9), 984, 84, style=rng.choice(["body", "caption"])),
        lambda: look("top_bar", s(1, 3), 1080, 168, extra=(True, 1)),
        lambda: look("toast", s(2, 5), 702, 120),
    ]
    return [makers[i % len(makers)]() for i in range(n)]


def ms_per_tile(tiles: list[Look]) -> float:
    start = time.perf_counter()
    for look in tiles:
        draw_tile(look, FONT_SCALE)
    return (time.perf_counter() - start) / len(tiles) * 1e3


def oracle_sps(steps: int, seed: int, *, cache_tiles: bool) -> float:
    """Oracle steps/s from an empty tile cache (or none), resetting when episodes end."""
    env = PhoneWorldEnv()
    env.renderer.cache = TileCache()
    env.renderer.cache_tiles = cache_tiles
    env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.oracle_action())
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tiles", type=int, default=600, help="tile misses per measurement")
    parser.add_argument("--steps", type=int, default=1000, help="oracle steps per measurement")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds of tile misses, off and on alternating; the best counts")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.tiles < 1 or args.steps < 1 or args.repeat < 1:
        parser.error("--tiles, --steps and --repeat must be >= 1")
    rng = random.Random(args.seed)
    pool = word_pool(rng, 300)
    for look in looks(rng, pool, 12):  # load fonts, fill the advance tables
        draw_tile(look, FONT_SCALE)
    tiles = looks(rng, pool, args.tiles)
    enabled = TEXT_CACHE.enabled
    off, on, new = [], [], []
    try:
        TEXT_CACHE.enabled = True
        TEXT_CACHE.clear()
        for look in looks(rng, pool, 4 * len(pool)):  # other strings, the same words
            draw_tile(look, FONT_SCALE)
        hit_rate = 0.0
        for i in range(args.repeat):
            TEXT_CACHE.enabled = False
            off.append(ms_per_tile(tiles))
            TEXT_CACHE.enabled = True
            hits, misses = TEXT_CACHE.hits, TEXT_CACHE.misses
            on.append(ms_per_tile(tiles))
            if i == 0:
                hit_rate = (TEXT_CACHE.hits - hits) / max(1, TEXT_CACHE.hits - hits
                                                          + TEXT_CACHE.misses - misses)
            unseen = word_pool(random.Random(f"{args.seed}:{i}"), 20 * args.tiles)
            new.append(ms_per_tile(looks(rng, unseen, args.tiles)))
        reference = [draw_tile(look, FONT_SCALE).rgb for look in tiles[:200]]
        TEXT_CACHE.enabled = False
        identical = all(np.array_equal(draw_tile(look, FONT_SCALE).rgb, rgb)
                        for look, rgb in zip(tiles, reference, strict=False))
        figures: dict[str, object] = {
            "miss_ms_off": round(min(off), 4),
            "miss_ms_on": round(min(on), 4),
            "miss_speedup": round(min(off) / min(on), 2),
            "miss_ms_new_words": round(min(new), 4),
            "word_hit_rate": round(hit_rate, 4),
            "pixel_identical": identical,
        }
        for name, cache_tiles in (("cold", True), ("uncached", False)):
            for state in ("off", "on"):
                TEXT_CACHE.enabled = state == "on"
                TEXT_CACHE.clear()
                figures[f"oracle_{name}_sps_{state}"] = round(
                    oracle_sps(args.steps, args.seed, cache_tiles=cache_tiles), 1)
    finally:
        TEXT_CACHE.enabled = enabled
    figures.update(obs_size="540x1200", tiles=args.tiles, steps=args.steps, repeat=args.repeat,
                   python=platform.python_version())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
