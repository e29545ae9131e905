"""The rollout-throughput benchmark runs and prints its figures (no speed thresholds)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "rollout_throughput.py"


@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in ("torch", "transformers")),
                    reason="needs the train extra (torch, transformers)")
def test_rollout_throughput_prints_one_json_line_of_positive_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARK), "--steps", "8", "--batches", "1", "4",
         "--max-new-tokens", "4", "--episode-steps", "2", "--size", "135", "300"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    for batch in (1, 4):
        assert figures[f"b{batch}_steps_per_s"] > 0
        assert 0 < figures[f"b{batch}_env_share"] < 1
    assert figures["steps"] == 8
