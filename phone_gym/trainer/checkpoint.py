"""Checkpoints a run resumes from.

``checkpoint-N/`` holds the model as ``from_pretrained`` loads it, in the dtype it trains in
(bfloat16 weights for a bfloat16 run: ``VLMPolicy.save``), its processor, and
``trainer_state/``: ``resume.pt`` (optimizer, scheduler, the RNG states of Python, numpy,
torch and CUDA, the step or iteration, the data or task-sampler position, the reference
model's identity) and ``master.pt`` (the float32 master copy of the trainable weights, which
the optimizer steps; only the resume needs it). As Hugging Face ``Trainer._save_checkpoint``
and TRL (``optimizer.pt``, ``scheduler.pt``, ``rng_state.pth``, ``trainer_state.json``) do,
with one file for the trainer's state. A checkpoint is written to a temporary folder beside
it, then renamed: a run killed while saving leaves the previous checkpoints whole.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

if TYPE_CHECKING:
    from .vlm import VLMPolicy

STATE_DIR = "trainer_state"
CHECKPOINT = re.compile(r"checkpoint-(\d+)")


def rng_state() -> dict[str, Any]:
    """The RNG states of Python's ``random``, numpy's global RNG, torch and (when present)
    every CUDA device."""
    state: dict[str, Any] = {"python": random.getstate(), "numpy": np.random.get_state(),
                             "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: Mapping[str, Any]) -> None:
    """Restore what ``rng_state`` returned."""
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def trainable_state(policy: VLMPolicy) -> dict[str, torch.Tensor]:
    """The trainable parameters by name, as the optimizer steps them (float32 master
    weights), on the CPU."""
    return {name: p.detach().float().cpu().clone()
            for name, p in policy.model.named_parameters() if p.requires_grad}


def load_trainable_state(policy: VLMPolicy, state: Mapping[str, torch.Tensor]) -> None:
    """Copy ``trainable_state``'s tensors into the policy's trainable parameters (after
    ``policy.trainable_parameters()`` made them float32); names must match."""
    params = {name: p for name, p in policy.model.named_parameters() if p.requires_grad}
    if set(params) != set(state):
        missing = sorted(set(params) ^ set(state))[:3]
        raise ValueError(f"the checkpoint's trainable weights do not match the model's (e.g. "
                         f"{missing}): resume with the config the run started with (the same "
                         "model and lora table)")
    with torch.no_grad():
        for name, p in params.items():
            p.data = state[name].to(device=p.device, dtype=p.dtype).clone()


def save_checkpoint(path: str | Path, policy: VLMPolicy, state: Mapping[str, Any]) -> Path:
    """Write ``path`` atomically: the model in its training dtype and the processor, then
    ``trainer_state/resume.pt`` (``state`` plus the RNG states) and ``master.pt``, all in a
    temporary folder renamed to ``path`` at the end (an older ``path`` is replaced)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    policy.save(tmp)
    (tmp / STATE_DIR).mkdir()
    torch.save({**state, "rng": rng_state()}, tmp / STATE_DIR / "resume.pt")
    torch.save(trainable_state(policy), tmp / STATE_DIR / "master.pt")
    old = path.with_name(f".{path.name}.old-{os.getpid()}")
    if path.exists():
        path.rename(old)
    tmp.rename(path)
    if old.exists():
        shutil.rmtree(old)
    return path


def find_checkpoint(path: str | Path) -> Path:
    """The checkpoint folder ``path`` names: itself if it holds a trainer state, else the
    last ``checkpoint-N`` of a run folder; ``ValueError`` saying what to pass otherwise."""
    path = Path(path)
    if (path / STATE_DIR / "resume.pt").exists():
        return path
    found = sorted(((int(m.group(1)), p) for p in (path.glob("checkpoint-*") if path.is_dir()
                                                   else [])
                    if (m := CHECKPOINT.fullmatch(p.name)) and (p / STATE_DIR).is_dir()),
                   key=lambda item: item[0])
    if not found:
        raise ValueError(f"--resume {str(path)!r}: no checkpoint there: pass a run's out_dir "
                         "or one of its checkpoint-N folders (written with checkpoint_every "
                         "> 0)")
    return found[-1][1]


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """The trainer state ``save_checkpoint`` wrote (``resume.pt``), with the master weights
    under ``"master"`` and the folder under ``"path"``."""
    path = find_checkpoint(path)
    state = torch.load(path / STATE_DIR / "resume.pt", weights_only=False)
    state["master"] = torch.load(path / STATE_DIR / "master.pt", weights_only=True)
    state["path"] = path
    return state


def restore(policy: VLMPolicy, state: Mapping[str, Any], optimizer: torch.optim.Optimizer,
            scheduler: Any = None) -> None:
    """Load a trainer state into a freshly built policy's trainable weights, the optimizer,
    the scheduler and the RNGs (last, so that nothing after it draws)."""
    load_trainable_state(policy, state["master"])
    optimizer.load_state_dict(state["optimizer"])
    if scheduler is not None and state.get("scheduler") is not None:
        scheduler.load_state_dict(state["scheduler"])
    set_rng_state(state["rng"])


def accumulate(batch: list[Any], micro_batch_size: int | None) -> list[list[Any]]:
    """``batch`` split into micro-batches of at most ``micro_batch_size`` (None: whole)."""
    if micro_batch_size is None or micro_batch_size >= len(batch):
        return [batch]
    if micro_batch_size < 1:
        raise ValueError(f"micro_batch_size = {micro_batch_size}; accepted: an integer >= 1 "
                         "or none (the whole batch at once)")
    return [batch[k:k + micro_batch_size] for k in range(0, len(batch), micro_batch_size)]


def enable_gradient_checkpointing(policy: VLMPolicy) -> None:
    """Hugging Face gradient checkpointing on the policy's model (``use_reentrant=False``,
    as TRL's ``GRPOConfig`` sets by default); ``ValueError`` for a model without it."""
    model = policy.model
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if not getattr(base, "supports_gradient_checkpointing", False):
        raise ValueError(f"gradient_checkpointing = true: {type(base).__name__} does not "
                         "support it; set it to false")
    enable = getattr(base, "activation_checkpointing_enable", None)  # transformers >= 5.2x
    kwargs = {"use_reentrant": False}
    if enable is not None:
        enable(activation_checkpointing_kwargs=kwargs)
    else:
        base.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
    if hasattr(model, "enable_input_require_grads"):  # a frozen base under LoRA adapters
        model.enable_input_require_grads()


def model_folder(run: str | Path) -> Path:
    """The model folder of ``run``: itself if it holds a model (``config.json`` or a LoRA
    ``adapter_config.json``), else its ``final/``, else its last checkpoint."""
    run = Path(run)
    if (run / "config.json").exists() and not (run / "metrics.csv").exists() or (
            run / "adapter_config.json").exists():
        return run
    if (run / "final" / "config.json").exists():
        return run / "final"
    try:
        return find_checkpoint(run)
    except ValueError:
        raise ValueError(f"{str(run)!r} holds no model: pass a run's out_dir (with final/ or "
                         "checkpoint-N/) or one of its model folders") from None


def export_model(run: str | Path, out: str | Path) -> dict[str, Any]:
    """Write ``run``'s model (``model_folder``) to ``out`` as a Hugging Face folder that
    ``from_pretrained`` loads: LoRA adapters merged into their base (the run's
    ``config.json`` names it), weights in the dtype they trained in, the processor beside
    them, no trainer state."""
    import json

    from .vlm import VLMPolicy, load_vlm

    source = model_folder(run)
    out = Path(out)
    if out.exists():
        raise ValueError(f"{str(out)!r} exists: pass a new folder to export to")
    if (source / "adapter_config.json").exists():
        from peft import PeftModel

        base = json.loads((source / "adapter_config.json").read_text())
        run_cfg = source.parent / "config.json"
        name = (json.loads(run_cfg.read_text())["model"] if run_cfg.exists()
                else base["base_model_name_or_path"])
        model, processor = load_vlm(name)
        model = PeftModel.from_pretrained(model, str(source))
    else:
        model, processor = load_vlm(str(source))
    policy = VLMPolicy(model, processor)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    policy.save(tmp, merged=True)
    tmp.rename(out)
    return {"from": str(source), "out": str(out),
            "dtype": str(policy.precision.loaded).removeprefix("torch.")}


Saver = Callable[[int, Mapping[str, Any]], None]
