"""Every figure committed under ``docs/`` is what its command draws now: each figure of
``scripts/figures.py`` is drawn into a temporary folder (in a fresh process, as
``python scripts/figures.py --root DIR NAME``) and compared with the committed files, pixel
for pixel (a GIF frame by frame). After a change of look, ``python scripts/figures.py``
draws them again (docs/testing.md)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from PIL import Image, ImageSequence

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "figures.py"
#: What counts as a figure under docs/.
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".svg", ".webp")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("figures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("figures", module)
    spec.loader.exec_module(module)
    return module


FIGURES = _load().FIGURES


def files(root: Path, globs: tuple[str, ...]) -> set[Path]:
    return {p.relative_to(root) for g in globs for p in root.glob(g) if p.is_file()}


def frames(path: Path) -> list[np.ndarray]:
    """Every frame of an image (one for a PNG), as RGBA pixels."""
    with Image.open(path) as image:
        return [np.asarray(frame.convert("RGBA")) for frame in ImageSequence.Iterator(image)]


def differences(drawn: Path, committed: Path) -> str | None:
    """What differs between two images' pixels (None: nothing)."""
    a, b = frames(drawn), frames(committed)
    if len(a) != len(b):
        return f"{len(a)} frames drawn, {len(b)} committed"
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        if x.shape != y.shape:
            return f"frame {k}: {x.shape[1]} x {x.shape[0]} drawn, {y.shape[1]} x {y.shape[0]}"
        changed = int((x != y).any(axis=-1).sum())
        if changed:
            return f"frame {k}: {changed} pixels differ"
    return None


def test_every_image_under_docs_is_drawn_by_a_figure() -> None:
    committed = {p.relative_to(ROOT) for p in (ROOT / "docs").rglob("*")
                 if p.suffix.lower() in IMAGE_SUFFIXES}
    covered: set[Path] = set()
    for figure in FIGURES.values():
        mine = files(ROOT, figure.files)
        assert mine, f"figure {figure.name}: no committed file matches {figure.files}"
        covered |= mine
    assert not committed - covered, (
        f"images no figure of scripts/figures.py draws: {sorted(map(str, committed - covered))}")


def test_the_comparison_sees_one_pixel(tmp_path: Path) -> None:
    pixels = np.zeros((4, 3, 3), np.uint8)
    Image.fromarray(pixels).save(tmp_path / "a.png")
    assert differences(tmp_path / "a.png", tmp_path / "a.png") is None
    pixels[2, 1, 0] = 1
    Image.fromarray(pixels).save(tmp_path / "b.png")
    assert differences(tmp_path / "a.png", tmp_path / "b.png") == "frame 0: 1 pixels differ"
    gif = [Image.fromarray(np.full((4, 3, 3), v, np.uint8)) for v in (0, 255, 128)]
    gif[0].save(tmp_path / "c.gif", save_all=True, append_images=gif[1:2])
    gif[0].save(tmp_path / "d.gif", save_all=True, append_images=gif[2:])
    assert differences(tmp_path / "c.gif", tmp_path / "d.gif") == "frame 1: 12 pixels differ"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FIGURES))
def test_the_committed_figure_is_what_its_command_draws(name: str, tmp_path: Path) -> None:
    figure = FIGURES[name]
    if figure.browser:
        pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
        if not Path("/usr/bin/chromium").exists():
            pytest.skip("/usr/bin/chromium is missing (apt-get install chromium)")
    done = subprocess.run([sys.executable, str(SCRIPT), "--root", str(tmp_path), name],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    drawn, committed = files(tmp_path, figure.files), files(ROOT, figure.files)
    assert drawn == committed, (f"{name} draws {sorted(map(str, drawn - committed))}, not "
                                f"{sorted(map(str, committed - drawn))}: run "
                                f"`python scripts/figures.py {name}` and commit what it draws")
    stale = {str(p): d for p in sorted(drawn)
             if (d := differences(tmp_path / p, ROOT / p)) is not None}
    assert not stale, (f"committed figures differ from what `{name}` draws now: {stale}; "
                       f"after a change of look run `python scripts/figures.py {name}` and "
                       "commit the figures")
