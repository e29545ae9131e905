"""examples/grpo_learning.py: GRPO from its partial SFT start raises the success rate of the
tiny model's rollouts on one seed by a margin every measured seed cleared with room, and its
plot is written."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "grpo_learning.py"
#: The rise of the mean success of the last three iterations over the first three that the
#: test asserts. Measured (docs/training.md): seeds 0, 1 and 2 gained +0.24, +0.22 and +0.42;
#: seed 0 with ``--lr 0`` (no update: the control this test must fail on) +0.01.
MARGIN = 0.10


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("grpo_learning_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # the example itself: about 2 minutes of one core
def test_grpo_raises_success_from_a_partial_sft_start(tmp_path: Path) -> None:
    example = load_example()
    result = example.run(seed=0)
    success = result["success"]
    assert len(success) == 16 and all(0.0 <= s <= 1.0 for s in success)
    assert result["first"] < 0.5, success  # partial: SFT alone does not solve these seeds
    assert result["last"] >= result["first"] + MARGIN, success
    example.plot([result], tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_iterations_and_the_plot(tmp_path: Path) -> None:
    example = load_example()
    with pytest.raises(ValueError, match="accepted: 3 or more"):
        example.run(iterations=2)
    runs = [{"seed": 0, "success": [0.1, 0.3, 0.6]}, {"seed": 1, "success": [0.0, 0.5, 0.9]}]
    example.plot(runs, tmp_path / "plot" / "curve.png")
    from PIL import Image

    with Image.open(tmp_path / "plot" / "curve.png") as img:
        assert img.format == "PNG" and img.width >= 600
