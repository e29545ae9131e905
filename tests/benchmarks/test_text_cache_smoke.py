"""The text cache benchmark runs and prints its figures (no speed thresholds here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "text_cache.py"
KEYS = ("miss_ms_off", "miss_ms_on", "miss_speedup", "miss_ms_new_words", "word_hit_rate",
        "oracle_cold_sps_off", "oracle_cold_sps_on", "oracle_uncached_sps_off",
        "oracle_uncached_sps_on")


def test_text_cache_benchmark_prints_one_json_line_of_positive_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARK), "--tiles", "12", "--steps", "10"],
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
    assert figures["pixel_identical"] is True
    assert figures["tiles"] == 12 and figures["steps"] == 10
