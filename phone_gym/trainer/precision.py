"""Mixed precision for training: float32 master weights, half-precision compute.

transformers 5 loads a checkpoint in the dtype its config names (``dtype="auto"``, bfloat16
for Qwen) even when we ask for none. An optimizer that steps bfloat16 weights directly loses
most small updates: bfloat16 keeps 8 significant bits, so an update under about 1/256 of a
weight rounds away (one AdamW step at lr 1e-6 changed 2.4 % of the tiny model's weights,
against 100 % in float32). So, as Hugging Face ``Trainer`` and TRL do with ``bf16=True`` (TRL
loads models in float32 unless ``model_init_kwargs`` names a dtype, see ``GRPOTrainer``'s
docstring; the Trainer runs the forward under ``accelerator.autocast()``), the weights the
optimizer steps are float32 and forward passes run under ``torch.autocast`` in the half dtype
the checkpoint was loaded in. verl does the same (``ActorRolloutRefWorker._build_model_optimizer``
in ``verl/workers/fsdp_workers.py`` loads the actor in float32, "otherwise, the optimizer is in
bf16, which is incorrect", and computes in bfloat16 through FSDP's ``MixedPrecision``). Frozen
weights (LoRA's base model) stay in the loaded dtype; peft keeps adapters in float32
(``get_peft_model(autocast_adapter_dtype=True)``, its default).

float16 training would need loss scaling (``torch.amp.GradScaler``), which this trainer does
not do: ``master_weights`` refuses it with a ``ValueError``.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

import torch

HALF: tuple[torch.dtype, ...] = (torch.bfloat16, torch.float16)
#: The names a config's ``dtype`` may take ("auto": what the checkpoint's config says).
DTYPES: dict[str, torch.dtype] = {"bfloat16": torch.bfloat16, "float16": torch.float16,
                                  "float32": torch.float32}


def parse_dtype(dtype: str | torch.dtype | None) -> torch.dtype | str | None:
    """A config's ``dtype`` as a ``torch.dtype``, ``"auto"`` or None; anything else raises
    ``ValueError`` naming what is accepted."""
    if dtype is None or isinstance(dtype, torch.dtype) or dtype == "auto":
        return dtype
    if isinstance(dtype, str) and dtype.removeprefix("torch.") in DTYPES:
        return DTYPES[dtype.removeprefix("torch.")]
    raise ValueError(f"dtype={dtype!r}; accepted: {', '.join(map(repr, DTYPES))}, 'auto' "
                     "or none (the checkpoint's own)")


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def weights_dtype(model: Any) -> torch.dtype:
    """The floating dtype that holds most of ``model``'s parameter elements."""
    counts: Counter[torch.dtype] = Counter()
    for p in model.parameters():
        if p.is_floating_point():
            counts[p.dtype] += p.numel()
    return counts.most_common(1)[0][0] if counts else torch.float32


@dataclass(frozen=True)
class Precision:
    """The dtypes of a policy: ``loaded`` (the model's weights as loaded) and ``compute``
    (forward passes: ``torch.autocast`` when it is a half dtype); trainable weights are
    stepped in float32 (``master_weights``)."""

    loaded: torch.dtype
    compute: torch.dtype

    @classmethod
    def of(cls, model: Any) -> Precision:
        """A model's precision: it computes in the dtype its weights were loaded in."""
        loaded = weights_dtype(model)
        return cls(loaded, loaded)

    @property
    def autocasts(self) -> bool:
        return self.compute in HALF

    def autocast(self, device_type: str) -> contextlib.AbstractContextManager[Any]:
        """The context forward passes run in: ``torch.autocast`` to the half compute dtype,
        or nothing (float32)."""
        if not self.autocasts:
            return contextlib.nullcontext()
        return torch.autocast(device_type, dtype=self.compute)

    def as_dict(self) -> dict[str, str]:
        """For a run's config.json: the loaded, compute and master-weight dtypes."""
        master = torch.float32 if self.autocasts else self.loaded
        return {"loaded_dtype": dtype_name(self.loaded), "compute_dtype": dtype_name(self.compute),
                "master_dtype": dtype_name(master)}


def master_weights(model: Any, precision: Precision) -> list[torch.nn.Parameter]:
    """The trainable parameters of ``model`` for the optimizer, half-precision ones upcast to
    float32 in place (master weights; frozen ones stay as loaded). float16 compute raises
    ``ValueError`` (it would need loss scaling)."""
    if precision.compute == torch.float16:
        raise ValueError("training in float16 needs loss scaling, which phone_gym.trainer does "
                         "not do: load the model with dtype = \"bfloat16\" or \"float32\"")
    params = [p for p in model.parameters() if p.requires_grad]
    for p in params:
        if p.dtype in HALF:
            p.data = p.data.float()
            p.grad = None  # a half gradient would no longer match its weight
    return params
