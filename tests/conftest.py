"""Fixtures shared by test folders."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from phone_gym.world.glyphs import CJK_ENV, NO_SYSTEM_FONTS_ENV, reload_fonts


@pytest.fixture
def extra_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """A setter for the user's extra font (``CJK_ENV``, system fonts not hidden); the font
    stack as it was afterwards."""

    def use(path: Path) -> None:
        monkeypatch.setenv(CJK_ENV, str(path))
        monkeypatch.delenv(NO_SYSTEM_FONTS_ENV, raising=False)
        reload_fonts()

    yield use
    monkeypatch.undo()
    reload_fonts()
