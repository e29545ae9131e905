"""The vector-transfer benchmark runs and prints its figures (no speed thresholds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "vector_transfer.py"


def test_vector_transfer_prints_one_json_line_of_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARK), "--steps", "6", "--envs", "1", "2", "--rounds", "2",
         "--warmup", "2", "--policy", "wait"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    assert figures["steps"] == 6 and figures["policy"] == "wait"
    for n in (1, 2):
        row = figures[f"n{n}"]
        for path in ("sync", "before", "after"):
            assert row[f"{path}_sps"] > 0 and row[f"{path}_ms"] > 0, (n, path, row)
            assert row[f"{path}_cpu_ms"] is None or row[f"{path}_cpu_ms"] > 0
        for path in ("before", "after"):
            assert isinstance(row[f"{path}_transfer_ms"], float)
    assert 0 < figures["info_bytes_after"] < figures["info_bytes_before"]
