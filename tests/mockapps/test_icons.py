"""Launcher icons say which app they open: a drawn symbol, or the initial of the app's label
(Clock's icon was a "T", To-do's letter)."""

from __future__ import annotations

from phone_gym.mockapps import REGISTRY
from phone_gym.mockapps.clock.manifest import MANIFEST as CLOCK
from phone_gym.world.glyphs import SYMBOLS

BUILTIN = [p.manifest for p in REGISTRY.packages if p.builtin]


def test_the_clock_icon_is_a_clock_face() -> None:
    assert CLOCK.icon != "T" and not CLOCK.icon.isalpha()
    assert CLOCK.icon in SYMBOLS and SYMBOLS[CLOCK.icon] is SYMBOLS["⏰"]


def test_every_icon_is_a_symbol_or_the_apps_initial() -> None:
    for m in BUILTIN:
        assert m.icon in SYMBOLS or m.icon == m.label[:1].upper(), (m.name, m.icon)


def test_no_two_apps_share_an_icon() -> None:
    icons = [(m.icon, m.color) for m in BUILTIN]
    assert len(set(icons)) == len(icons)
    glyphs = [m.icon for m in BUILTIN]
    assert len(set(glyphs)) == len(glyphs), glyphs
