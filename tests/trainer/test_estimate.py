"""``phone-gym train estimate``: its parameter, gradient and optimizer figures against the tiny
model's real ones (counted, and measured after one AdamW step as the trainer takes it), the
shipped Qwen2.5-VL configs' sizes, and the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

import torch  # noqa: E402

from phone_gym.cli import main  # noqa: E402
from phone_gym.trainer.estimate import estimate  # noqa: E402
from phone_gym.trainer.precision import Precision, master_weights  # noqa: E402
from phone_gym.trainer.tiny import build_tiny_vlm  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "examples" / "configs" / "models"


def row(result: dict[str, Any], lora: bool) -> dict[str, Any]:
    return next(r for r in result["rows"] if r["lora"] is lora)


def step_and_measure(model: Any) -> tuple[int, int]:
    """(gradient bytes, AdamW state bytes) after one step the way train_grpo takes it."""
    params = master_weights(model, Precision.of(model))
    optim = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.0)
    loss = sum((p.float() ** 2).sum() for p in params)
    loss.backward()  # type: ignore[union-attr]
    grads = sum(p.grad.nbytes for p in params if p.grad is not None)
    optim.step()
    state = sum(t.nbytes for s in optim.state.values() for t in s.values()
                if isinstance(t, torch.Tensor))
    return grads, state


@pytest.mark.slow  # about 6 s: two tiny models and their tokenizers
def test_full_fine_tuning_figures_match_the_tiny_model() -> None:
    result = estimate({"model": "tiny"}, "grpo")
    model, _ = build_tiny_vlm()
    assert result["params"] == sum(p.numel() for p in model.parameters())
    full = row(result, lora=False)
    assert full["trainable"] == result["params"]
    assert full["weights"] == sum(p.nbytes for p in model.parameters())  # float32
    grads, state = step_and_measure(model)
    assert full["gradients"] == grads
    assert full["optimizer"] == state


def test_lora_figures_match_peft() -> None:
    from peft import LoraConfig, get_peft_model

    lora = {"r": 8, "target_modules": ["q_proj", "v_proj"]}
    result = estimate({"model": "tiny", "lora": lora}, "sft")
    model = get_peft_model(build_tiny_vlm()[0], LoraConfig(r=8, target_modules=["q_proj",
                                                                                 "v_proj"]))
    trainable = [p for p in model.parameters() if p.requires_grad]
    adapters = row(result, lora=True)
    assert adapters["trainable"] == sum(p.numel() for p in trainable) > 0
    grads, state = step_and_measure(model)
    assert adapters["gradients"] == grads
    assert adapters["optimizer"] == state


def test_memory_falls_with_checkpointing_and_micro_batches() -> None:
    result = estimate({"model": "tiny", "grpo": {"minibatch_size": 8}}, "grpo", micro_batch=2)
    acts = {(r["gradient_checkpointing"], r["micro_batch"]): r["activations"]
            for r in result["rows"] if not r["lora"]}
    assert set(acts) == {(False, 8), (False, 2), (True, 8), (True, 2)}
    assert acts[(True, 8)] < acts[(False, 8)] and acts[(False, 2)] < acts[(False, 8)]
    assert acts[(True, 2)] == min(acts.values())


def test_shipped_qwen_configs_have_the_published_sizes() -> None:
    """Qwen2.5-VL-3B-Instruct: 3.75 B parameters, 7B: 8.29 B (their model cards)."""
    three = estimate({"model": str(MODELS / "qwen2.5-vl-3b")}, "grpo")
    seven = estimate({"model": str(MODELS / "qwen2.5-vl-7b")}, "grpo")
    assert three["params"] == 3_754_622_976 and three["loaded_dtype"] == "bfloat16"
    assert seven["params"] == 8_292_166_656
    full = row(three, lora=False)
    assert full["weights"] + full["gradients"] + full["optimizer"] > 16 * 3.7e9


def test_qwen2_vl_2b_reads_its_vision_tower_by_its_own_names() -> None:
    """Qwen2-VL-2B-Instruct: 2,208,985,600 parameters (its safetensors index). Its vision
    config names the tower's width ``embed_dim`` and its MLP ``mlp_ratio`` (``hidden_size`` is
    the merger's output): reading ``hidden_size`` as the width failed."""
    two = estimate({"model": str(MODELS / "qwen2-vl-2b")}, "grpo")
    assert two["params"] == 2_208_985_600
    assert row(two, lora=False)["activations"] > 0


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="accepted: 'sft', 'grpo'"):
        estimate({"model": "tiny"}, "ppo")
    with pytest.raises(ValueError, match="no config.json"):
        estimate({"model": str(ROOT / "no-such-model")}, "grpo")


def test_cli_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "estimate", "--config", str(ROOT / "examples/configs/sft.toml"),
                 "--set", "model=tiny", "--micro-batch", "2"]) == 0
    out = capsys.readouterr().out
    assert "tiny (Qwen2_5_VLForConditionalGeneration)" in out
    assert "LoRA r16" in out and "(MiB)" in out
