"""Text in any script (``world.glyphs``' font stack): Latin with accents, Greek, Cyrillic,
symbols and emoji draw from the bundled fonts, CJK from a system font when there is one; the
same pixels in every process; text no font draws is refused by PhoneWorld's ``type`` with
``typing_error``'s message (RealPhone-v0's side: ``tests/real/test_typing.py``)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

try:
    import tomllib
except ImportError:  # Python 3.10: the train extra's tomli
    import tomli as tomllib  # type: ignore[no-redef]

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world import glyphs
from phone_gym.world import theme as T
from phone_gym.world.glyphs import (
    CJK_ENV,
    FONT_DIR,
    PRIMARY,
    SYMBOL,
    TEXT_CACHE,
    cjk_font,
    coverage,
    face_of,
    source,
    stack,
    text_runs,
    typing_error,
    undrawable,
)
from phone_gym.world.layout import Frame
from phone_gym.world.painter import Look, Painter
from phone_gym.world.render import Renderer, TileCache
from phone_gym.world.widgets import Node, Text

ROOT = Path(__file__).resolve().parents[2]
LATIN, GREEK, CYRILLIC = "é ñ ü ß Zoë", "Ωμέγα", "Жук"
SYMBOLS = "— – “ ” € ° → ✓"
EMOJI = "😀 👍 🎉 🚀 📷 ❤️"
CJK = "中文 あ 한국어"
#: No font has these: a private-use character, a control character.
UNDRAWABLE = ("\ue000", "\x07")
WHITE = (255, 255, 255)


def ink(text: str, px: int = 48) -> np.ndarray:
    """``text`` drawn by the painter (in black on white, one line), as a gray array."""
    look = Look("text", text, "", "", "", "", None, None, True, False, False, None, WHITE,
                px * 12, px * 2, px * 12, px * 2)
    painter = Painter(look, 1.0, False, ss=1)
    painter.text(4, px, text, px, (0, 0, 0))
    return np.asarray(painter.img.convert("L"))


def drawn_chars(text: str) -> list[str]:
    return [ch for ch in glyphs.prepare(text) if not ch.isspace()]


# --- the stack ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [LATIN, GREEK, CYRILLIC, SYMBOLS, EMOJI])
def test_scripts_draw_and_differ_from_the_missing_glyph_box(text: str) -> None:
    assert undrawable(text) == "" and typing_error(text) is None
    box = ink("\ue000")
    assert (box < 128).any()  # the bundled font's missing-glyph box has ink
    for ch in drawn_chars(text):
        pixels = ink(ch)
        assert (pixels < 128).any(), f"{ch!r} draws nothing"
        assert not np.array_equal(pixels, box), f"{ch!r} draws as the missing-glyph box"


def test_bundled_fonts_come_before_system_fonts() -> None:
    """Deterministic across machines: every script but CJK draws from Pillow's font, a vector
    symbol or a font shipped in ``world/fonts``."""
    faces = stack()
    assert faces[1].path == str(FONT_DIR / "DejaVuSans.ttf")
    assert faces[2].path == str(FONT_DIR / "NotoEmoji.ttf")
    for ch in drawn_chars(LATIN + GREEK + CYRILLIC + SYMBOLS + EMOJI):
        face = source(ch)
        assert face in (PRIMARY, SYMBOL) or Path(faces[face].path).parent == FONT_DIR, ch
    assert faces[face_of("🚀") or 0].name == "NotoEmoji.ttf"  # an emoji font's glyph
    assert faces[face_of("Ж") or 0].name == "DejaVuSans.ttf"


def test_every_bundled_font_is_package_data_with_its_licence() -> None:
    fonts = sorted(p.name for p in FONT_DIR.glob("*.ttf"))
    assert fonts == ["DejaVuSans.ttf", "NotoEmoji.ttf"]
    licences = {p.name: p.read_text() for p in FONT_DIR.glob("LICENSE-*.txt")}
    assert "Bitstream Vera" in licences["LICENSE-DejaVu.txt"]
    assert "Noto Emoji" in licences["LICENSE-NotoEmoji.txt"]
    assert "SIL Open Font License" in licences["LICENSE-NotoEmoji.txt"]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["phone_gym.world"]
    assert any(p.startswith("fonts/") and p.endswith(".ttf") for p in patterns)
    assert any(p.startswith("fonts/") and p.endswith(".txt") for p in patterns)
    assert any(d.startswith("fonttools") for d in config["project"]["dependencies"])


def test_runs_split_by_font_and_spaces_are_the_bundled_fonts() -> None:
    runs = text_runs("Zoë 🚀 ok")
    assert runs == [("Zo", PRIMARY), ("ë", face_of("ë")), (" ", PRIMARY),
                    ("🚀", face_of("🚀")), (" ok", PRIMARY)]
    assert stack()[face_of("ë") or 0].name == "DejaVuSans.ttf"
    # a letter and a combining accent compose (NFC) into one glyph; selectors are dropped
    assert text_runs("e\u0301") == text_runs("é") and text_runs("❤️") == text_runs("❤")


# --- CJK --------------------------------------------------------------------------------------
def test_cjk_draws_with_a_cjk_font() -> None:
    face = cjk_font()
    if face is None:
        pytest.skip("no CJK font installed (apt-get install fonts-noto-cjk, or set "
                    f"{CJK_ENV} to a CJK font file)")
    assert undrawable(CJK) == "" and typing_error(CJK) is None
    assert stack()[-1] == face
    box = ink("\ue000")
    for ch in drawn_chars(CJK):
        assert face_of(ch) == len(stack()) - 1
        pixels = ink(ch)
        assert (pixels < 128).any() and not np.array_equal(pixels, box), ch


def test_without_a_cjk_font_cjk_is_refused_saying_what_installs_one(no_cjk_font: None) -> None:
    assert cjk_font() is None and all(Path(f.path).parent == FONT_DIR for f in stack()[1:])
    assert undrawable("中文 ok") == "中文"
    error = typing_error("中文 ok")
    assert error is not None and "'中' (U+4E2D), '文' (U+6587)" in error
    assert "fonts-noto-cjk" in error and CJK_ENV in error


def test_a_cjk_font_setting_that_names_no_file_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CJK_ENV, str(tmp_path / "missing.ttc"))
    with pytest.raises(ValueError, match=f"{CJK_ENV}=.*missing.ttc.*accepted: the path of a CJK"):
        cjk_font()


# --- what cannot be drawn -------------------------------------------------------------------
@pytest.mark.parametrize("text", UNDRAWABLE)
def test_undrawable_text_has_a_typing_error(text: str) -> None:
    assert undrawable(f"ok {text} ok") == text
    error = typing_error(f"ok {text}")
    assert error is not None and f"U+{ord(text):04X}" in error and "remove those" in error
    assert typing_error("ok\tok\n") is None  # white space draws (as space)


def test_many_undrawable_characters_are_counted() -> None:
    text = "".join(chr(0xE000 + k) for k in range(8))
    error = typing_error(text)
    assert error is not None and "U+E004" in error and "U+E005" not in error
    assert "and 3 more" in error


# --- pixels ---------------------------------------------------------------------------------
def render_sample() -> str:
    """The sha256 of a frame of text in every script, rendered afresh (the tile cache off)."""
    frame = Frame(package="x")
    frame.add(Node("screen", id="content"), (0, 0, T.SCREEN_W, T.SCREEN_H))
    lines = [LATIN, GREEK, CYRILLIC, SYMBOLS, EMOJI, CJK, f"Zoë {GREEK} {CYRILLIC} 🚀 ok"]
    for i, line in enumerate(lines):
        frame.add(Text(line), (40, 120 + i * 110, 1040, 210 + i * 110))
    return hashlib.sha256(Renderer(cache=TileCache()).render(frame).tobytes()).hexdigest()


def test_the_same_text_renders_the_same_pixels_in_another_process() -> None:
    code = ("import sys; sys.path.insert(0, 'tests/world'); "
            "from test_fonts import render_sample; print(render_sample())")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout.split()
    assert out[-1] == render_sample()


@pytest.mark.parametrize("text", [f"Zoë {GREEK} {CYRILLIC}", f"{SYMBOLS} {EMOJI}", CJK])
def test_text_caches_draw_fallback_fonts_as_pillow_does(text: str) -> None:
    """The fallback fonts' text caches (``glyphs.text_cache``) change no pixel."""
    enabled = TEXT_CACHE.enabled
    try:
        outs = []
        for on in (True, False, True):  # cold, off, warm
            TEXT_CACHE.enabled = on
            outs.append(np.concatenate([ink(text, px) for px in (18, 29, 44)], axis=None))
    finally:
        TEXT_CACHE.enabled = enabled
    assert np.array_equal(outs[0], outs[1]) and np.array_equal(outs[1], outs[2])


def test_glyph_lookups_are_cached() -> None:
    """A character's font is looked up once: reading the fonts' cmaps again, or asking
    each font again, would slow every frame with such text."""
    text = f"{LATIN} {GREEK} {CYRILLIC} {SYMBOLS} {EMOJI}"
    text_runs(text)
    reads, lookups = coverage.cache_info().misses, source.cache_info().misses
    for _ in range(50):
        text_runs(text)
        undrawable(text)
    assert coverage.cache_info().misses == reads and source.cache_info().misses == lookups


# --- typing in PhoneWorld -------------------------------------------------------------------
def center(info: dict[str, Any], text: str) -> dict[str, int]:
    found = [e for e in info["ui_elements"] if text in (e["text"], e["content_desc"])]
    assert found, f"{text!r} not on screen"
    x, y = found[-1]["center_norm"]
    return {"x": x, "y": y}


def name_field(env: PhoneWorldEnv) -> dict[str, Any]:
    """Opens the Contacts form and focuses its name field; the step's info."""
    env.reset(seed=0)
    _, _, _, _, info = env.step('open_app(app="Contacts")')
    _, _, _, _, info = env.step({"action": "click", **center(info, "Create contact")})
    _, _, _, _, info = env.step({"action": "click", **center(info, "Name")})
    assert info["action_error"] is None
    return info


@pytest.mark.parametrize("text", [*UNDRAWABLE, "Zoë \ue000"])
def test_phone_world_refuses_undrawable_text_as_a_no_op_step(text: str) -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    name_field(env)
    _, _, _, _, info = env.step({"action": "type", "text": "Ada "})
    before = env.device.screen_key(), [p.node.text for p in env.device.frame().items]
    _, reward, terminated, truncated, info = env.step({"action": "type", "text": text})
    assert info["action_error"] == typing_error(text)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert (env.device.screen_key(), [p.node.text for p in env.device.frame().items]) == before


def test_phone_world_refuses_cjk_without_a_cjk_font(no_cjk_font: None) -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    name_field(env)
    _, _, _, _, info = env.step({"action": "type", "text": "中文"})
    assert info["action_error"] == typing_error("中文") and "fonts-noto-cjk" in info[
        "action_error"]
    assert "中文" not in [e["text"] for e in info["ui_elements"]]


def test_phone_world_types_text_in_any_script() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    name_field(env)
    text = f"Zoë {GREEK} {CYRILLIC} 🚀"
    _, _, _, _, info = env.step({"action": "type", "text": text})
    assert info["action_error"] is None and text in [e["text"] for e in info["ui_elements"]]
