"""The throughput benchmark runs and prints its figures (no speed thresholds here: the
targets live in the benchmark and the README)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "throughput.py"
KEYS = ("random_sps", "oracle_sps", "no_render_sps", "reset_ms", "mem_per_env_mb",
        "baseline_oracle_sps")


def test_throughput_prints_one_json_line_of_positive_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARK), "--steps", "50", "--warmup", "20",
         "--baseline-steps", "20"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    for key in KEYS:
        value = figures[key]
        assert isinstance(value, (int, float)) and not isinstance(value, bool), (key, value)
        assert value > 0, (key, value)
    assert figures["steps"] == 50
