"""``docs/fidelity.md``: how closely each mock app looks like the real app it models,
generated from the manifests' looks (``AppLook``) and the main screens as drawn (a test
checks that the page is up to date).

For every app the page names the real app and version modelled, what the mock reproduces
(theme, app bar, navigation, list rows) and what it still simplifies: the look's own
``simplifies`` notes, and every difference found by drawing the main screen (navigation
declared but drawn otherwise, an app-bar title the real app does not show). Each app's main
screen, drawn by the project, is ``docs/images/fidelity/<app>.png``. Regenerate with
``python -m phone_gym.docgen.fidelity --write``; ``--check`` fails when the page is stale.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from ..mockapps import APPS, TEMPLATES, Episode
from ..world import Device
from ..world.manifest import AppLook, AppManifest
from ..world.render import Renderer
from ..world.theme import RGB, Palette
from ..world.widgets import Node, Screen

ROOT = Path(__file__).resolve().parents[2]
PAGE = Path("docs/fidelity.md")
IMAGES = Path("docs/images/fidelity")
#: The size the page's screens are drawn at (a fifth of the logical screen).
SIZE = (216, 480)
NAV_WORDS = {"none": "none", "bottom_bar": "bottom bar", "tabs": "tabs", "drawer": "drawer",
             "speed_dial_fab": "speed-dial FAB"}


@dataclass(frozen=True)
class Drawn:
    """What an app's main screen shows, as drawn."""

    title: str
    navigation: str  # bottom_bar, tabs, drawer, speed_dial_fab or none
    nav_items: tuple[str, ...]
    fab: bool
    image: np.ndarray


def _tabs(nodes: Sequence[Node]) -> list[Node]:
    out: list[Node] = []
    stack = list(nodes)
    while stack:
        node = stack.pop(0)
        if node.kind == "tab":
            out.append(node)
        stack[:0] = node.children
    return out


def _all(nodes: Sequence[Node]) -> list[Node]:
    """``nodes`` and all their descendants."""
    out: list[Node] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def drawn(device: Device, manifest: AppManifest, renderer: Renderer) -> Drawn:
    """Open ``manifest``'s app with its first task's data (as ``phone-gym screenshots``)
    and read its main screen."""
    template = next((t for t in TEMPLATES.values() if manifest.name in t.apps),
                    next(iter(TEMPLATES.values())))
    Episode(template, device, np.random.default_rng(0))
    device.open_app(manifest.name)
    screen: Screen = device.screen()
    image = renderer.render(device.frame())
    bottom = _tabs([screen.bottom]) if screen.bottom is not None else []
    top = _tabs([*screen.content, *([screen.dock] if screen.dock is not None else [])])
    nav, items = (("bottom_bar", bottom) if bottom else ("tabs", top) if top else ("none", []))
    toggles = [*(screen.top_bar.children if screen.top_bar is not None else []),
               *_all(screen.content)]  # a floating toggle too (OsmAnd's map menu button)
    if nav != "bottom_bar" and screen.fab is not None and screen.fab.style == "speed_dial":
        nav = "speed_dial_fab"  # kit.drawer.SpeedDialFab
    elif nav != "bottom_bar" and any(c.id == "drawer_toggle" for c in toggles):
        nav = "drawer"  # the app bar's "Open navigation drawer" (kit.drawer)
    title = screen.top_bar.text if screen.top_bar is not None else ""
    return Drawn(title, nav, tuple(t.text for t in items), screen.fab is not None, image)


def _hex(color: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def _theme(look: AppLook) -> str:
    def one(p: Palette) -> str:
        return (f"{'dark' if p.dark else 'light'} {_hex(p.bg)}, accent {_hex(p.primary)}, "
                f"status bar {_hex(p.status_bg)}")
    mode = {"light": "light only", "dark": "dark only",
            "system": "follows the system's dark theme"}[look.dark]
    return f"{mode}: " + "; ".join(one(p) for p in look.palettes)


def _top_bar(look: AppLook) -> str:
    p = look.palettes[0]
    bar = "coloured" if p.top_bar_bg not in (p.bg, p.surface) else "surface"
    title = f"“{look.title}”" if look.title else "no title"
    actions = ", ".join(look.actions) or "no actions"
    return (f"{bar} bar {_hex(p.top_bar_bg)}, {title} {p.title_align}-aligned; "
            f"actions: {actions}")


def _rows(look: AppLook) -> str:
    lines = "two-line" if look.two_line else "one-line"
    dividers = "dividers" if look.palettes[0].row_dividers else "no dividers"
    return f"{look.row_leading} leading, {lines}, {dividers}"


def differences(look: AppLook, shown: Drawn) -> list[str]:
    """What the drawn main screen does differently from the declared look."""
    out: list[str] = []
    if look.navigation in ("bottom_bar", "tabs") and shown.navigation != look.navigation:
        out.append(f"navigation declared as {NAV_WORDS[look.navigation]} but drawn as "
                   f"{NAV_WORDS[shown.navigation]}")
    elif look.navigation in ("drawer", "speed_dial_fab") \
            and shown.navigation != look.navigation:
        out.append(f"the {NAV_WORDS[look.navigation]} is declared, not yet drawn")
    if look.navigation in ("bottom_bar", "tabs") and shown.navigation == look.navigation \
            and shown.nav_items != look.nav_items:
        out.append(f"{NAV_WORDS[look.navigation]} items drawn: {', '.join(shown.nav_items)} "
                   f"(the real app: {', '.join(look.nav_items)})")
    if shown.title != look.title:
        real = f"“{look.title}”" if look.title else "no title"
        out.append(f"app bar title “{shown.title}” (the real app shows {real})")
    return out


def page(rows: Sequence[tuple[AppManifest, Drawn]]) -> str:
    """The page's Markdown."""
    out = [
        "# Fidelity: each app beside the real app it models",
        "",
        "Generated by `python -m phone_gym.docgen.fidelity --write` from each app's manifest",
        "(`AppManifest.look`, an `AppLook`) and its main screen as drawn; "
        "`tests/test_fidelity_doc.py`",
        "fails when this page is out of date. The palettes, app bar, navigation and rows are",
        "drawn from the look; **Simplifies** lists the look's own notes and every difference",
        "found by drawing the main screen (the screens show each app with its first task's",
        "data, Settings' dark theme as that task leaves it).",
        "",
    ]
    for m, shown in rows:
        look = m.look
        simplifies = [*look.simplifies, *differences(look, shown)]
        out += [
            f"## {m.label}",
            "",
            f"![{m.label}: main screen](images/fidelity/{m.name.lower()}.png){{ width=216 "
            f"align=right }}",
            "",
            f"Models **{look.models}** (`{m.package}`).",
            "",
            "| | the look (drawn, except what Simplifies lists) |",
            "|---|---|",
            f"| theme | {_theme(look)} |",
            f"| top bar | {_top_bar(look)} |",
            f"| navigation | {NAV_WORDS[look.navigation]}"
            + (f": {', '.join(look.nav_items)}" if look.nav_items else "") + " |",
            f"| rows | {_rows(look)} |",
            "",
            "Simplifies:" if simplifies else "Simplifies nothing found.",
            "",
            *[f"- {s}" for s in simplifies],
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def generate(root: Path = ROOT, *, images: bool = True) -> str:
    """The page's text; with ``images``, also (re)draw ``docs/images/fidelity/*.png``."""
    device = Device(APPS)
    renderer = Renderer(*SIZE)
    rows = [(app.manifest, drawn(device, app.manifest, renderer)) for app in APPS]
    if images:
        folder = root / IMAGES
        folder.mkdir(parents=True, exist_ok=True)
        for m, shown in rows:
            Image.fromarray(shown.image).save(folder / f"{m.name.lower()}.png", optimize=True)
    return page(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phone_gym.docgen.fidelity",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true",
                      help=f"write {PAGE} and {IMAGES}/<app>.png under --root")
    what.add_argument("--check", action="store_true",
                      help=f"exit 1 when {PAGE} differs from what would be written")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this)")
    args = parser.parse_args(argv)
    text = generate(args.root, images=args.write)
    target = args.root / PAGE
    if args.check:
        if not target.exists() or target.read_text() != text:
            print(f"{target} is out of date: run python -m phone_gym.docgen.fidelity --write",
                  file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    target.write_text(text)
    print(f"wrote {target} and {len(APPS)} screens in {args.root / IMAGES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
