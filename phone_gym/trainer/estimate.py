"""``phone-gym train estimate``: the memory a run config needs before it starts.

The model is built on PyTorch's ``meta`` device from its Hugging Face config
(``AutoConfig``, offline: a local folder such as ``examples/configs/models/qwen2.5-vl-3b``,
or the tiny model), so parameter counts are exact and nothing is allocated. Bytes follow what
this trainer does (``precision.py``): trainable weights are stepped in float32 (master
weights, upcast in place: no second copy), so each trainable parameter costs 4 bytes of
weight, 4 of gradient and 8 of AdamW moments (``exp_avg``, ``exp_avg_sq``) plus a 4-byte
``step`` tensor per parameter tensor (``torch.optim.AdamW``); frozen weights (LoRA's base, a
KL reference copy) stay in the loaded dtype. QLoRA rows (``quantization = "4bit"``,
``quantize.py``): the base's ``nn.Linear`` weights that bitsandbytes quantizes take
``NF4_BYTES`` (4.127 bits) each, its other parameters float32 (``peft``'s
``prepare_model_for_kbit_training`` upcasts them), activations bfloat16.

Activations are an estimate, not a measurement: per decoder layer and token, the tensors a
fused-attention (SDPA) transformer keeps for the backward pass, after Korthikanti et al.
2022, "Reducing Activation Recomputation in Large Transformer Models" (without its dropout
masks and with no ``s^2`` attention term): ``6h + 2(a + k)d + 4i`` elements (``h`` hidden
size, ``a``/``k`` query/key-value heads of size ``d``, ``i`` the MLP width), in the compute
dtype; the same for the vision tower over its patches; plus the completion logits in float32
(the trainer asks for ``logits_to_keep`` of them only). With gradient checkpointing, each
layer keeps its input and one layer's activations are live during recomputation. A sequence
is ``prompt_tokens`` of text (default 600: system prompt, instruction, history) plus the image
tokens plus ``max_new_tokens``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch

from .config import COMMON, GRPO, SFT, ConfigError
from .precision import parse_dtype
from .quantize import NF4_BYTES, quantized_linear_parameters

GIB = 1024**3
#: bytes per element of the dtypes a config may name
BYTES = {torch.float32: 4, torch.bfloat16: 2, torch.float16: 2}
#: LoRA settings the estimate's "LoRA" rows use when the config has no ``lora`` table
DEFAULT_LORA: dict[str, Any] = {"r": 16, "target_modules": ["q_proj", "k_proj", "v_proj",
                                                             "o_proj"]}
#: The estimate's kinds of training: full fine-tuning, LoRA, and QLoRA (LoRA over a 4-bit
#: base, ``quantize.py``), whatever the config says.
TRAINING: tuple[str, ...] = ("full", "lora", "qlora")
#: screenshot size (width, height) assumed for a real model when the config sets none
DEFAULT_IMAGE = (540, 1200)


def model_config(name: str) -> Any:
    """The Hugging Face config of ``name``: ``"tiny"`` or a local folder with a
    ``config.json`` (read through ``AutoConfig``, offline)."""
    if name == "tiny":
        from .tiny import build_tiny_vlm

        return build_tiny_vlm()[0].config
    from transformers import AutoConfig

    if not (Path(name) / "config.json").is_file():
        raise ConfigError(
            f"model = {name!r}: no config.json there; give a local model folder or one of "
            "examples/configs/models/* (--set model=examples/configs/models/qwen2.5-vl-3b)")
    return AutoConfig.from_pretrained(name, local_files_only=True)


def meta_model(config: Any) -> torch.nn.Module:
    """The model of ``config`` with its parameters on the meta device (no memory)."""
    from transformers import AutoModelForImageTextToText

    with torch.device("meta"):
        return AutoModelForImageTextToText.from_config(config)  # type: ignore[no-any-return]


def lora_parameters(model: torch.nn.Module, r: int, targets: list[str]) -> tuple[int, int]:
    """(parameters, tensors) LoRA adds to ``model``: ``r * (in + out)`` per ``nn.Linear``
    whose name ends with a target, as peft's ``LoraConfig(target_modules=[...])`` matches."""
    count = tensors = 0
    for name, module in model.named_modules():
        if isinstance(module, torch.nn.Linear) and name.split(".")[-1] in targets:
            count += r * (module.in_features + module.out_features)
            tensors += 2
    return count, tensors


def _dims(cfg: Any) -> dict[str, int]:
    heads = int(cfg.num_attention_heads)
    head_dim = int(getattr(cfg, "head_dim", None) or cfg.hidden_size // heads)
    return {"h": int(cfg.hidden_size), "i": int(cfg.intermediate_size),
            "a": heads, "k": int(getattr(cfg, "num_key_value_heads", None) or heads),
            "d": head_dim, "layers": int(cfg.num_hidden_layers)}


def _vision_dims(vcfg: Any) -> dict[str, int]:
    """The vision tower's dims: Qwen2.5-VL names its width ``hidden_size`` and its MLP
    ``intermediate_size``; Qwen2-VL names them ``embed_dim`` and ``mlp_ratio`` (its
    ``hidden_size`` is the merger's output, the language model's width)."""
    heads = int(vcfg.num_heads)
    width = int(getattr(vcfg, "embed_dim", None) or vcfg.hidden_size)
    inner = getattr(vcfg, "intermediate_size", None) or width * float(vcfg.mlp_ratio)
    return {"h": width, "i": int(inner), "a": heads, "k": heads, "d": width // heads,
            "layers": int(vcfg.depth)}


def _per_token(dims: Mapping[str, int]) -> int:
    """Elements one layer keeps per token for the backward pass (the module docstring)."""
    return 6 * dims["h"] + 2 * (dims["a"] + dims["k"]) * dims["d"] + 4 * dims["i"]


def _activations(dims: Mapping[str, int], tokens: int, elem: int, checkpointing: bool) -> int:
    layer = _per_token(dims) * tokens * elem
    if checkpointing:  # layer inputs kept, one layer recomputed at a time
        return dims["layers"] * dims["h"] * tokens * elem + layer
    return dims["layers"] * layer


def estimate(config: Mapping[str, Any], algorithm: str = "grpo", prompt_tokens: int = 600,
             micro_batch: int | None = None) -> dict[str, Any]:
    """The memory figures of a run config: ``params`` (the model's parameter count), and
    ``quantized_params`` (those a 4-bit load quantizes) and ``rows``, one per (full
    fine-tuning, LoRA, QLoRA: ``training``) x (gradient checkpointing off, on) x
    (the config's batch, micro-batches of ``micro_batch``, default 1), each with
    ``weights``, ``gradients``, ``optimizer``, ``activations`` and ``total`` in bytes."""
    if algorithm not in ("sft", "grpo"):
        raise ValueError(f"algorithm={algorithm!r}; accepted: 'sft', 'grpo'")
    if prompt_tokens < 0 or (micro_batch is not None and micro_batch < 1):
        raise ValueError("prompt_tokens must be >= 0 and micro_batch >= 1")
    cfg = {**COMMON, **(SFT if algorithm == "sft" else GRPO), **config}
    hf = model_config(str(cfg["model"]))
    model = meta_model(hf)
    loaded = parse_dtype(cfg.get("dtype"))
    if not isinstance(loaded, torch.dtype):  # none/"auto": the checkpoint's own dtype
        loaded = parse_dtype(str(getattr(hf, "dtype", None) or "float32"))
    assert isinstance(loaded, torch.dtype)
    elem = BYTES[loaded]
    params = sum(p.numel() for p in model.parameters())
    tensors = sum(1 for _ in model.parameters())
    grpo = dict(cfg.get("grpo") or {})
    batch = int(cfg["train_batch_size"] if algorithm == "sft"
                else grpo.get("minibatch_size", 16))
    reference = algorithm == "grpo" and float(grpo.get("beta", 0.0)) > 0
    text = hf.get_text_config()
    vision = getattr(hf, "vision_config", None)
    patch = int(getattr(vision, "patch_size", 14))
    merge = int(getattr(vision, "spatial_merge_size", 2))
    if cfg.get("image_size"):
        width, height = (int(v) for v in cfg["image_size"])
    elif cfg["model"] == "tiny":
        width, height = 64, 128  # build_tiny_vlm's default
    else:
        width, height = DEFAULT_IMAGE
    unit = patch * merge
    patches = (math.ceil(width / unit) * merge) * (math.ceil(height / unit) * merge)
    images = 1 + int(cfg.get("history_images") or 0)
    completion = int(cfg["max_new_tokens"])
    seq = prompt_tokens + images * patches // merge**2 + completion
    lora = dict(cfg.get("lora") or DEFAULT_LORA)
    lora_params, lora_tensors = lora_parameters(
        model, int(lora.get("r", 16)), list(lora.get("target_modules")
                                            or DEFAULT_LORA["target_modules"]))
    quantized = quantized_linear_parameters(model)
    rows = []
    for training, ckpt, mb in itertools.product(
            TRAINING, (False, True), (batch, min(micro_batch or 1, batch))):
        use_lora = training != "full"
        trainable, n_tensors = (lora_params, lora_tensors) if use_lora else (params, tensors)
        act_elem = elem
        if training == "qlora":  # 4-bit linears; the rest float32 (prepare_model_for_kbit..)
            weights = 4 * trainable + math.ceil(NF4_BYTES * quantized) + 4 * (params - quantized)
            act_elem = 2  # under autocast to bfloat16, the 4-bit layers' compute dtype
        else:
            weights = 4 * trainable + elem * (params if use_lora else 0)
        if reference and not use_lora:  # a frozen copy (LoRA: the base, adapters off)
            weights += elem * params
        acts = _activations(_dims(text), mb * seq, act_elem, ckpt)
        if vision is not None:
            acts += _activations(_vision_dims(vision), mb * images * patches, act_elem, ckpt)
        acts += mb * (completion + 1) * int(text.vocab_size) * 4 * 2  # logits, log-softmax
        row: dict[str, Any] = {"training": training, "lora": use_lora,
                               "gradient_checkpointing": ckpt,
                               "micro_batch": mb, "trainable": trainable,
                               "weights": weights, "gradients": 4 * trainable,
                               "optimizer": 8 * trainable + 4 * n_tensors,
                               "activations": acts}
        row["total"] = sum(row[k] for k in ("weights", "gradients", "optimizer", "activations"))
        rows.append(row)
    return {"model": str(cfg["model"]), "architecture": type(model).__name__,
            "params": params, "quantized_params": quantized,
            "loaded_dtype": str(loaded).removeprefix("torch."),
            "batch": batch, "sequence_tokens": seq, "image_tokens": images * patches // merge**2,
            "lora_r": int(lora.get("r", 16)), "kl_reference": reference, "rows": rows}


def format_estimate(result: Mapping[str, Any]) -> str:
    """``estimate``'s result as a table in GiB (MiB for a model under 1 GiB)."""
    n = result["params"]
    count = f"{n / 1e9:.3f} B" if n >= 1e9 else f"{n / 1e6:.3f} M"
    lines = [f"{result['model']} ({result['architecture']}): {count} "
             f"parameters loaded in {result['loaded_dtype']}; {result['sequence_tokens']} "
             f"tokens a sequence ({result['image_tokens']} of them image tokens), "
             f"batch {result['batch']}",
             "training   ckpt  micro  weights  grads  optim  activ  total"]
    big = max(row["total"] for row in result["rows"]) >= GIB
    unit, scale = ("GiB", GIB) if big else ("MiB", 1024**2)
    lines[1] += f" ({unit})"
    for row in result["rows"]:
        kind = {"full": "full", "lora": f"LoRA r{result['lora_r']}",
                "qlora": f"QLoRA r{result['lora_r']}"}[row.get("training", "full")]
        lines.append(
            f"{kind:<9}  {'on' if row['gradient_checkpointing'] else 'off':<4}  "
            f"{row['micro_batch']:>5}  " + "  ".join(
                f"{row[k] / scale:>{w}.2f}" for k, w in (("weights", 7), ("gradients", 5),
                                                       ("optimizer", 5), ("activations", 5),
                                                       ("total", 5))))
    return "\n".join(lines)
