"""Fixtures shared by test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from phone_gym.world.glyphs import CJK_ENV, reload_fonts


@pytest.fixture
def no_cjk_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The font stack as on a machine without a CJK font."""
    monkeypatch.setenv(CJK_ENV, "")
    reload_fonts()
    yield
    monkeypatch.undo()
    reload_fonts()
