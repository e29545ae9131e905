"""The RealPhone benchmark runs against the virtual device and prints its figures (no speed
thresholds here: the figures live in the README)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs a benchmark script: the full tier runs it

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "real_phone.py"
KEYS = ("phoneworld_step_ms", "phoneworld_sps", "real_adb_step_ms", "real_adb_sps",
        "real_local_step_ms", "real_reset_ms", "tap_ms", "screencap_ms", "uiautomator_dump_ms")


def test_real_phone_benchmark_prints_one_json_line_of_positive_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARK), "--steps", "12"], capture_output=True, text=True,
        timeout=300, check=False, env={**os.environ, "ADBUTILS_ADB_PATH": "/bin/false"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    figures = json.loads(lines[0])
    for key in KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, (key, figures)
