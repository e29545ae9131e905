"""QLoRA: LoRA adapters over a base model loaded in 4 bits (``quantization = "4bit"``).

As the transformers and peft docs set it up (Dettmers et al. 2023, "QLoRA"): the base loads
through ``from_pretrained(..., quantization_config=BitsAndBytesConfig(load_in_4bit=True,
bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=
torch.bfloat16))``, which stores every ``nn.Linear`` weight but the output embedding (and
tied or ``_keep_in_fp32_modules`` ones) as 4-bit NormalFloat with one 8-bit absmax per
64 weights and one float32 constant per 256 absmaxes (double quantization: 4.127 bits a
weight); then ``peft.prepare_model_for_kbit_training`` freezes the base and upcasts its
remaining bfloat16/float16 parameters (norms, embeddings, biases) to float32, and the
``[lora]`` table's adapters go on top. The 4-bit layers compute in bfloat16. bitsandbytes'
4-bit kernels need a CUDA GPU (``transformers.integrations.validate_bnb_backend_availability``).
"""

from __future__ import annotations

import importlib.util
from typing import Any

import torch

from .config import QUANTIZATIONS

#: Bytes a 4-bit NF4 weight costs with double quantization: 4 bits, an 8-bit absmax per
#: block of 64, a float32 constant per 256 blocks (the QLoRA paper, section 3).
NF4_BYTES = (4 + 8 / 64 + 32 / (64 * 256)) / 8
#: What to do when QLoRA cannot run here.
INSTALL = "pip install bitsandbytes; needs a CUDA GPU"


def check_quantization(value: Any) -> str | None:
    """``value`` if it is None or one of ``QUANTIZATIONS``, else ``ValueError``."""
    if value is not None and value not in QUANTIZATIONS:
        raise ValueError(f"quantization = {value!r}; accepted: "
                         f"{', '.join(map(repr, QUANTIZATIONS))} (QLoRA: a 4-bit base under "
                         "the [lora] adapters) or none")
    return value  # type: ignore[no-any-return]


def require_4bit() -> None:
    """``ValueError`` naming what to install when bitsandbytes or a CUDA GPU is missing."""
    missing = [what for what, ok in (
        ("bitsandbytes is not installed", importlib.util.find_spec("bitsandbytes") is not None),
        ("no CUDA GPU is visible", torch.cuda.is_available())) if not ok]
    if missing:
        raise ValueError(f"quantization = \"4bit\" (QLoRA): {' and '.join(missing)}: "
                         f"{INSTALL} (or remove quantization from the config)")


def bnb_config(compute_dtype: torch.dtype = torch.bfloat16) -> Any:
    """The ``transformers.BitsAndBytesConfig`` of QLoRA (NF4, double quantization,
    ``compute_dtype`` for the 4-bit matmuls)."""
    from transformers import BitsAndBytesConfig

    return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                              bnb_4bit_use_double_quant=True,
                              bnb_4bit_compute_dtype=compute_dtype)


def compute_dtype(dtype: torch.dtype | str | None) -> torch.dtype:
    """The dtype the 4-bit layers compute in: a config's half ``dtype``, else bfloat16."""
    return dtype if isinstance(dtype, torch.dtype) and dtype != torch.float32 \
        else torch.bfloat16


def load_kwargs(quantization: str, dtype: torch.dtype | str | None,
                device: str | None) -> dict[str, Any]:
    """The ``from_pretrained`` keyword arguments that load a base in 4 bits on ``device``
    (a CUDA device; default ``cuda:0``); raises ``ValueError`` without bitsandbytes or CUDA."""
    check_quantization(quantization)
    require_4bit()
    if device is not None and not str(device).startswith("cuda"):
        raise ValueError(f"device = {device!r} with quantization = \"4bit\"; accepted: a CUDA "
                         "device (\"cuda\", \"cuda:1\") or none")
    compute = compute_dtype(dtype)
    target = "cuda:0" if device in (None, "cuda") else str(device)
    return {"quantization_config": bnb_config(compute), "dtype": compute,
            "device_map": {"": target}}


def prepare(model: Any, gradient_checkpointing: bool = False) -> Any:
    """``peft.prepare_model_for_kbit_training`` on a 4-bit base: frozen, its non-4-bit
    parameters in float32; gradient checkpointing is left to the trainer's own switch."""
    from peft import prepare_model_for_kbit_training

    return prepare_model_for_kbit_training(
        model, use_gradient_checkpointing=gradient_checkpointing,
        gradient_checkpointing_kwargs={"use_reentrant": False})


def quantized_linear_parameters(model: torch.nn.Module) -> int:
    """Weights bitsandbytes stores in 4 bits when it loads ``model``: those of its
    ``nn.Linear`` modules other than the ones transformers keeps unquantized
    (``get_keys_to_not_convert``: output embedding, tied and last weights; and
    ``_keep_in_fp32_modules``). Works on a meta-device model."""
    from transformers.quantizers.base import get_keys_to_not_convert
    from transformers.quantizers.quantizers_utils import should_convert_module

    skip = list(get_keys_to_not_convert(model))
    skip += list(getattr(model, "_keep_in_fp32_modules", None) or [])
    return sum(module.weight.numel() for name, module in model.named_modules()
               if isinstance(module, torch.nn.Linear) and should_convert_module(name, skip))
