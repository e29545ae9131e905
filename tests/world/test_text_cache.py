"""The text cache (``glyphs.TextCache``): widths and pixels exactly as Pillow's, hits on
repeated words, bounded, safe to share between threads, and a switch to turn it off."""

from __future__ import annotations

import pickle
import random
import string
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from phone_gym.world.glyphs import (
    BOLD,
    MEDIUM,
    PRIMARY,
    TEXT_CACHE,
    TextCache,
    Word,
    face_font,
    face_of,
    font,
    text_cache,
)
from phone_gym.world.painter import Look
from phone_gym.world.render import Renderer
from phone_gym.world.widgets_draw import draw_tile

SIZES = (6, 9, 13, 16, 18, 22, 29, 32, 44, 58, 75)
ALPHABET = string.ascii_letters + string.digits + string.punctuation + "éüñßØ€…’–—中\t"


@pytest.fixture
def cache_switch() -> Iterator[None]:
    """Restores ``TEXT_CACHE.enabled`` after a test that flips it."""
    enabled = TEXT_CACHE.enabled
    yield
    TEXT_CACHE.enabled = enabled


def random_line(rng: random.Random, pool: list[str]) -> str:
    text = rng.choice([" ", "  "]).join(rng.choice(pool) for _ in range(rng.randint(1, 6)))
    return (" " if rng.random() < 0.1 else "") + text + (" " if rng.random() < 0.1 else "")


def pillow_and_cached(text: str, px: int, stroke: int, x: float, y: float, *,
                      mode: str = "RGB", bg: tuple[int, ...] = (255, 255, 255),
                      fill: tuple[int, int, int] = (20, 30, 40),
                      cache: TextCache = TEXT_CACHE) -> tuple[np.ndarray, np.ndarray, bool]:
    """``text`` drawn at ``(x, y)`` by ``ImageDraw.text`` and by ``cache`` (if it accepts)."""
    a = Image.new(mode, (720, 140), bg)
    b = a.copy()
    ImageDraw.Draw(a).text((x, y), text, font=font(px), fill=fill, anchor="lm",
                           stroke_width=stroke, stroke_fill=fill)
    drawn = cache.draw(ImageDraw.Draw(b), x, y, text, px, fill, stroke)
    return np.asarray(a), np.asarray(b), drawn


def test_lengths_are_pillows() -> None:
    rng = random.Random(1)
    cache = TextCache()
    for _ in range(2000):
        px = rng.choice(SIZES)
        text = "".join(rng.choice(ALPHABET + "  ") for _ in range(rng.randint(0, 40)))
        assert cache.length(text, px) == font(px).getlength(text), (text, px)


def test_random_lines_draw_the_same_pixels_as_pillow() -> None:
    rng = random.Random(2)
    pool = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 9))) for _ in range(200)]
    ties = (0.0, 0.25, 0.5, 0.75, 31.5 / 64, 32.5 / 64, 0.999)
    cache = TextCache()
    drawn = 0
    for i in range(1500):
        px, stroke = rng.choice(SIZES), rng.choice((0, 0, 1, 2))
        x = rng.randrange(60) + (rng.choice(ties) if i % 2 else rng.random())
        y = rng.randrange(100) + (rng.choice(ties) if i % 3 else rng.random())
        mode = rng.choice(("RGB", "RGBA"))
        bg = tuple(rng.randrange(256) for _ in range(3))
        if mode == "RGBA":
            bg += (rng.choice((0, 128, 255)),)
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        text = random_line(rng, pool)
        a, b, ok = pillow_and_cached(text, px, stroke, x, y, mode=mode, bg=bg, fill=fill,
                                     cache=cache)
        if ok:
            drawn += 1
            assert np.array_equal(a, b), (text, px, stroke, x, y, mode)
        else:
            assert np.array_equal(b, np.asarray(Image.new(mode, (720, 140), bg)))
    assert drawn > 1000  # declining (touching words, rounding ties) stays the exception


@pytest.mark.parametrize(("px", "stroke"), [(22, 0), (58, 1), (13, 1), (16, 2)])
def test_every_subpixel_pen_position_draws_pillows_pixels(px: int, stroke: int) -> None:
    """Around each 1/64 pixel rounding step, in x and in y."""
    declined = 0
    for k in range(64):
        for dd in (-0.3, -0.02, 0.02, 0.3):
            v = (k + 0.5 + dd) / 64
            for x, y in ((10 + v, 30.0), (10.0, 30 + v), (10 + v, 30 + v)):
                a, b, ok = pillow_and_cached("Hello, wj Ty!", px, stroke, x, y)
                declined += not ok
                assert not ok or np.array_equal(a, b), (x, y)
    assert declined == 0


def test_declines_what_it_cannot_draw_exactly() -> None:
    cache = TextCache()
    for x, y, text in ((-3.2, 20.0, "neg"), (5.0, -1.0, "neg"), (5.0, 20.0, "two\nlines"),
                       (5 + 31.5 / 64, 20.0, "tie"), (5.0, 20 + 32.5 / 64, "tie")):
        a, b, ok = pillow_and_cached(text, 22, 0, x, y, cache=cache)
        assert not ok
        assert not (b != 255).any()  # nothing drawn
    a, b, ok = pillow_and_cached("Chloe Tanaka", 6, 1, 2.0, 20.0, cache=cache)  # touching
    assert not ok


def test_a_pillow_that_draws_otherwise_turns_word_masks_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each font size is checked against Pillow first: masks placed one pixel off fail it."""
    real = TextCache.word

    def shifted(self: TextCache, px: int, text: str, stroke: int) -> Word:
        word = real(self, px, text, stroke)
        return word._replace(dx=word.dx + 1)

    monkeypatch.setattr(TextCache, "word", shifted)
    cache = TextCache()
    a, b, ok = pillow_and_cached("Hello world", 22, 0, 5.0, 30.0, cache=cache)
    assert not ok and not cache._size(22).draws
    assert cache.length("Hello world", 22) == font(22).getlength("Hello world")


def test_repeated_words_hit_and_new_strings_reuse_them() -> None:
    cache = TextCache()
    img = Image.new("RGB", (400, 60), (255, 255, 255))
    d = ImageDraw.Draw(img)
    assert cache.draw(d, 4, 30, "Meeting with Alice", 22, (0, 0, 0))
    assert (cache.hits, cache.misses, len(cache)) == (0, 3, 3)
    assert cache.draw(d, 4, 30, "with Alice and Bob", 22, (0, 0, 0))
    assert (cache.hits, cache.misses) == (2, 5)  # "with", "Alice" again; "and", "Bob" new
    assert cache.draw(d, 4, 30, "Meeting with Alice", 22, (0, 0, 0), 1)  # bold: other masks
    assert cache.misses == 8
    cache.clear()
    assert (len(cache), cache.nbytes, cache.hits, cache.misses) == (0, 0, 0, 0)


@pytest.mark.parametrize("face", [PRIMARY, MEDIUM, BOLD])
def test_words_composed_from_glyphs_are_freetypes_words(face: int) -> None:
    """Where a word is composed from its glyphs' ink it is FreeType's mask of the word, to the
    pixel and placed the same; words whose glyphs' ink meets are left to FreeType."""
    rng = random.Random(5)
    composed = declined = 0
    for px in (9, 13, 18, 22, 29, 44, 58, 75):
        cache = TextCache(face=face)
        for _ in range(40):
            stroke = rng.choice((0, 0, 1))
            text = "".join(rng.choice(string.ascii_letters + string.digits + "éüñ€.,:-/'")
                           for _ in range(rng.randint(1, 10)))
            cache.advance(text, px)
            word = cache._composed(px, text, stroke)
            if word is None:
                declined += 1
                continue
            composed += 1
            cache.compose = False
            ref = cache.word(px, text, stroke)
            cache.compose = True
            assert word[1:4] == ref[1:4], (px, text, stroke)
            assert (word.mask is None) == (ref.mask is None)
            if ref.mask is not None:
                ours = Image.Image()._new(word.mask)  # type: ignore[arg-type]
                theirs = Image.Image()._new(ref.mask)  # type: ignore[arg-type]
                assert ours.tobytes() == theirs.tobytes(), (px, text, stroke)
    assert composed > 2 * declined


def test_new_words_of_known_characters_need_no_freetype(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    cache = TextCache()
    d = ImageDraw.Draw(Image.new("RGB", (400, 60)))
    assert cache.draw(d, 4, 30, "Meeting Tim notes", 22, (255, 255, 255))
    rendered: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def counting(self: ImageFont.FreeTypeFont, text: str, *args: object,
                 **kw: object) -> object:
        rendered.append(text)
        return real(self, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counting)
    a, b, ok = pillow_and_cached("Time sent one tome", 22, 0, 4.0, 30.0, cache=cache)
    assert ok and np.array_equal(a, b)
    assert rendered == ["Time sent one tome"]  # only Pillow's own drawing, for comparison
    assert cache.misses == 7  # four new words, composed from known glyphs


def test_a_new_word_is_drawn_glyph_by_glyph_and_gets_a_mask_when_seen_again() -> None:
    cache = TextCache()
    seen = []
    for _ in range(2):
        a, b, ok = pillow_and_cached("Hello quiz", 22, 0, 4.3, 30.6, cache=cache)
        assert ok and np.array_equal(a, b)
        seen.append([type(word.mask) is tuple for word in cache.words.values()])
        assert cache.nbytes == sum(w.nbytes for w in cache.words.values())
    assert seen == [[True, True], [False, False]]


def test_cjk_lines_draw_from_the_cache_as_pillow_does() -> None:
    """The CJK font has no space: it is checked on a line of its own characters, and a line
    with a space is left to Pillow."""
    face = face_of("设")
    assert face is not None and face > 0
    cache = text_cache(face)
    for px in (18, 22, 44):
        for x, y in ((5.3, 30.7), (12.0, 40.2)):
            a = Image.new("RGB", (400, 80), (255, 255, 255))
            b = a.copy()
            ImageDraw.Draw(a).text((x, y), "设置你好，我们。", (20, 30, 40), face_font(face, px),
                                   "lm")
            assert cache.draw(ImageDraw.Draw(b), x, y, "设置你好，我们。", px, (20, 30, 40))
            assert a.tobytes() == b.tobytes(), (px, x, y)
        assert not cache.draw(ImageDraw.Draw(b), 5.0, 30.0, "设置 你好", px, (20, 30, 40))


def test_bounded_by_count_bytes_chars_and_sizes() -> None:
    rng = random.Random(3)
    words = [f"w{i}x{rng.randrange(10**6)}" for i in range(300)]
    img = Image.new("RGB", (800, 60))
    d = ImageDraw.Draw(img)
    small = TextCache(max_words=10)
    for i in range(0, 300, 3):
        small.draw(d, 2, 30, " ".join(words[i:i + 3]), 22, (255, 255, 255))
        assert len(small) <= 10
    tiny = TextCache(max_mb=0.01)
    for w in words:
        tiny.draw(d, 2, 30, w, 44, (255, 255, 255))
        assert tiny.nbytes <= 0.01 * 2**20 or len(tiny) == 1
    assert tiny.nbytes == sum(w.nbytes for w in tiny.words.values())
    few = TextCache(max_sizes=3, max_chars=20)
    for px in range(10, 30):
        for ch in string.ascii_letters:
            assert few.length(ch * 3, px) == font(px).getlength(ch * 3)
            assert len(few._sizes) <= 3
            assert all(len(size.advances) <= 20 for size in few._sizes.values())


def test_least_recently_used_words_go_first() -> None:
    cache = TextCache(max_words=3)
    d = ImageDraw.Draw(Image.new("RGB", (300, 40)))
    for text in ("one", "two", "three", "one", "four"):
        cache.draw(d, 1, 20, text, 18, (255, 255, 255))
    assert [key[1] for key in cache.words] == ["three", "one", "four"]


def test_threads_sharing_a_small_cache_draw_pillows_pixels() -> None:
    cache = TextCache(max_words=8)
    rng = random.Random(4)
    pool = ["".join(rng.choice(string.ascii_letters) for _ in range(5)) for _ in range(40)]
    lines = [" ".join(rng.sample(pool, 3)) for _ in range(60)]
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        local = random.Random(seed)
        try:
            for _ in range(80):
                text = local.choice(lines)
                a, b, ok = pillow_and_cached(text, 22, local.choice((0, 1)), 3.0, 40.0,
                                             cache=cache)
                assert ok and np.array_equal(a, b), text
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert len(cache) <= 8


def look(kind: str, text: str, lw: int, lh: int, **kw: object) -> Look:
    fields = dict(kind=kind, text=text, hint="", desc="", style="", glyph="", color=None,
                  checked=None, enabled=True, selected=False, focused=False, extra=None,
                  bg=(250, 250, 252), lw=lw, lh=lh, tw=lw // 2, th=lh // 2)
    fields.update(kw)
    return Look(**fields)  # type: ignore[arg-type]


TILES = [
    look("list_item", "Alice Johnson", 984, 196, hint="Lunch at noon · Weekdays", glyph="A"),
    look("list_item", "Very long title " * 6, 984, 196, hint="and a long subtitle " * 5,
         extra="toggle"),
    look("text_field", "draft: meeting notes for tomorrow " * 3, 888, 184, desc="Name",
         focused=True, hint="File name"),
    look("text_field", "", 888, 184, hint="Search contacts", bg=(255, 255, 255)),
    look("text", "Settings", 984, 84, style="title"),
    look("text", "Lorem ipsum dolor sit amet, consectetur adipiscing elit " * 3, 984, 300),
    look("top_bar", "Documents and folders of the phone", 1080, 168, extra=(True, 2)),
    look("button", "Save changes", 400, 140),
    look("tab", "Contacts", 540, 180, selected=True),
    look("toast", "Removed from favorites ★", 702, 120),
    look("menu_item", "Remove from favorites", 620, 150, bg=(255, 255, 255)),
    look("app_icon", "Calendar", 216, 260, glyph="📅"),
    look("status_bar", "10:30", 1080, 90, hint="WiFi 100%"),
    look("key", "q", 100, 150),
]


@pytest.mark.parametrize("scale", [0.5, 1.0, 0.37])
def test_tiles_are_the_same_with_the_cache_on_and_off(scale: float,
                                                      cache_switch: None) -> None:
    for k in TILES:
        k = k._replace(tw=max(1, round(k.lw * scale)), th=max(1, round(k.lh * scale)))
        TEXT_CACHE.enabled = False
        off = draw_tile(k, scale)
        TEXT_CACHE.enabled = True
        on = draw_tile(k, scale)
        assert np.array_equal(on.rgb, off.rgb), k.kind
        assert on.solid == off.solid


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_every_oracle_screen_renders_the_same_with_the_cache_on_and_off(
        cache_switch: None) -> None:
    """Frames of every task's oracle run, each tile drawn afresh, word cache on vs off."""
    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.mockapps import TEMPLATES

    frames = []
    for task in TEMPLATES:
        env = PhoneWorldEnv(task=task, screenshot=False)
        env.reset(seed=0)
        frames.append(env.device.frame())
        for _ in range(40):
            _, _, terminated, truncated, _ = env.step(env.oracle_action())
            frames.append(env.device.frame())
            if terminated or truncated:
                break
    for size in ((540, 1200), (123, 457)):
        renderer = Renderer(*size, cache_tiles=False)
        for frame in frames:
            TEXT_CACHE.enabled = True
            on = renderer.render(frame)
            TEXT_CACHE.enabled = False
            off = renderer.render(frame)
            assert np.array_equal(on, off), (size, frame.package)


def test_envs_still_pickle_after_drawing_text() -> None:
    from phone_gym.envs import PhoneWorldEnv

    env = PhoneWorldEnv()
    env.reset(seed=0)
    for _ in range(5):
        if env.step(env.oracle_action())[2]:
            env.reset()
    assert len(TEXT_CACHE) > 0
    clone = pickle.loads(pickle.dumps(env))
    assert np.array_equal(clone.renderer.render(clone.device.frame()),
                          env.renderer.render(env.device.frame()))
