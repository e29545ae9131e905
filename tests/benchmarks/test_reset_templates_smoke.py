"""The per-template reset benchmark runs and prints its figures (no speed thresholds here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "reset_templates.py"


def test_reset_templates_prints_the_dearest_then_one_json_line() -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARK), "--rounds", "1", "--top", "3"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 4, proc.stdout
    figures = json.loads(lines[-1])
    assert figures["rounds"] == 1 and figures["templates"] > 500
    assert 0 < figures["mean_ms"] <= figures["p95_ms"] <= figures["max_ms"]
    assert lines[0].split()[0] == figures["max_template"]


def test_reset_templates_refuses_bad_arguments() -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARK), "--rounds", "0"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "--rounds must be >= 1" in proc.stderr
