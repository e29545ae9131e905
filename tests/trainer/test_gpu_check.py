"""``scripts/gpu_check.py``: ``--random-init`` runs on CPU with a tiny random model of the
real architecture class (Qwen2.5-VL, small dims, from a config.json as the shipped
Qwen2.5-VL-3B one is read) and prints its figures; a model it cannot load is a one-line
error with exit status 2, not a silent fallback."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_check.py"


def gpu_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_random_init_runs_on_cpu_with_a_tiny_qwen(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from phone_gym.trainer.tiny import build_tiny_vlm

    build_tiny_vlm()[0].config.save_pretrained(tmp_path)
    rc = gpu_check().main(["--random-init", "--config", str(tmp_path), "--device", "cpu",
                           "--dtype", "bfloat16", "--batch", "2", "--image-size", "64", "128",
                           "--prompt-tokens", "20", "--new-tokens", "6"])
    out = capsys.readouterr().out
    figures = json.loads(out.strip().splitlines()[-1])
    assert rc == 0 and figures["ok"] is True, out
    assert figures["architecture"] == "Qwen2_5_VLForConditionalGeneration"
    assert figures["params"] == sum(p.numel() for p in build_tiny_vlm()[0].parameters())
    assert figures["prompt_tokens_total"] == 20 + 2 + 32  # text, vision start/end, 64x128 pads
    assert figures["weight_change_fraction"] > 0.9
    assert 0 <= figures["logprob_mismatch_mean"] <= figures["logprob_mismatch_max"] < 0.5
    assert 0 < figures["bf16_vs_fp32_mean"] < 5e-2  # bf16 differs from fp32, but little
    assert figures["train_tokens_per_s"] > 0 and figures["generate_tokens_per_s"] > 0
    assert figures["peak_memory_gib"] is None  # CPU: not measured
    assert "NOT YET CONFIRMED on a GPU" in out


def test_a_model_it_cannot_load_is_a_one_line_error(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    script = gpu_check()
    assert script.main(["--model", str(tmp_path / "missing"), "--device", "cpu"]) == 2
    assert script.main(["--random-init", "--config", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("gpu_check: ") for line in lines)
    assert "cannot load" in lines[0] and "--random-init" in lines[0]
    assert "no config.json" in lines[1]
    assert "tiny" not in captured.out  # no fallback to the tiny model
