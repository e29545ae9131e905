"""The growth benchmark runs and prints its figures (no speed thresholds here: the target,
50,000 records at most twice the cost of 16, lives in the benchmark and docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "growth.py"


def test_growth_prints_one_json_line_of_figures() -> None:
    args = [sys.executable, str(BENCHMARK), "--steps", "30", "--repeats", "1"]
    args += ["--sizes", "16", "300", "--stores", "contacts", "messages"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    assert set(figures["stores"]) == {"contacts", "messages"} and figures["steps"] == 30
    for store in figures["stores"].values():
        assert set(store["step_ms"]) == {"16", "300"} == set(store["reset_ms"])
        assert all(v > 0 for v in store["step_ms"].values())
        assert store["ratio"] > 0 and store["reset_ratio"] > 0
