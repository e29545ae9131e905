"""Fonts and vector symbols: the text and icon glyphs tiles are drawn with.

Text is drawn with a stack of fonts, each character by the first that has its glyph (its
cmap, read with fontTools when first needed), so that any machine with the same package
versions draws the same pixels:

0. Roboto 2.138, Android's system face (``fonts/Roboto-{Regular,Medium,Bold}.ttf``, a subset
   of Latin, Greek, Cyrillic, punctuation, currency and arrows; Apache-2.0;
   ``scripts/build_fonts.py`` makes it), in the weight of the text's role (``WEIGHTS``:
   body text Regular, titles, top bars and buttons Medium, as Material does);
1. vector symbols registered in ``SYMBOLS`` for what it lacks (◀ ● ■ ⋮ ✎ 🗑 ⇧ ⌫ ↵ ✓ ★ ...):
   each takes ``(draw, cx, cy, s, color, bg)``, a center and a scale ``s`` in drawing pixels;
2. the fonts shipped in ``fonts/`` (``FALLBACKS``), the same on every machine: DejaVu Sans
   2.37 (Latin with accents, Greek, Cyrillic, Hebrew, Arabic, punctuation, currencies, math,
   arrows, shapes, dingbats; Bitstream Vera licence), Noto Emoji 3.002 (monochrome emoji;
   SIL OFL 1.1), then a subset of Noto Sans CJK SC 2.004 (the common Chinese, Japanese and
   Korean characters: GB 2312, Big5 level 1, the Hangul of KS X 1001, CJK punctuation and
   full-width forms; SIL OFL 1.1; ``scripts/build_cjk_font.py`` makes it);
3. only when the user names one, an extra font (``$PHONE_GYM_CJK_FONT``, ``extra_font``) for
   characters the shipped fonts lack (rare hanzi, say). It comes last, so it never changes
   how a character the shipped fonts draw looks; no system font is ever looked for.
   ``$PHONE_GYM_NO_SYSTEM_FONTS=1`` (CI sets it) ignores the extra font and makes opening any
   font file outside the package an error (``check_font_path``).

Icons come from the Material Icons font (``icons``), also shipped in ``fonts/``.

Text that no font and no symbol draws cannot be typed: ``typing_error`` is the message both
PhoneWorld and real phones give. Fallback runs sit on Roboto's baseline.

``TEXT_CACHE`` makes new strings cheap to measure and draw: it keeps each character's advance
and glyph ink per font size and the mask of each word per (font size, word, stroke), and draws
a line by pasting its words' masks (a new word's glyphs, where their ink does not meet),
pixel-identical to ``ImageDraw.text`` (see ``TextCache``); ``text_cache(face)`` is the same
for another weight or a fallback font (the CJK one included).
"""

from __future__ import annotations

import math
import os
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
#: Invisible characters dropped before looking a glyph up: emoji and text presentation
#: selectors, the zero-width joiner, and skin tones (which a monochrome emoji font cannot show).
VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200d"
                                        "\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"))


# --- fonts -----------------------------------------------------------------------------------


class Face(NamedTuple):
    """A font of the stack: a font file and the face's index in it (for collections)."""

    name: str
    path: str
    number: int = 0  # its index in a font collection


#: Face numbers besides the fallback fonts' (1, 2, ...): Roboto Regular, a vector symbol,
#: Roboto Medium and Roboto Bold (the heavier weights share Regular's coverage).
PRIMARY, SYMBOL, MEDIUM, BOLD = 0, -1, -2, -3
FONT_DIR = Path(__file__).with_name("fonts")
#: The system face's file per face number.
SYSTEM_FACE = {PRIMARY: "Roboto-Regular.ttf", MEDIUM: "Roboto-Medium.ttf",
               BOLD: "Roboto-Bold.ttf"}
#: Text weights and the face each draws with.
WEIGHTS = {"regular": PRIMARY, "medium": MEDIUM, "bold": BOLD}


def weight_face(weight: str) -> int:
    """The face number of Roboto in ``weight`` (``WEIGHTS``)."""
    try:
        return WEIGHTS[weight]
    except KeyError:
        raise ValueError(f"unknown text weight {weight!r}; accepted: "
                         f"{', '.join(WEIGHTS)}") from None
#: The fallback fonts, in order: (package holding the file, or None for ``FONT_DIR``, file).
FALLBACKS: tuple[tuple[str | None, str], ...] = (
    (None, "DejaVuSans.ttf"),
    (None, "NotoEmoji.ttf"),
    (None, "NotoSansCJKsc-Subset.otf"),
)
#: Names an extra font file (empty: none), drawn from after the shipped fonts: for characters
#: they lack. Never needed by a template; it makes those characters' pixels machine-dependent.
CJK_ENV = "PHONE_GYM_CJK_FONT"
#: "1" hides every font outside the package: ``CJK_ENV`` is ignored, and opening any other
#: font file raises (``check_font_path``). ``.ci/run`` runs the whole suite with it.
NO_SYSTEM_FONTS_ENV = "PHONE_GYM_NO_SYSTEM_FONTS"
CJK_HINT = ("; the phone's fonts draw the common Chinese, Japanese and Korean characters "
            "(GB 2312, Big5 level 1, KS X 1001 Hangul): for others, set "
            f"{CJK_ENV} to a font file that has them")


def system_fonts_hidden() -> bool:
    """Whether ``NO_SYSTEM_FONTS_ENV`` hides every font outside the package."""
    value = os.environ.get(NO_SYSTEM_FONTS_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{NO_SYSTEM_FONTS_ENV}={value!r}; accepted: 1 (only the package's "
                         "fonts), 0 or unset")
    return value == "1"


def check_font_path(path: str) -> str:
    """``path``, or a ``RuntimeError`` when system fonts are hidden and it lies outside the
    package's ``FONT_DIR``: a guard that the renderer never opens a system font."""
    if system_fonts_hidden() and Path(path).resolve().parent != FONT_DIR.resolve():
        raise RuntimeError(f"font {path!r} is not one of the package's fonts, and "
                           f"{NO_SYSTEM_FONTS_ENV}=1 allows no other")
    return path


def _locate(package: str | None, name: str) -> str | None:
    """The path of font file ``name`` in ``package`` (None: ``FONT_DIR``), or None when it
    is not installed."""
    if package is None:
        path = FONT_DIR / name
    else:
        try:
            path = Path(str(resources.files(package) / name))
        except ModuleNotFoundError:
            return None
    return str(path) if path.is_file() else None


def _collection_index(path: str) -> int:
    """The Simplified Chinese face ("... SC") of a font collection (0 for a plain font file,
    or a collection without one)."""
    if not path.lower().endswith((".ttc", ".otc")):
        return 0
    from fontTools.ttLib import TTCollection

    with TTCollection(path, lazy=True) as collection:
        for i, face in enumerate(collection.fonts):
            if (face["name"].getDebugName(1) or "").endswith(" SC"):
                return i
    return 0


def extra_font() -> Face | None:
    """The extra font the user named with ``CJK_ENV``, if any (never while system fonts are
    hidden)."""
    chosen = os.environ.get(CJK_ENV)
    if not chosen or system_fonts_hidden():
        return None
    if not Path(chosen).is_file():
        raise ValueError(f"{CJK_ENV}={chosen!r} is not a file; accepted: the path of a "
                         "font file (.ttf, .otf or .ttc) drawn after the package's fonts, "
                         "or empty for none")
    return Face(Path(chosen).name, chosen, _collection_index(chosen))


@lru_cache(maxsize=1)
def stack() -> tuple[Face, ...]:
    """The fonts text is drawn with, by face number: Roboto Regular (``PRIMARY``), then the
    package's fallback fonts, then the user's extra font if there is one."""
    found = [Face(name, path) for pkg, name in FALLBACKS if (path := _locate(pkg, name))]
    extra = extra_font()
    return (Face("Roboto", str(FONT_DIR / SYSTEM_FACE[PRIMARY])), *found,
            *([extra] if extra else []))


@lru_cache(maxsize=256)
def font(px: int) -> ImageFont.FreeTypeFont:
    """Roboto Regular at ``px`` pixels (cached per size)."""
    return face_font(PRIMARY, px)


@lru_cache(maxsize=512)
def face_font(face: int, px: int) -> ImageFont.FreeTypeFont:
    """Font ``face`` of the stack (or Roboto ``MEDIUM``, ``BOLD``) at ``px`` pixels, with
    Pillow's basic layout (no shaping library, so the same pixels everywhere)."""
    if face in SYSTEM_FACE:
        path, number = str(FONT_DIR / SYSTEM_FACE[face]), 0
    else:
        f = stack()[face]
        path, number = f.path, f.number
    return ImageFont.truetype(check_font_path(path), max(1, px), index=number,
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def coverage(face: int) -> frozenset[int]:
    """The code points font ``face`` has a glyph for (its cmap)."""
    from fontTools.ttLib import TTFont

    f = stack()[face]
    with TTFont(check_font_path(f.path), fontNumber=f.number, lazy=True) as tt:
        return frozenset(tt.getBestCmap())


@lru_cache(maxsize=1)
def drawable_chars() -> str:
    """Every character the phone can show, sorted: what a font of the stack or a vector
    symbol draws, white space, and the invisible selectors ``prepare`` drops (text holds
    them as typed). The charset of text observations (``envs.contract``)."""
    points: set[int] = set(VARIATION_SELECTORS)
    for face in range(len(stack())):
        points.update(coverage(face))
    points.update(ord(s) for s in SYMBOLS if len(s) == 1)
    points.update(map(ord, " \t\n\r"))
    points.difference_update(range(0x20))  # other control characters draw as boxes
    points.update(map(ord, "\t\n\r"))
    points.difference_update(range(0xD800, 0xE000))  # surrogates are not characters
    return "".join(map(chr, sorted(points)))


@lru_cache(maxsize=8192)
def font_has(ch: str) -> bool:
    """Whether Roboto has a glyph for ``ch`` (else it draws a box)."""
    return ch.isspace() or ord(ch) in coverage(PRIMARY)


@lru_cache(maxsize=65536)
def face_of(ch: str) -> int | None:
    """The first font of the stack with a glyph for ``ch``, or None."""
    if font_has(ch):
        return PRIMARY
    code = ord(ch)
    return next((k for k in range(1, len(stack())) if code in coverage(k)), None)


@lru_cache(maxsize=65536)
def source(ch: str) -> int:
    """What draws ``ch``: Roboto, else a vector symbol (``SYMBOL``), else the first
    fallback font with its glyph; Roboto's missing-glyph box when none has it."""
    if font_has(ch):
        return PRIMARY
    if ch in SYMBOLS:
        return SYMBOL
    face = face_of(ch)
    return PRIMARY if face is None else face


def prepare(text: str) -> str:
    """``text`` as it is drawn: invisible selectors dropped, composed (NFC) so that a letter
    and its accent are one glyph."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text.translate(VARIATION_SELECTORS))


def text_runs(text: str) -> list[tuple[str, int]]:
    """``text`` split into runs of one font of the stack (``(run, face)``) and single vector
    symbols (``(symbol, SYMBOL)``). Spaces are Roboto's (emoji fonts' are wide)."""
    text = prepare(text)
    if text.isascii():
        return [(text, PRIMARY)] if text else []
    out: list[tuple[str, int]] = []
    buf, cur = "", PRIMARY
    for ch in text:
        face = source(ch)
        if face != cur and buf:
            out.append((buf, cur))
            buf = ""
        if face == SYMBOL:
            out.append((ch, SYMBOL))
        else:
            buf, cur = buf + ch, face
    if buf:
        out.append((buf, cur))
    return out


def undrawable(text: str) -> str:
    """The characters of ``text`` that no font of the stack and no vector symbol draws, each
    once, in order (whitespace draws)."""
    if text.isascii() and text.isprintable():
        return ""
    bad = (ch for ch in prepare(text) if source(ch) == PRIMARY and not font_has(ch))
    return "".join(dict.fromkeys(bad))


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is Chinese, Japanese or Korean."""
    return unicodedata.name(ch, "").split(" ")[0] in (
        "CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC", "HALFWIDTH")


def typing_error(text: str) -> str | None:
    """Why ``text`` cannot be typed on the phone (it holds characters no font of the stack
    draws), or None. PhoneWorld's ``type`` and a real phone's give this same message."""
    bad = undrawable(text)
    if not bad:
        return None
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in bad[:5])
    more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
    hint = CJK_HINT if any(map(is_cjk, bad)) else ""
    return (f"cannot type {shown}{more}: no font of the phone draws it; remove those "
            f"characters{hint}")


@lru_cache(maxsize=256)
def _middle(px: int) -> int:
    """Roboto's baseline offset below a middle ("m") anchor at size ``px``."""
    f = font(px)
    return int(f.getbbox("x", anchor="lm")[1] - f.getbbox("x", anchor="ls")[1])


def baseline(y: float, px: int) -> int:
    """The pixel row of the baseline of Roboto text drawn at ``y`` with anchor "lm"
    (FreeType rounds a pen's 1/64 pixel down at a tie in y): where fallback runs sit."""
    return int(y) + _middle(px) + ((y - int(y)) * 64 >= 32.5)


def reload_fonts() -> None:
    """Look for the fonts again (after changing ``CJK_ENV`` or ``NO_SYSTEM_FONTS_ENV``).
    Tiles already drawn keep their pixels: clear the renderers' tile caches too."""
    for fn in (stack, font, face_font, coverage, drawable_chars, font_has, face_of, source):
        fn.cache_clear()
    with _CACHES_LOCK:
        _FACE_CACHES.clear()


# --- text cache ------------------------------------------------------------------------------

#: Character pairs that fonts commonly kern: a font size whose advances do not simply add up
#: over them is measured and drawn by Pillow alone.
_KERN_PROBES = ("AV", "AW", "AY", "Av", "LT", "LY", "P.", "Te", "To", "Ty", "VA", "Wa", "Yo",
                "ff", "fi", "r.", "y.")


class Word(NamedTuple):
    """The mask of a word (cropped to its ink), placed relative to its pen and baseline."""

    mask: object  # an ImagingCore of mode "L", its glyphs (``TextCache._spread``), or
    # None when the word leaves no ink
    dx: int  # the mask's left column and top row relative to the pen and the baseline
    dy: int
    x1: int  # the column after the ink's right end, relative to the pen
    nbytes: int


class Glyph(NamedTuple):
    """The ink of one character (cropped), placed relative to its pen and the baseline."""

    ink: np.ndarray  # uint8, rows x columns
    dx: int
    dy: int
    core: object  # the same ink as an ImagingCore of mode "L" (for ``draw_bitmap``)


class TextCache:
    """Measures and draws text with one font of the stack (``face``: Roboto Regular by
    default) exactly as Pillow does, cheaply.

    Roboto (as the package ships it) has no kerning table and FreeType, hinting it, gives
    whole-pixel advances; with basic layout a
    line's width is the sum of its characters' advances (kept per font size), and FreeType
    renders each glyph at an integer pen position and blends it into one mask. So a line
    is drawn by pasting its words' masks at their pens: the same pixels as
    ``ImageDraw.text``. FreeType renders each character once per (font size, stroke)
    (``glyph``): a new word is drawn glyph by glyph where no two glyphs' ink boxes share a
    column, and gets a mask when seen again (its glyphs pasted side by side); where boxes
    meet it is composed from its glyphs if their ink does not, else rasterized whole (Pillow
    blends ink over ink). Where that is not certain (words whose ink touches, fractions at a
    rounding tie, negative coordinates, a font size that kerns or has fractional advances)
    ``draw`` declines and the caller draws with Pillow. Each font size is first checked
    against Pillow on a probe line (``verify``; of the font's own characters for the CJK
    font, which has no space), so that a Pillow that draws otherwise turns the word masks
    off rather than changing pixels.

    Bounded (word masks: LRU by count and bytes; glyphs: ``max_glyphs``; advances:
    ``max_chars`` per font size, for the ``max_sizes`` newest sizes) and safe to share
    between threads. ``enabled = False``
    turns it off: Pillow measures and draws everything, the uncached baseline.
    """

    def __init__(self, max_words: int = 16384, max_mb: float = 32.0, max_sizes: int = 64,
                 max_chars: int = 4096, max_glyphs: int = 8192, *, verify: bool = True,
                 face: int = PRIMARY) -> None:
        self.enabled = True
        self.verify = verify
        self.face = face
        self.max_words = max_words
        self.max_bytes = int(max_mb * 2**20)
        self.max_sizes = max_sizes
        self.max_chars = max_chars  # per font size
        self.words: OrderedDict[tuple[int, str, int], Word] = OrderedDict()
        #: Glyph ink per (font size, character, stroke): new words are composed from it
        #: (``compose``) rather than rendered by FreeType; cleared when ``max_glyphs`` full.
        self.glyphs: dict[tuple[int, str, int], Glyph | None] = {}
        self.max_glyphs = max_glyphs
        self.compose = True
        #: Whether the font has a space (the CJK subset has none: its lines are split there)
        self.spaces = face < 1 or 32 in coverage(face)
        self.nbytes = 0
        self.hits = self.misses = 0
        self._sizes: OrderedDict[int, _Size] = OrderedDict()  # oldest first
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self.words)

    def clear(self) -> None:
        with self._lock:
            self.words.clear()
            self.glyphs.clear()
            self._sizes.clear()
            self.nbytes = self.hits = self.misses = 0

    # --- widths ------------------------------------------------------------------------------
    def _size(self, px: int) -> _Size:
        size = self._sizes.get(px)
        if size is None:
            size = _Size(self.font(px))
            size.draws = size.exact and (not self.verify or _draws_like_pillow(self.face, px))
            with self._lock:
                size = self._sizes.setdefault(px, size)
                while len(self._sizes) > self.max_sizes:
                    self._sizes.popitem(last=False)
        return size

    def font(self, px: int) -> ImageFont.FreeTypeFont:
        """This cache's font at size ``px``."""
        return face_font(self.face, px)

    def advance(self, text: str, px: int) -> int:
        """The advance of ``text`` at font size ``px`` in 1/64 pixels, as FreeType sums it."""
        size = self._size(px)
        table = size.advances
        try:
            return sum(map(table.__getitem__, text))
        except KeyError:
            pass
        f = self.font(px)
        with self._lock:
            if len(table) + len(text) > self.max_chars:
                table.clear()
            for ch in text:
                if ch not in table:
                    table[ch] = adv = round(f.getlength(ch) * 64)
                    if adv & 63:
                        size.fractional.add(ch)
            return sum(map(table.__getitem__, text))

    def length(self, text: str, px: int) -> float:
        """``self.font(px).getlength(text)``: the width of ``text`` in pixels."""
        if self.enabled and self._size(px).exact:
            return self.advance(text, px) / 64
        return self.font(px).getlength(text)

    # --- drawing -----------------------------------------------------------------------------
    def word(self, px: int, text: str, stroke: int) -> Word:
        """The mask of ``text`` (no spaces) at font size ``px``, rasterized on first use."""
        key = (px, text, stroke)
        word = self.words.get(key)
        if word is not None:
            if type(word.mask) is tuple:  # seen before: worth a mask of its own now
                made = _joined(word)
                if made is not None:
                    with self._lock:
                        if self.words.get(key) is word:
                            self.words[key] = made
                            self.nbytes += made.nbytes - word.nbytes
                    word = made
            with self._lock:
                self.hits += 1
                if key in self.words:  # not evicted meanwhile by another thread
                    self.words.move_to_end(key)
            return word
        word = None
        if self.compose:
            word = self._spread(px, text, stroke) or self._composed(px, text, stroke)
        if word is None:
            mask, (ox, oy) = self.font(px).getmask2(text, "L", stroke_width=stroke,
                                                   anchor="ls", stroke_filled=True)
            box = mask.getbbox() if mask.size[0] and mask.size[1] else None
            if box is None:
                word = Word(None, 0, 0, 0, 64)
            else:
                x0, y0, x1, y1 = box
                word = Word(mask.crop(box), ox + x0, oy + y0, ox + x1,
                            (x1 - x0) * (y1 - y0) + 64)
        with self._lock:
            self.misses += 1
            old = self.words.pop(key, None)
            if old is not None:
                self.nbytes -= old.nbytes
            self.words[key] = word
            self.nbytes += word.nbytes
            while len(self.words) > 1 and (len(self.words) > self.max_words
                                           or self.nbytes > self.max_bytes):
                _, old = self.words.popitem(last=False)
                self.nbytes -= old.nbytes
        return word

    def glyph(self, px: int, ch: str, stroke: int) -> Glyph | None:
        """The ink of character ``ch`` at font size ``px`` (None: it leaves none), rendered
        by FreeType on first use."""
        key = (px, ch, stroke)
        try:
            return self.glyphs[key]
        except KeyError:
            pass
        mask, (ox, oy) = self.font(px).getmask2(ch, "L", stroke_width=stroke, anchor="ls",
                                               stroke_filled=True)
        box = mask.getbbox() if mask.size[0] and mask.size[1] else None
        glyph = None
        if box is not None:
            x0, y0, x1, y1 = box
            core = mask.crop(box)
            ink = np.asarray(Image.Image()._new(core))
            glyph = Glyph(ink, ox + x0, oy + y0, core)
        with self._lock:
            if len(self.glyphs) >= self.max_glyphs:
                self.glyphs.clear()
            self.glyphs[key] = glyph
        return glyph

    def _placed(self, px: int, text: str, stroke: int) -> list[tuple[Glyph, int]] | None:
        """The glyphs of ``text`` with ink and their left columns, relative to the pen;
        None where an advance has a fraction of a pixel (or the size is not drawn)."""
        size = self._size(px)
        if not size.draws:
            return None
        self.advance(text, px)
        if size.fractional and not size.fractional.isdisjoint(text):
            return None
        table = size.advances
        glyphs = self.glyphs
        placed: list[tuple[Glyph, int]] = []
        pen = 0
        for ch in text:
            key = (px, ch, stroke)
            try:
                glyph = glyphs[key]
            except KeyError:  # (or cleared meanwhile by another thread)
                glyph = self.glyph(px, ch, stroke)
            if glyph is not None:
                placed.append((glyph, pen + glyph.dx))
            pen += table[ch] >> 6
        return placed

    def _spread(self, px: int, text: str, stroke: int) -> Word | None:
        """A word seen for the first time, as its glyphs (``Word.mask`` a tuple of ``(core,
        dx, dy)`` relative to the word's ``dx, dy``), drawn one by one: the same pixels as
        its mask where no two glyphs' ink boxes share a column, else None. A word seen
        again gets a mask (``word``)."""
        placed = self._placed(px, text, stroke)
        if not placed:
            return None
        right = -(1 << 30)
        for g, at in placed:
            if at < right:
                return None  # boxes side by side may hold ink over ink: composed, checked
            right = at + g.ink.shape[1]
        x0 = placed[0][1]
        y0 = min(g.dy for g, _ in placed)
        parts = tuple((g.core, at - x0, g.dy - y0) for g, at in placed)
        return Word(parts, x0, y0, right, 64 + 32 * len(parts))

    def _composed(self, px: int, text: str, stroke: int) -> Word | None:
        """The mask of ``text`` composed from its glyphs' (``glyph``) at whole-pixel pens, as
        FreeType lays a word out; None where glyphs' ink meets (Pillow blends overlapping
        ink, which a composition of glyphs would not reproduce) or an advance has a fraction.
        """
        placed = self._placed(px, text, stroke)
        if placed is None:
            return None
        if not placed:
            return Word(None, 0, 0, 0, 64)
        x0 = min(at for _, at in placed)
        x1 = max(at + g.ink.shape[1] for g, at in placed)
        y0 = min(g.dy for g, _ in placed)
        y1 = max(g.dy + g.ink.shape[0] for g, _ in placed)
        out = np.zeros((y1 - y0, x1 - x0), np.uint8)
        right = x0
        for g, at in placed:
            h, w = g.ink.shape
            dst = out[g.dy - y0:g.dy - y0 + h, at - x0:at - x0 + w]
            if at < right and (dst.astype(bool) & g.ink.astype(bool)).any():
                return None  # ink over ink
            dst |= g.ink  # no ink below: the same as FreeType's blend
            right = max(right, at + w)
        mask = Image.frombytes("L", (x1 - x0, y1 - y0), out.tobytes()).im
        return Word(mask, x0, y0, x1, (x1 - x0) * (y1 - y0) + 64)

    def draw(self, d: ImageDraw.ImageDraw, x: float, y: float, text: str, px: int,
             fill: tuple[int, ...], stroke: int = 0, anchor: str = "lm") -> bool:
        """Draw ``text`` as ``d.text((x, y), text, fill, self.font(px), anchor,
        stroke_width=stroke, stroke_fill=fill)`` would, from cached word masks: ``anchor``
        "lm", or "ls" at a whole ``y`` (the baseline's row). Returns False, having drawn
        nothing, where the result might differ: then draw with Pillow."""
        if not self.enabled or x < 0 or y < 0 or "\n" in text:
            return False
        if " " in text and not self.spaces:
            return False  # its missing-glyph box, which may be as wide as it likes
        if anchor not in ("lm", "ls") or (anchor == "ls" and y != int(y)):
            return False
        size = self._size(px)
        if not size.draws:
            return False
        # FreeType rounds the pen to 1/64 pixel in float32, then to a pixel (ties up in x,
        # down in y): near those ties, which way it goes is not certain
        fx, fy = (x - int(x)) * 64, (y - int(y)) * 64
        if abs(fx - 31.5) < 0.01 or abs(fy - 32.5) < 0.01:
            return False
        self.advance(text, px)  # measures new characters: which advance by a fraction?
        if size.fractional and not size.fractional.isdisjoint(text):
            return False  # the glyphs of a word would not sit whole pixels apart
        pen = int(x) + (fx >= 31.5)
        base = int(y) if anchor == "ls" else int(y) + size.middle + (fy >= 32.5)
        space = self.advance(" ", px) >> 6
        placed: list[tuple[int, Word]] = []
        right = -(1 << 30)
        for part in text.split(" "):
            if part:
                word = self.word(px, part, stroke)
                if word.mask is not None:
                    if pen + word.dx < right:  # ink that may touch blends differently
                        return False
                    right = max(right, pen + word.x1)
                    placed.append((pen, word))
                pen += self.advance(part, px) >> 6
            pen += space
        ink, fill_ink = d._getink(fill)
        ink = ink if ink is not None else fill_ink
        draw_bitmap = d.draw.draw_bitmap
        for at, word in placed:
            at, top = at + word.dx, base + word.dy
            if type(word.mask) is tuple:  # its glyphs, whose ink does not meet
                for core, gx, gy in word.mask:
                    draw_bitmap((at + gx, top + gy), core, ink)
            else:
                draw_bitmap((at, top), word.mask, ink)
        return True


def _joined(word: Word) -> Word:
    """A word drawn glyph by glyph (``TextCache._spread``) as one mask: its glyphs pasted
    side by side (their ink boxes share no column, so pasting is exact)."""
    parts = cast("tuple[tuple[Any, int, int], ...]", word.mask)
    w = word.x1 - word.dx
    h = max(gy + core.size[1] for core, _, gy in parts)
    mask = Image.core.fill("L", (w, h), 0)
    for core, gx, gy in parts:
        gw, gh = core.size
        mask.paste(core, (gx, gy, gx + gw, gy + gh))
    return Word(mask, word.dx, word.dy, word.x1, w * h + 64)


class _Size:
    """What the text cache knows of one font size: its advances and how it lays out."""

    def __init__(self, f: ImageFont.FreeTypeFont) -> None:
        self.advances: dict[str, int] = {}  # 1/64 pixels
        self.fractional: set[str] = set()  # characters that advance by a fraction of a pixel
        self.exact = (isinstance(f, ImageFont.FreeTypeFont)
                      and f.layout_engine == ImageFont.Layout.BASIC
                      and all(f.getlength(p) == f.getlength(p[0]) + f.getlength(p[1])
                              for p in _KERN_PROBES))
        self.draws = self.exact  # whether word masks draw Pillow's pixels at this size
        self.middle = 0  # the baseline's offset below a middle ("m") anchor
        if self.exact:
            # whole pixels (Pillow's stubs type a bounding box in floats)
            self.middle = int(f.getbbox("x", anchor="lm")[1] - f.getbbox("x", anchor="ls")[1])


def _probe_text(face: int) -> str:
    """A line to check font ``face`` on: Latin with spaces, or for a font without them (the
    CJK subset) twelve of its characters spread over its code points, with spaces only if
    it has them."""
    text = "Hxg,     Tij     9!"
    if face < 1 or all(ord(ch) in coverage(face) for ch in text):
        return text
    points = sorted(c for c in coverage(face) if c > 32 and not chr(c).isspace())
    pick = "".join(chr(points[i * len(points) // 12]) for i in range(12))
    gap = "     " if 32 in coverage(face) else ""
    return pick[:4] + gap + pick[4:8] + gap + pick[8:]


def _draws_like_pillow(face: int, px: int) -> bool:
    """Whether ``TextCache`` draws a probe line exactly as ``ImageDraw.text`` does with font
    ``face`` at size ``px``, at fractional positions, plain and bold."""
    probe = TextCache(verify=False, face=face)
    text = _probe_text(face)
    for x, y, stroke in ((px * 0.3 + 1.3, px * 1.5 + 0.7, 0), (px * 0.4 + 2.6, px * 1.5 + 0.2, 1)):
        a = Image.new("RGB", (px * 12 + 20, px * 3 + 10))
        b = a.copy()
        ImageDraw.Draw(a).text((x, y), text, (255, 255, 255), face_font(face, px), "lm",
                               stroke_width=stroke, stroke_fill=(255, 255, 255))
        try:  # ``draw`` pastes masks with Pillow internals (``_getink``, ``draw_bitmap``)
            drawn = probe.draw(ImageDraw.Draw(b), x, y, text, px, (255, 255, 255), stroke)
        except (AttributeError, TypeError, ValueError):
            return False
        if not drawn or a.tobytes() != b.tobytes():
            return False
    return True


#: The process-wide text cache ``Painter`` measures and draws Roboto Regular with; its
#: ``enabled`` switches the fallback fonts' caches (``text_cache``) too.
TEXT_CACHE = TextCache()
_FACE_CACHES: dict[int, TextCache] = {}
_CACHES_LOCK = threading.Lock()


def text_cache(face: int) -> TextCache:
    """The process-wide text cache of font ``face`` (smaller for the fallback fonts, which
    draw the exceptions, than for Roboto's weights)."""
    if face == PRIMARY:
        return TEXT_CACHE
    cache = _FACE_CACHES.get(face)
    if cache is None:
        with _CACHES_LOCK:
            made = (TextCache(face=face) if face in SYSTEM_FACE  # Roboto Medium, Bold
                    else TextCache(max_words=4096, max_mb=8.0, face=face))
            cache = _FACE_CACHES.setdefault(face, made)
    return cache


# --- vector symbols --------------------------------------------------------------------------

Draw = ImageDraw.ImageDraw
SymbolFn = Callable[[Draw, float, float, float, RGB, RGB], None]
SYMBOLS: dict[str, SymbolFn] = {}


def _symbol(*chars: str) -> Callable[[SymbolFn], SymbolFn]:
    def register(fn: SymbolFn) -> SymbolFn:
        for ch in chars:
            SYMBOLS[ch] = fn
        return fn
    return register


def _pts(cx: float, cy: float, s: float, *uv: tuple[float, float]) -> list[tuple[float, float]]:
    return [(cx + u * s, cy + v * s) for u, v in uv]


def _lw(s: float, k: float = 0.17) -> int:
    return max(1, round(s * k))


def _polyline(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, w: int) -> None:
    d.line(pts, fill=fill, width=w, joint="curve")
    r = w / 2
    for x, y in (pts[0], pts[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _disc(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _ring(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB, w: int) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), outline=fill, width=w)


@_symbol("◀", "⏴", "◂")
def _tri_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0.55, -0.75), (0.55, 0.75), (-0.75, 0)), fill=c)


@_symbol("▶", "⏵", "▸")
def _tri_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.55, -0.75), (-0.55, 0.75), (0.75, 0)), fill=c)


@_symbol("▲", "⏶")
def _tri_up(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.75, 0.55), (0.75, 0.55), (0, -0.75)), fill=c)


@_symbol("▼", "⏷")
def _tri_down(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.75, -0.55), (0.75, -0.55), (0, 0.75)), fill=c)


@_symbol("●", "⬤", "•")
def _dot(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy, 0.6 * s, c)


@_symbol("○", "◯")
def _circle(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.65 * s, c, _lw(s))


@_symbol("■", "◼", "⏹")
def _square(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.55, -0.55), (0.55, 0.55)), radius=0.1 * s, fill=c)


@_symbol("□", "◻")
def _square_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.6, -0.6), (0.6, 0.6)), radius=0.12 * s, outline=c,
                        width=_lw(s))


@_symbol("<", "‹", "❮", "〈")
def _chevron_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (0.25, -0.7), (-0.45, 0), (0.25, 0.7)), c, _lw(s))


@_symbol(">", "›", "❯", "〉")
def _chevron_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.25, -0.7), (0.45, 0), (-0.25, 0.7)), c, _lw(s))


def _arrow(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, dx: int,
           dy: int) -> None:
    def rot(u: float, v: float) -> tuple[float, float]:  # (1, 0) points along (dx, dy)
        return (u * dx - v * dy, u * dy + v * dx)

    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, rot(-0.7, 0), rot(0.7, 0)), c, w)
    _polyline(d, _pts(cx, cy, s, rot(0.1, -0.6), rot(0.7, 0), rot(0.1, 0.6)), c, w)


@_symbol("←", "⬅", "🡐")
def _arrow_left(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, -1, 0)


@_symbol("→", "➡", "🡒")
def _arrow_right(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 1, 0)


@_symbol("↑", "⬆")
def _arrow_up(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 0, -1)


@_symbol("↓", "⬇")
def _arrow_down(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy, s, c, 0, 1)


@_symbol("+", "＋", "➕")
def _plus(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, (-0.7, 0), (0.7, 0)), c, w)
    _polyline(d, _pts(cx, cy, s, (0, -0.7), (0, 0.7)), c, w)


@_symbol("−", "➖")
def _minus(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.7, 0), (0.7, 0)), c, _lw(s))


@_symbol("×", "✕", "✖", "✗", "✘", "❌")
def _cross(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s)
    _polyline(d, _pts(cx, cy, s, (-0.55, -0.55), (0.55, 0.55)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.55, 0.55), (0.55, -0.55)), c, w)


@_symbol("✓", "✔", "☑", "✅")
def _check(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.65, 0.02), (-0.2, 0.48), (0.7, -0.5)), c, _lw(s, 0.2))


@_symbol("⋮", "︙")
def _kebab(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for v in (-0.6, 0, 0.6):
        _disc(d, cx, cy + v * s, 0.15 * s, c)


@_symbol("⋯", "…", "···")
def _meatballs(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for u in (-0.6, 0, 0.6):
        _disc(d, cx + u * s, cy, 0.15 * s, c)


@_symbol("☰", "≡")
def _hamburger(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for v in (-0.5, 0, 0.5):
        _polyline(d, _pts(cx, cy, s, (-0.7, v), (0.7, v)), c, _lw(s, 0.14))


@_symbol("✎", "✏", "🖉", "🖊", "✐", "📝")
def _pencil(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r2 = math.sqrt(0.5)
    du, dv, nu, nv, hw = r2, -r2, r2, r2, 0.2

    def at(t: float, n: float) -> tuple[float, float]:
        return (-0.72 + du * t + nu * n, 0.72 + dv * t + nv * n)

    d.polygon(_pts(cx, cy, s, at(0, 0), at(0.4, hw), at(1.85, hw), at(1.85, -hw), at(0.4, -hw)),
              fill=c)
    d.line(_pts(cx, cy, s, at(1.5, hw * 1.4), at(1.5, -hw * 1.4)), fill=bg, width=_lw(s, 0.08))


@_symbol("🗑", "🗑️")
def _trash(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.14)
    _polyline(d, _pts(cx, cy, s, (-0.7, -0.52), (0.7, -0.52)), c, w)
    d.rectangle(_pts(cx, cy, s, (-0.22, -0.78), (0.22, -0.52)), outline=c, width=w)
    d.polygon(_pts(cx, cy, s, (-0.52, -0.36), (0.52, -0.36), (0.42, 0.78), (-0.42, 0.78)), fill=c)
    for u in (-0.18, 0.18):
        d.line(_pts(cx, cy, s, (u, -0.18), (u, 0.58)), fill=bg, width=_lw(s, 0.08))


@_symbol("🔍", "🔎", "⌕")
def _search(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx - 0.15 * s, cy - 0.15 * s, 0.48 * s, c, _lw(s))
    _polyline(d, _pts(cx, cy, s, (0.22, 0.22), (0.7, 0.7)), c, _lw(s, 0.22))


def _star_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        r = 0.85 if k % 2 == 0 else 0.36
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + r * s * math.cos(a), cy + 0.08 * s + r * s * math.sin(a)))
    return pts


@_symbol("★", "⭐", "🌟")
def _star(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_star_points(cx, cy, s), fill=c)


@_symbol("☆")
def _star_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_star_points(cx, cy, s), outline=c, width=_lw(s, 0.1))


def _heart(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB) -> None:
    for u in (-0.34, 0.34):
        _disc(d, cx + u * s, cy - 0.22 * s, 0.38 * s, c)
    d.polygon(_pts(cx, cy, s, (-0.7, -0.1), (0.7, -0.1), (0, 0.75)), fill=c)


@_symbol("♥", "❤", "💙", "💚")
def _heart_full(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _heart(d, cx, cy, s, c)


@_symbol("♡")
def _heart_outline(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _heart(d, cx, cy, s, c)
    _heart(d, cx, cy + 0.02 * s, 0.72 * s, bg)


@_symbol("⚙", "⛭")
def _gear(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    pts = []
    for k in range(8):
        a = k * math.pi / 4
        for da, r in ((-0.36, 0.58), (-0.2, 0.82), (0.2, 0.82), (0.36, 0.58)):
            pts.append((cx + r * s * math.cos(a + da), cy + r * s * math.sin(a + da)))
    d.polygon(pts, fill=c)
    _disc(d, cx, cy, 0.26 * s, bg)


@_symbol("⇧")
def _shift(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.8), (0.72, 0), (0.3, 0), (0.3, 0.7), (-0.3, 0.7), (-0.3, 0),
                   (-0.72, 0)), outline=c, width=_lw(s, 0.11))


@_symbol("⬆️", "⮉")
def _shift_on(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.8), (0.72, 0), (0.3, 0), (0.3, 0.7), (-0.3, 0.7), (-0.3, 0),
                   (-0.72, 0)), fill=c)


@_symbol("⌫")
def _backspace(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.9, 0), (-0.42, -0.58), (0.85, -0.58), (0.85, 0.58),
                   (-0.42, 0.58)), outline=c, width=_lw(s, 0.11))
    w = _lw(s, 0.11)
    _polyline(d, _pts(cx, cy, s, (0.0, -0.25), (0.5, 0.25)), c, w)
    _polyline(d, _pts(cx, cy, s, (0.0, 0.25), (0.5, -0.25)), c, w)


@_symbol("↵", "⏎", "⮐", "↩")
def _enter(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.14)
    _polyline(d, _pts(cx, cy, s, (0.62, -0.62), (0.62, 0.2), (-0.6, 0.2)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.22, -0.18), (-0.6, 0.2), (-0.22, 0.58)), c, w)


@_symbol("↻", "⟳", "🔄", "↺", "⟲")
def _refresh(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r = 0.6 * s
    d.arc((cx - r, cy - r, cx + r, cy + r), 40, 330, fill=c, width=_lw(s))
    a = math.radians(330)
    tip = (cx + r * math.cos(a), cy + r * math.sin(a))
    d.polygon([(tip[0] - 0.35 * s, tip[1] - 0.05 * s), (tip[0] + 0.22 * s, tip[1] - 0.3 * s),
               (tip[0] + 0.1 * s, tip[1] + 0.28 * s)], fill=c)


@_symbol("✉", "📧", "📨", "📩", "✉️")
def _mail(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.12)
    d.rounded_rectangle(_pts(cx, cy, s, (-0.8, -0.55), (0.8, 0.55)), radius=0.1 * s, outline=c,
                        width=w)
    _polyline(d, _pts(cx, cy, s, (-0.7, -0.42), (0, 0.1), (0.7, -0.42)), c, w)


@_symbol("⌂", "🏠", "🏡")
def _home(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.85, -0.02), (0, -0.82), (0.85, -0.02)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.55, -0.1), (0.55, 0.75)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.15, 0.3), (0.15, 0.75)), fill=bg)


@_symbol("👤", "👥", "🧑", "👩", "👨")
def _person(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy - 0.38 * s, 0.32 * s, c)
    d.chord(_pts(cx, cy, s, (-0.72, 0.08), (0.72, 1.4)), 180, 360, fill=c)


@_symbol("⏸")
def _pause(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    for u in (-0.45, 0.15):
        d.rectangle(_pts(cx, cy, s, (u, -0.65), (u + 0.3, 0.65)), fill=c)


@_symbol("📷", "📸")
def _camera(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.85, -0.45), (0.85, 0.7)), radius=0.15 * s, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.3, -0.68), (0.3, -0.4)), fill=c)
    _disc(d, cx, cy + 0.12 * s, 0.36 * s, bg)
    _disc(d, cx, cy + 0.12 * s, 0.2 * s, c)


@_symbol("📅", "📆", "🗓")
def _calendar(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.75, -0.6), (0.75, 0.75)), radius=0.1 * s, outline=c,
                        width=_lw(s, 0.12))
    d.rectangle(_pts(cx, cy, s, (-0.75, -0.6), (0.75, -0.25)), fill=c)
    for u in (-0.38, 0.38):
        _polyline(d, _pts(cx, cy, s, (u, -0.85), (u, -0.5)), c, _lw(s, 0.12))


@_symbol("⏰", "🕒", "🕐", "⏱", "⌚", "🕓")
def _clock(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.72 * s, c, _lw(s, 0.13))
    _polyline(d, _pts(cx, cy, s, (0, -0.45), (0, 0), (0.32, 0.2)), c, _lw(s, 0.12))


@_symbol("🔒", "🔐")
def _lock(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.arc(_pts(cx, cy, s, (-0.38, -0.85), (0.38, -0.05)), 180, 360, fill=c, width=_lw(s, 0.14))
    for u in (-0.38, 0.38):
        d.line(_pts(cx, cy, s, (u, -0.45), (u, -0.05)), fill=c, width=_lw(s, 0.14))
    d.rounded_rectangle(_pts(cx, cy, s, (-0.62, -0.08), (0.62, 0.8)), radius=0.1 * s, fill=c)


@_symbol("📁", "📂", "🗀")
def _folder(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.85, -0.6), (-0.25, -0.6), (-0.1, -0.42), (0.85, -0.42),
                   (0.85, 0.65), (-0.85, 0.65)), fill=c)


@_symbol("💬", "🗨", "🗩")
def _chat(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.8, -0.7), (0.8, 0.45)), radius=0.2 * s, fill=c)
    d.polygon(_pts(cx, cy, s, (-0.4, 0.3), (-0.1, 0.3), (-0.5, 0.82)), fill=c)


@_symbol("♪", "♫", "🎵", "🎶")
def _note(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.ellipse(_pts(cx, cy, s, (-0.6, 0.28), (0.02, 0.78)), fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.1, -0.75), (0.04, 0.52)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.1, -0.78), (0.6, -0.5), (0.6, -0.2), (-0.1, -0.45)), fill=c)


@_symbol("☀", "🔆", "☼")
def _sun(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _disc(d, cx, cy, 0.36 * s, c)
    for k in range(8):
        a = k * math.pi / 4
        _polyline(d, [(cx + 0.55 * s * math.cos(a), cy + 0.55 * s * math.sin(a)),
                      (cx + 0.8 * s * math.cos(a), cy + 0.8 * s * math.sin(a))], c, _lw(s, 0.12))


@_symbol("✈", "🛪", "✈️")
def _plane(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (0, -0.85), (0.1, -0.7), (0.1, -0.2), (0.85, 0.2), (0.85, 0.32),
                   (0.1, 0.1), (0.1, 0.5), (0.32, 0.7), (0.32, 0.8), (0, 0.7), (-0.32, 0.8),
                   (-0.32, 0.7), (-0.1, 0.5), (-0.1, 0.1), (-0.85, 0.32), (-0.85, 0.2),
                   (-0.1, -0.2), (-0.1, -0.7)), fill=c)


@_symbol("📞", "☎", "✆", "📱")
def _phone(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    r = 0.72 * s
    d.arc((cx - r, cy - r, cx + r, cy + r), 95, 175, fill=c, width=_lw(s, 0.3))
    d.ellipse(_pts(cx, cy, s, (-0.9, -0.42), (-0.5, 0.02)), fill=c)
    d.ellipse(_pts(cx, cy, s, (-0.35, 0.42), (0.09, 0.85)), fill=c)


@_symbol("🔔", "🔕")
def _bell(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.chord(_pts(cx, cy, s, (-0.55, -0.7), (0.55, 0.6)), 180, 360, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.55, -0.06), (0.55, 0.45)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.55, 0.4), (0.55, 0.4), (0.75, 0.58), (-0.75, 0.58)), fill=c)
    _disc(d, cx, cy + 0.7 * s, 0.14 * s, c)


@_symbol("↗", "⤴", "🔗")
def _share(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.13)
    _polyline(d, _pts(cx, cy, s, (-0.55, 0.55), (0.6, -0.6)), c, w)
    _polyline(d, _pts(cx, cy, s, (-0.05, -0.6), (0.6, -0.6), (0.6, 0.05)), c, w)


@_symbol("⬇️", "📥", "⤓")
def _download(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _arrow(d, cx, cy - 0.1 * s, 0.8 * s, c, 0, 1)
    _polyline(d, _pts(cx, cy, s, (-0.65, 0.78), (0.65, 0.78)), c, _lw(s))


@_symbol("📌", "📍")
def _pin(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.3, -0.8), (0.3, -0.8), (0.22, -0.1), (-0.22, -0.1)), fill=c)
    d.polygon(_pts(cx, cy, s, (-0.55, 0.12), (0.55, 0.12), (0.3, -0.2), (-0.3, -0.2)), fill=c)
    _polyline(d, _pts(cx, cy, s, (0, 0.1), (0, 0.82)), c, _lw(s, 0.12))


@_symbol("⌖", "⌾")
def _target(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.52 * s, c, _lw(s, 0.13))
    _disc(d, cx, cy, 0.16 * s, c)
    for u, v in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        _polyline(d, _pts(cx, cy, s, (0.5 * u, 0.5 * v), (0.85 * u, 0.85 * v)), c, _lw(s, 0.13))


@_symbol("📶", "🛜")
def _wifi(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    w = _lw(s, 0.13)
    base = cy + 0.55 * s
    for r in (0.45, 0.85, 1.25):
        rr = r * s
        d.arc((cx - rr, base - rr, cx + rr, base + rr), 225, 315, fill=c, width=w)
    _disc(d, cx, base - 0.06 * s, 0.14 * s, c)


@_symbol("ᛒ", "🄱")
def _bluetooth(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _polyline(d, _pts(cx, cy, s, (-0.45, -0.4), (0.42, 0.38), (0, 0.8), (0, -0.8), (0.42, -0.38),
                      (-0.45, 0.4)), c, _lw(s, 0.12))


@_symbol("🔋", "🪫")
def _battery(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.rounded_rectangle(_pts(cx, cy, s, (-0.42, -0.66), (0.42, 0.85)), radius=0.1 * s, fill=c)
    d.rectangle(_pts(cx, cy, s, (-0.18, -0.85), (0.18, -0.66)), fill=c)


@_symbol("📄", "🗎", "📃")
def _document(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon(_pts(cx, cy, s, (-0.6, -0.85), (0.25, -0.85), (0.6, -0.5), (0.6, 0.85),
                   (-0.6, 0.85)), fill=c)
    d.polygon(_pts(cx, cy, s, (0.25, -0.85), (0.25, -0.5), (0.6, -0.5)), fill=bg)
    for v in (-0.1, 0.2, 0.5):
        d.rectangle(_pts(cx, cy, s, (-0.38, v - 0.05), (0.38, v + 0.05)), fill=bg)


@_symbol("ℹ", "ⓘ", "ℹ️")
def _info(d: Draw, cx: float, cy: float, s: float, c: RGB, bg: RGB) -> None:
    _ring(d, cx, cy, 0.8 * s, c, _lw(s, 0.13))
    _disc(d, cx, cy - 0.38 * s, 0.1 * s, c)
    d.rectangle(_pts(cx, cy, s, (-0.08, -0.15), (0.08, 0.45)), fill=c)


def can_draw(glyph: str) -> bool:
    """Whether ``glyph`` can be drawn: a vector symbol, or text the font stack draws."""
    return glyph in SYMBOLS or not undrawable(glyph)
