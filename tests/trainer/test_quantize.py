"""QLoRA (``quantization = "4bit"``): the config switch, the one-line error where bitsandbytes
or CUDA is missing (this CPU machine), the ``BitsAndBytesConfig`` and peft preparation it
builds, and ``train estimate``'s 4-bit figures against the parameter counts."""

from __future__ import annotations

import copy
import importlib.util
import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

import torch  # noqa: E402

from phone_gym.cli import main  # noqa: E402
from phone_gym.trainer import quantize  # noqa: E402
from phone_gym.trainer.config import ConfigError, apply_overrides, load_config, resolve  # noqa: E402
from phone_gym.trainer.estimate import estimate, format_estimate  # noqa: E402
from phone_gym.trainer.vlm import load_vlm  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "examples" / "configs" / "models"
SFT = ROOT / "examples" / "configs" / "sft.toml"
NO_4BIT = importlib.util.find_spec("bitsandbytes") is None or not torch.cuda.is_available()


def test_config_accepts_4bit_with_lora_only() -> None:
    raw = apply_overrides(load_config(SFT), ['quantization="4bit"', "lora.r=8"], "sft")
    cfg = resolve(raw, "sft")
    assert cfg["quantization"] == "4bit" and cfg["lora"]["r"] == 8
    assert resolve(load_config(SFT), "sft")["quantization"] is None
    with pytest.raises(ConfigError, match="accepted: '4bit'"):
        resolve({**raw, "quantization": "8bit"}, "sft")
    with pytest.raises(ConfigError, match=r"add a \[lora\] table"):
        resolve({**raw, "lora": None}, "sft")


@pytest.mark.skipif(not NO_4BIT, reason="bitsandbytes and CUDA are both here")
def test_missing_bitsandbytes_or_cuda_is_one_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="pip install bitsandbytes; needs a CUDA GPU"):
        load_vlm(str(MODELS / "qwen2.5-vl-3b"), quantization="4bit")
    monkeypatch.chdir(tmp_path)
    code = main(["train", "sft", "--config", str(SFT), "--set", 'quantization="4bit"',
                 "--set", "lora.r=8", "--set", f"model={MODELS / 'qwen2.5-vl-3b'}",
                 "--set", f"out_dir={tmp_path / 'run'}"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "pip install bitsandbytes; needs a CUDA GPU" in err
    assert not (tmp_path / "run").exists()  # refused before anything was written


def test_4bit_load_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quantize, "require_4bit", lambda: None)
    kwargs = quantize.load_kwargs("4bit", None, None)
    bnb = kwargs["quantization_config"]
    assert bnb.load_in_4bit and not bnb.load_in_8bit
    assert bnb.bnb_4bit_quant_type == "nf4" and bnb.bnb_4bit_use_double_quant
    assert bnb.bnb_4bit_compute_dtype == torch.bfloat16 == kwargs["dtype"]
    assert kwargs["device_map"] == {"": "cuda:0"}
    assert quantize.load_kwargs("4bit", torch.float16, "cuda:1")["device_map"] == {"": "cuda:1"}
    with pytest.raises(ValueError, match="accepted: a CUDA device"):
        quantize.load_kwargs("4bit", None, "cpu")
    with pytest.raises(ValueError, match="needs a checkpoint folder"):
        load_vlm("tiny", quantization="4bit")


def test_prepare_freezes_the_base_and_upcasts_it(tiny_vlm: tuple[Any, Any]) -> None:
    model = copy.deepcopy(tiny_vlm[0]).to(torch.bfloat16)
    model = quantize.prepare(model)
    assert all(not p.requires_grad for p in model.parameters())
    assert {p.dtype for p in model.parameters()} == {torch.float32}


def test_nf4_bytes_are_the_qlora_papers() -> None:
    """QLoRA (Dettmers et al. 2023, section 3): double quantization costs 0.127 bits a
    weight over the 4 bits of NF4."""
    assert quantize.NF4_BYTES * 8 == pytest.approx(4.127, abs=5e-4)


@pytest.mark.parametrize("name,tied", [("qwen2.5-vl-3b", True), ("qwen2.5-vl-7b", False)])
def test_estimate_4bit_weights_against_the_parameter_count(name: str, tied: bool) -> None:
    """Every linear weight but the output head is 4-bit: what stays unquantized is the
    token embedding (and the untied head: 2 x vocab x hidden), plus norms, biases and the
    vision patch embedding (under 0.5 % of the parameters)."""
    result = estimate({"model": str(MODELS / name), "dtype": "bfloat16"}, "grpo")
    params, quantized = result["params"], result["quantized_params"]
    from transformers import AutoConfig

    text = AutoConfig.from_pretrained(MODELS / name, local_files_only=True).get_text_config()
    embeddings = (1 if tied else 2) * text.vocab_size * text.hidden_size
    assert 0 < params - quantized - embeddings < 0.005 * params
    rows = {(r["training"], r["gradient_checkpointing"], r["micro_batch"]): r
            for r in result["rows"]}
    qlora, lora = rows[("qlora", True, 1)], rows[("lora", True, 1)]
    assert qlora["trainable"] == lora["trainable"] > 0
    assert qlora["weights"] == (math.ceil(quantize.NF4_BYTES * quantized)
                                + 4 * (params - quantized) + 4 * qlora["trainable"])
    assert qlora["weights"] < 0.5 * lora["weights"]  # bfloat16 base: 2 bytes a weight
    assert qlora["total"] < lora["total"]
    assert "QLoRA r16" in format_estimate(result)
