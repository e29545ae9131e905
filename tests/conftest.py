"""Fixtures shared by test folders, and the test tiers.

Tiers (``docs/testing.md``): plain ``pytest`` runs the **fast tier**: every test, but the
sweeps over every template, app or env id (parametrized by them) run on a fixed sample of
one template in ``SAMPLE_EVERY`` and one app in ``SAMPLE_EVERY_APP`` (by a hash of the
name), and tests marked ``slow`` (a sweep of their own) or listed in ``slow_tests.txt``
(measured at 1.5 s or more) are left out. ``pytest --full`` (what CI runs, in parallel with
``-n auto``) runs everything. ``-m slow`` selects the marked tests alone.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from phone_gym.world.glyphs import CJK_ENV, NO_SYSTEM_FONTS_ENV, reload_fonts

#: The fast tier keeps one template in this many (by a hash of its id), and one app in
#: ``SAMPLE_EVERY_APP``; ``--full`` keeps all.
SAMPLE_EVERY = 32
SAMPLE_EVERY_APP = 8
FULL_ENV = "PHONE_GYM_FULL_TESTS"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true",
                     help="run the full tier: every template, app and id, and the tests "
                          f"marked slow (also: {FULL_ENV}=1); default: the fast tier")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a test the fast tier leaves out (pytest --full "
                                       "runs it)")


def _hashed(name: str, every: int) -> bool:
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % every == 0


@cache
def _samples() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(every template id, the sampled ids, every app name, the sampled apps)."""
    from phone_gym.mockapps import REGISTRY

    ids = list(REGISTRY.templates)
    kept = {t for t in ids if _hashed(t, SAMPLE_EVERY)}
    apps = [p.manifest.name for p in REGISTRY.packages]
    kept_apps = {a for a in apps if _hashed(a, SAMPLE_EVERY_APP)} or {apps[0]}
    return frozenset(ids), frozenset(kept), frozenset(apps), frozenset(kept_apps)


def _swept(value: Any) -> tuple[str, str] | None:
    """``("template", id)`` or ``("app", name)`` for a sweep's param, else None."""
    ids, _, apps, _ = _samples()
    name = getattr(value, "id", None) if not isinstance(value, str) else value
    if isinstance(name, str) and name.startswith("PhoneWorld-") and name.endswith("-v0"):
        name = name[len("PhoneWorld-"):-len("-v0")]  # a template's env id
    if isinstance(name, str) and name in ids:
        return "template", name
    name = value if isinstance(value, str) else getattr(value, "name", None)
    if isinstance(name, str) and name in apps:
        return "app", name
    return None


@cache
def _slow_list() -> frozenset[str]:
    """The node ids of ``slow_tests.txt`` (measured: see ``slow_tests.py``)."""
    path = Path(__file__).with_name("slow_tests.txt")
    lines = path.read_text().splitlines() if path.exists() else []
    return frozenset(s.strip() for s in lines if s.strip() and not s.startswith("#"))


def in_fast_tier(item: pytest.Item) -> bool:
    """Whether the fast tier runs ``item``: not marked slow nor listed in
    ``slow_tests.txt``, and every template or app it is parametrized by is in the sample."""
    if item.get_closest_marker("slow") is not None or item.nodeid in _slow_list():
        return False
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return True
    _, kept, _, kept_apps = _samples()
    for value in callspec.params.values():
        swept = _swept(value)
        if swept is not None and swept[1] not in (kept if swept[0] == "template" else kept_apps):
            return False
    return True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--full") or os.environ.get(FULL_ENV, "") not in ("", "0"):
        return
    if config.getoption("-m"):  # an explicit marker selection (-m slow) runs as asked
        return
    keep = [item for item in items if in_fast_tier(item)]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in set(keep)])
        items[:] = keep


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
