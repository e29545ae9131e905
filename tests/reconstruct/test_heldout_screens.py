"""Issue 32: the closed loop's ``fidelity.md`` shows held-out screens side by side with the
rebuilt ones (``reconstruct.screens``): Settings rebuilt from one in-process trace, another
episode (recorded with screenshots) replayed in it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from phone_gym.reconstruct.screens import HEIGHT, describe_action, side_by_side
from phone_gym.reconstruct.trace import Step

#: A recorded screen is 1080 x 2400: each side is this wide at ``HEIGHT``.
SIDE_W = round(1080 * HEIGHT / 2400)


def _halves(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The left and right screens of a side-by-side image (its middle rows)."""
    a = np.asarray(Image.open(path).convert("RGB")).astype(int)
    rows = a[a.shape[0] // 8: a.shape[0] * 3 // 4]
    return rows[:, : a.shape[1] // 2], rows[:, a.shape[1] // 2:]


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    from phone_gym.reconstruct.loop import closed_loop, record_episodes

    root = tmp_path_factory.mktemp("screens")
    train = record_episodes(["SettingsWifiOff:0"], root / "train", in_process=True)
    held = record_episodes(["SettingsWifiOn:1"], root / "held", in_process=True, frames=True)
    return closed_loop(train, held, root / "rebuilt", screens=2), root / "rebuilt"


@pytest.mark.slow
def test_fidelity_md_shows_heldout_screens_side_by_side(loop: tuple[dict, Path]) -> None:
    rep, out = loop
    shots = rep["screens"]
    assert len(shots) == 2
    # the screen after the state change (Wi-Fi switched on) is among them
    assert any(s["action"] == 'click "Wi-Fi"' for s in shots)
    md = (out / "fidelity.md").read_text(encoding="utf-8")
    assert "## Held-out screens" in md
    links = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", md)
    assert len(links) == 2
    for s in shots:
        path = Path(s["path"])
        assert path.relative_to(out).as_posix() in links
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(path) as im:
            w, h = im.size
        assert w == 3 * 8 + 2 * SIDE_W and HEIGHT < h < HEIGHT + 100
        for half in _halves(path):  # both screens drawn: not one flat colour
            assert half.std() > 10 and len(np.unique(half.reshape(-1, 3), axis=0)) > 20
        assert f"{s['action']}; element-box IoU {s['iou']:.2f}, text overlap " \
               f"{s['text_overlap']:.2f}" in md
    step = {s["step"]: s for s in rep["steps"]}
    assert all(step[s["step"]]["iou"] == s["iou"] for s in shots)


@pytest.mark.slow
def test_no_screens_without_frames(tmp_path: Path, loop: tuple[dict, Path]) -> None:
    """Held-out traces recorded without screenshots: figures, no images, and the section
    says why."""
    from phone_gym.reconstruct.loop import closed_loop, record_episodes

    train = record_episodes(["SettingsWifiOff:0"], tmp_path / "train", in_process=True)
    held = [loop[1].parent / "train"]  # recorded without frames
    rep = closed_loop(train, held, tmp_path / "rebuilt", screens=3)
    assert rep["screens"] == [] and not (tmp_path / "rebuilt" / "heldout").exists()
    md = (tmp_path / "rebuilt" / "fidelity.md").read_text(encoding="utf-8")
    assert "record with frames" in md and "transitions reached" in md
    with pytest.raises(ValueError, match=">= 0"):
        closed_loop(train, held, tmp_path / "again", screens=-1)


def test_side_by_side_keeps_both_screens_at_one_height() -> None:
    tall = Image.new("RGB", (1080, 2400), (255, 0, 0))
    small = Image.new("RGB", (540, 1200), (0, 0, 255))
    im = side_by_side(tall, small, 'click "A rather long button name that wraps" ' * 3)
    assert im.width == 3 * 8 + 2 * SIDE_W and im.height < HEIGHT + 100
    left, right = _halves_of(im)
    assert (left == (255, 0, 0)).all(axis=-1).mean() > 0.9
    assert (right == (0, 0, 255)).all(axis=-1).mean() > 0.9


def _halves_of(im: Image.Image) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(im).astype(int)
    rows = a[a.shape[0] // 8: a.shape[0] * 3 // 4]
    return rows[:, 8 + 5: 8 + SIDE_W - 5], rows[:, 16 + SIDE_W + 5: 16 + 2 * SIDE_W - 5]


def test_describe_action_names_what_was_done() -> None:
    def step(action: dict, target: dict | None = None) -> Step:
        return Step(1, "p", "", "", (1080, 2400), action, target)

    assert describe_action(step({"action": "click", "x": 1, "y": 2},
                                {"text": "Save"})) == 'click "Save"'
    assert describe_action(step({"action": "type", "text": "Alice"})) == 'type "Alice"'
    assert describe_action(step({"action": "scroll", "direction": "down"})) == "scroll down"
    assert describe_action(step({"action": "press", "button": "back"})) == "press back"
