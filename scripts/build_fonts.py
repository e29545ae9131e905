"""Build the Roboto and Material Icons fonts PhoneWorld ships in ``phone_gym/world/fonts/``.

Android draws its UI with Roboto and its apps' icons with Material's icon font; the phone
draws with subsets of the same files, so that pixels never depend on a machine's fonts:

- ``Roboto-{Regular,Medium,Bold}.ttf``: Roboto 2.138 (Debian ``fonts-roboto-unhinted``,
  Apache-2.0, ``LICENSE-Roboto.txt``) cut to Basic Latin, Latin-1, Latin Extended-A and B,
  IPA, spacing modifiers and combining marks, Greek, Cyrillic, Latin Extended Additional,
  general punctuation, super- and subscripts, currency, letterlike symbols, number forms
  and arrows. Outlines are kept as they are (the same pixels as the full font); the
  OpenType layout tables are dropped, as the renderer uses FreeType's basic layout.
- ``MaterialIcons-Regular.ttf`` and ``MaterialIcons.codepoints`` (one ``name hex`` a line):
  Google's Material Icons 4.0 as Debian's ``fonts-material-design-icons-iconfont`` 6.7.0
  ships it (Apache-2.0, ``LICENSE-MaterialIcons.txt``), with the icon names of its SCSS
  codepoint map; ``--icons FILE`` keeps only the names listed in ``FILE`` (one a line),
  and the ligature table is dropped (``icons.icon_glyph`` maps names to code points).

Run it again only to change the sets (``tests/world/test_fonts.py`` checks the result)::

    apt-get download fonts-roboto-unhinted fonts-material-design-icons-iconfont
    for f in *.deb; do dpkg-deb -x "$f" x; done
    python scripts/build_fonts.py x/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF \\
        x/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf \\
        x/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "phone_gym" / "world" / "fonts"
WEIGHTS = ("Regular", "Medium", "Bold")
#: The Unicode blocks Roboto is cut to (inclusive ranges).
ROBOTO_RANGES = (
    (0x0020, 0x007E), (0x00A0, 0x024F), (0x0250, 0x02FF), (0x0300, 0x036F),  # Latin, marks
    (0x0370, 0x03FF), (0x0400, 0x052F), (0x1E00, 0x1EFF),  # Greek, Cyrillic, Latin Add.
    (0x2000, 0x206F), (0x2070, 0x209F), (0x20A0, 0x20CF),  # punctuation, scripts, currency
    (0x2100, 0x214F), (0x2150, 0x218F), (0x2190, 0x21FF),  # letterlike, numbers, arrows
)


def codepoints(scss: Path) -> dict[str, int]:
    """The ``name: hex`` pairs of the icon font's SCSS codepoint map."""
    pairs = re.findall(r'^\s*"([a-z0-9_]+)":\s*([0-9a-f]+),?\s*$', scss.read_text(), re.M)
    if not pairs:
        raise ValueError(f"{scss}: no \"name\": hex lines; accepted: the _variables.scss "
                         "of fonts-material-design-icons-iconfont")
    return {name: int(code, 16) for name, code in pairs}


def _subset(src: Path, dst: Path, unicodes: set[int]) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(src))
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "DSIG"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes & set(font.getBestCmap()))
    sub.subset(font)
    font.save(str(dst))
    return len(font.getBestCmap())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roboto_dir", type=Path, help="folder holding Roboto-<Weight>.ttf")
    ap.add_argument("icons_ttf", type=Path, help="MaterialIcons-Regular.ttf")
    ap.add_argument("icons_scss", type=Path, help="the icon font's _variables.scss")
    ap.add_argument("--icons", type=Path, help="keep only the icon names in this file")
    args = ap.parse_args(argv)
    latin = {c for lo, hi in ROBOTO_RANGES for c in range(lo, hi + 1)}
    for weight in WEIGHTS:
        src = args.roboto_dir / f"Roboto-{weight}.ttf"
        if not src.is_file():
            raise ValueError(f"{src} is missing; accepted: a folder holding Roboto-"
                             f"{{{','.join(WEIGHTS)}}}.ttf")
        n = _subset(src, OUT / src.name, latin)
        print(f"{src.name}: {n} characters")
    names = codepoints(args.icons_scss)
    if args.icons:
        wanted = [w.strip() for w in args.icons.read_text().split() if w.strip()]
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            raise ValueError(f"unknown icon names {unknown}; accepted: names of "
                             f"{args.icons_scss}")
        names = {n: names[n] for n in wanted}
    from fontTools.ttLib import TTFont

    cmap = TTFont(str(args.icons_ttf)).getBestCmap()
    names = {n: c for n, c in sorted(names.items()) if c in cmap}
    n = _subset(args.icons_ttf, OUT / "MaterialIcons-Regular.ttf", set(names.values()))
    (OUT / "MaterialIcons.codepoints").write_text(
        "".join(f"{name} {code:x}\n" for name, code in names.items()))
    print(f"MaterialIcons-Regular.ttf: {n} glyphs, {len(names)} names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
