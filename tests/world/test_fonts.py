"""Text in any script (``world.glyphs``' font stack): Latin with accents, Greek, Cyrillic,
symbols, emoji and the common CJK characters draw from the bundled fonts, never a system
font (a user's extra font only adds characters); the same pixels in every process; text no
font draws is refused by PhoneWorld's ``type`` with
``typing_error``'s message (RealPhone-v0's side: ``tests/real/test_typing.py``)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
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
    NO_SYSTEM_FONTS_ENV,
    PRIMARY,
    SYMBOL,
    TEXT_CACHE,
    check_font_path,
    coverage,
    face_of,
    reload_fonts,
    source,
    stack,
    system_fonts_hidden,
    text_runs,
    typing_error,
    undrawable,
)
from phone_gym.world.glyphs import extra_font as extra_font_face
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
    """Deterministic across machines: every script but CJK draws from Roboto, a vector symbol
    or a font shipped in ``world/fonts``."""
    faces = stack()
    assert faces[0].path == str(FONT_DIR / "Roboto-Regular.ttf")
    assert faces[1].path == str(FONT_DIR / "DejaVuSans.ttf")
    assert faces[2].path == str(FONT_DIR / "NotoEmoji.ttf")
    assert faces[3].path == str(FONT_DIR / "NotoSansCJKsc-Subset.otf")
    for ch in drawn_chars(LATIN + GREEK + CYRILLIC + SYMBOLS + EMOJI):
        face = source(ch)
        assert face in (PRIMARY, SYMBOL) or Path(faces[face].path).parent == FONT_DIR, ch
    assert faces[face_of("🚀") or 0].name == "NotoEmoji.ttf"  # an emoji font's glyph
    assert face_of("Ж") == face_of("é") == face_of("Ω") == face_of("€") == PRIMARY  # Roboto
    assert faces[face_of("א") or 0].name == "DejaVuSans.ttf"  # Hebrew: Roboto lacks it


def test_every_bundled_font_is_package_data_with_its_licence() -> None:
    fonts = sorted(p.name for p in [*FONT_DIR.glob("*.ttf"), *FONT_DIR.glob("*.otf")])
    assert fonts == ["DejaVuSans.ttf", "MaterialIcons-Regular.ttf", "NotoEmoji.ttf",
                     "NotoSansCJKsc-Subset.otf", "Roboto-Bold.ttf", "Roboto-Medium.ttf",
                     "Roboto-Regular.ttf"]
    licences = {p.name: p.read_text() for p in FONT_DIR.glob("LICENSE-*.txt")}
    assert "Bitstream Vera" in licences["LICENSE-DejaVu.txt"]
    assert "Noto Emoji" in licences["LICENSE-NotoEmoji.txt"]
    assert "SIL Open Font License" in licences["LICENSE-NotoEmoji.txt"]
    assert "Noto Sans CJK SC" in licences["LICENSE-NotoSansCJK.txt"]
    assert "SIL OPEN FONT LICENSE" in licences["LICENSE-NotoSansCJK.txt"]
    assert "build_cjk_font.py" in licences["LICENSE-NotoSansCJK.txt"]  # how it was modified
    for name in ("LICENSE-Roboto.txt", "LICENSE-MaterialIcons.txt"):
        assert "Apache License" in licences[name] and "Version 2.0" in licences[name]
    assert "Roboto" in licences["LICENSE-Roboto.txt"]
    assert "Material" in licences["LICENSE-MaterialIcons.txt"]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["phone_gym.world"]
    assert any(p.startswith("fonts/") and p.endswith(".ttf") for p in patterns)
    assert any(p.startswith("fonts/") and p.endswith(".otf") for p in patterns)
    assert any(p.startswith("fonts/") and p.endswith(".txt") for p in patterns)
    assert "fonts/*.codepoints" in patterns  # the icon font's name map
    assert any(d.startswith("fonttools") for d in config["project"]["dependencies"])


def test_runs_split_by_font_and_spaces_are_the_bundled_fonts() -> None:
    runs = text_runs("Zoë 🚀 ok ש")
    assert runs == [("Zoë ", PRIMARY), ("🚀", face_of("🚀")), (" ok ", PRIMARY),
                    ("ש", face_of("ש"))]
    assert stack()[face_of("ש") or 0].name == "DejaVuSans.ttf"
    # a letter and a combining accent compose (NFC) into one glyph; selectors are dropped
    assert text_runs("e\u0301") == text_runs("é") and text_runs("❤️") == text_runs("❤")


# --- CJK --------------------------------------------------------------------------------------
#: Beyond the shipped CJK set (GB 2312, Big5 level 1, KS X 1001 Hangul): a rare hanzi (U+2A6D6).
RARE = "\U0002a6d6"


def square_font(path: Path, chars: str) -> Path:
    """A font file whose glyph for each of ``chars`` is a filled square: unlike any real
    font's, so that a character drawn from it shows in the pixels."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def glyph(filled: bool) -> Any:
        pen = TTGlyphPen(None)
        if filled:
            for x, y in ((100, -50), (100, 750), (900, 750), (900, -50)):
                (pen.lineTo if (x, y) != (100, -50) else pen.moveTo)((x, y))
            pen.closePath()
        return pen.glyph()

    names = [".notdef", *(f"u{ord(c):X}" for c in chars)]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"u{ord(c):X}" for c in chars})
    fb.setupGlyf({n: glyph(n != ".notdef") for n in names})
    fb.setupHorizontalMetrics({n: (1000, 100) for n in names})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "Squares", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    fb.save(str(path))
    return path


def test_cjk_draws_from_the_shipped_cjk_font() -> None:
    """Chinese (simplified and traditional), Japanese kana, Korean and CJK punctuation draw
    from the package's subset of Noto Sans CJK SC: on every machine, no system font needed."""
    text = f"{CJK} 京沪川 臺灣 ，。「」￥"
    assert undrawable(text) == "" and typing_error(text) is None
    box = ink("\ue000")
    for ch in drawn_chars(text):
        face = stack()[face_of(ch) or 0]
        assert face.path == str(FONT_DIR / "NotoSansCJKsc-Subset.otf"), ch
        pixels = ink(ch)
        assert (pixels < 128).any() and not np.array_equal(pixels, box), ch


def test_cjk_beyond_the_shipped_set_is_refused_naming_the_setting() -> None:
    assert undrawable(f"中{RARE} ok") == RARE
    error = typing_error(f"中{RARE}")
    assert error is not None and "(U+2A6D6)" in error and "'中'" not in error
    assert "GB 2312" in error and CJK_ENV in error


def test_an_extra_font_draws_only_what_the_package_fonts_lack(
        tmp_path: Path, extra_font: Callable[[Path], None]) -> None:
    """The user's extra font comes after the package's fonts: it adds characters, and never
    changes a pixel of one they draw."""
    before = {ch: ink(ch) for ch in "京A中"}
    extra_font(square_font(tmp_path / "squares.ttf", f"京A中{RARE}"))
    assert stack()[-1].name == "squares.ttf" and undrawable(RARE) == ""
    assert typing_error(RARE) is None and stack()[face_of(RARE) or 0].name == "squares.ttf"
    for ch, pixels in before.items():
        assert np.array_equal(ink(ch), pixels), ch


def test_hidden_system_fonts_ignore_the_extra_font_and_refuse_any_other_file(
        tmp_path: Path, extra_font: Callable[[Path], None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    extra_font(square_font(tmp_path / "squares.ttf", RARE))
    monkeypatch.setenv(NO_SYSTEM_FONTS_ENV, "1")
    reload_fonts()
    assert extra_font_face() is None and all(Path(f.path).parent == FONT_DIR
                                             for f in stack()[1:])
    assert undrawable(RARE) == RARE
    with pytest.raises(RuntimeError,
                       match=f"not one of the package's fonts.*{NO_SYSTEM_FONTS_ENV}"):
        check_font_path(str(tmp_path / "squares.ttf"))
    monkeypatch.setenv(NO_SYSTEM_FONTS_ENV, "yes")
    with pytest.raises(ValueError, match="accepted: 1"):
        system_fonts_hidden()


def test_an_extra_font_setting_that_names_no_file_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(NO_SYSTEM_FONTS_ENV, raising=False)
    monkeypatch.setenv(CJK_ENV, str(tmp_path / "missing.ttc"))
    with pytest.raises(ValueError, match=f"{CJK_ENV}=.*missing.ttc.*accepted: the path of a"):
        extra_font_face()


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


def test_phone_world_refuses_cjk_beyond_the_shipped_set() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    name_field(env)
    _, _, _, _, info = env.step({"action": "type", "text": f"中{RARE}"})
    assert info["action_error"] == typing_error(f"中{RARE}") and CJK_ENV in info["action_error"]
    assert f"中{RARE}" not in [e["text"] for e in info["ui_elements"]]


def test_phone_world_types_text_in_any_script() -> None:
    env = PhoneWorldEnv(task="ContactsAddContact")
    name_field(env)
    text = f"Zoë {GREEK} {CYRILLIC} 🚀 {CJK} ¥30"
    _, _, _, _, info = env.step({"action": "type", "text": text})
    assert info["action_error"] is None and text in [e["text"] for e in info["ui_elements"]]


# --- screens never depend on the machine's fonts ------------------------------------------------
#: Templates whose screens and instructions hold CJK, yuan signs and accented names.
MACHINE_TEMPLATES = ("BikePayParking", "RideMiniBookAndTell", "ChatTransferMoney",
                     "BillsTopUpPhone")


def oracle_frames(opened: list[str] | None = None) -> list[str]:
    """The sha256 of every frame of the oracle episodes of ``MACHINE_TEMPLATES`` (seeds 0
    and 1), rendered afresh; font files opened meanwhile are appended to ``opened``."""
    if opened is not None:
        def hook(event: str, args: tuple[Any, ...]) -> None:
            if event == "open" and isinstance(args[0], str) and args[0].lower().endswith(
                    (".ttf", ".otf", ".ttc", ".otc", ".pcf", ".pfb", ".woff", ".woff2")):
                opened.append(args[0])

        sys.addaudithook(hook)
    out = []
    for task in MACHINE_TEMPLATES:
        env = PhoneWorldEnv(task=task, obs_size=(270, 600))
        for seed in (0, 1):
            obs, _ = env.reset(seed=seed)
            out.append(hashlib.sha256(obs["screenshot"].tobytes()).hexdigest())
            for _ in range(80):
                obs, _, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
                out.append(hashlib.sha256(obs["screenshot"].tobytes()).hexdigest())
                if terminated or truncated:
                    assert info["success"], (task, seed, info["verdict"])
                    break
    return out


def frames_in_a_process(env: dict[str, str]) -> tuple[list[str], list[str]]:
    code = ("import json, sys; sys.path.insert(0, 'tests/world'); "
            "from test_fonts import oracle_frames; opened = []; "
            "frames = oracle_frames(opened); print(json.dumps([frames, opened]))")
    env = {**os.environ, **env}
    for key in (CJK_ENV, NO_SYSTEM_FONTS_ENV):
        if env.get(key) is None:
            env.pop(key, None)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    import json

    frames, opened = json.loads(out.splitlines()[-1])
    return frames, opened


def test_screens_are_the_same_with_system_fonts_hidden_or_shadowed(tmp_path: Path) -> None:
    """A process with system fonts hidden opens no font file outside the package; a process
    given an extra font that has every character these screens show (as squares) draws the
    same pixels: the extra font only ever draws what the package's fonts lack."""
    from phone_gym.envs.contract import obs_charset

    shadow = "".join(c for c in obs_charset() if c.isprintable() and not c.isspace()
                     and ord(c) < 0x10000 and not 0xD800 <= ord(c) < 0xE000)
    squares = square_font(tmp_path / "squares.ttf", shadow)
    hidden, opened = frames_in_a_process({NO_SYSTEM_FONTS_ENV: "1", CJK_ENV: str(squares)})
    assert opened and all(Path(p).resolve().parent == FONT_DIR.resolve() for p in opened), \
        sorted(set(opened))
    shadowed, opened = frames_in_a_process({NO_SYSTEM_FONTS_ENV: "0", CJK_ENV: str(squares)})
    assert str(squares) in opened  # the extra font was in the stack
    assert len(hidden) > 40 and shadowed == hidden
