"""Build the CJK font PhoneWorld ships: a subset of Noto Sans CJK SC Regular.

The phone draws Chinese, Japanese and Korean text with ``phone_gym/world/fonts/
NotoSansCJKsc-Subset.otf``, so that the pixels never depend on the fonts a machine happens
to have. The file is a subset of the Simplified Chinese face of Debian's ``fonts-noto-cjk``
(Noto Sans CJK 2.004, SIL Open Font License 1.1, see ``LICENSE-NotoSansCJK.txt``) holding:

- GB 2312 (6,763 hanzi, kana, punctuation and full-width forms: the common simplified set);
- Big5 level 1 and its symbols (5,401 common traditional characters);
- the 2,350 Hangul syllables of KS X 1001 (the common Korean set);
- the CJK Symbols and Punctuation and Halfwidth and Fullwidth Forms blocks.

Outlines and hints are kept as they are (the same pixels as the full font); OpenType layout
tables are dropped, as the renderer uses FreeType's basic layout. Run it again only to change
the set (the test ``tests/world/test_fonts.py`` checks that every character a template can
produce is covered)::

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb noto
    python scripts/build_cjk_font.py noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "phone_gym" / "world" / "fonts" / \
    "NotoSansCJKsc-Subset.otf"
FACE = "Noto Sans CJK SC"


def decoded(encoding: str, leads: range, trails: list[int]) -> set[str]:
    """Every character of a two-byte encoding's code points in ``leads`` x ``trails``."""
    out: set[str] = set()
    for lead in leads:
        for trail in trails:
            try:
                out.add(bytes([lead, trail]).decode(encoding))
            except UnicodeDecodeError:
                pass
    return out


def charset() -> set[str]:
    """The characters the subset keeps (before dropping those the face lacks)."""
    gb2312 = decoded("gb2312", range(0xA1, 0xF8), list(range(0xA1, 0xFF)))
    # Big5: symbols 0xA140-0xA3BF, level 1 hanzi 0xA440-0xC67E
    big5 = decoded("big5", range(0xA1, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    hangul = {c for c in decoded("euc_kr", range(0xB0, 0xC9), list(range(0xA1, 0xFF)))
              if 0xAC00 <= ord(c) <= 0xD7A3}
    blocks = {chr(c) for c in (*range(0x3000, 0x3040), *range(0xFF00, 0xFFF0))}
    return gb2312 | big5 | hangul | blocks


def main(argv: list[str] | None = None) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTCollection, TTFont

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="NotoSansCJK-Regular.ttc from Debian's fonts-noto-cjk")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    with TTCollection(args.source, lazy=True) as collection:
        names = [f["name"].getDebugName(1) for f in collection.fonts]
    if FACE not in names:
        print(f"error: {args.source} has no face {FACE!r} (it has {names})", file=sys.stderr)
        return 2
    font = TTFont(args.source, fontNumber=names.index(FACE))
    cmap = font.getBestCmap()
    keep = sorted(ord(c) for c in charset() if ord(c) in cmap)
    options = subset.Options()
    options.layout_features = []  # FreeType's basic layout reads none
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=keep)
    subsetter.subset(font)
    for record in font["name"].names:  # say it is a subset (the OFL's Reserved Font Name is
        if record.nameID == 5:           # "Source", which these names do not use)
            record.string = f"{record.toUnicode()}; phone-gym subset"
    font.recalcTimestamp = False  # the same bytes from the same source
    font.save(args.out)
    data = Path(args.out).read_bytes()
    print(f"{args.out}: {len(keep)} characters, {len(data):,} bytes, "
          f"sha256 {hashlib.sha256(data).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
