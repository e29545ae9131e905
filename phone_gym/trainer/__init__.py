"""phone_gym.trainer: vision-language phone policies trained with SFT and GRPO.

Install with ``pip install -e ".[train]"``. ``import phone_gym`` never imports this package;
this package imports torch and transformers only when a name that needs them is used.

- policies: ``Policy``, ``OraclePolicy``, ``RandomPolicy``, ``CallablePolicy``,
  ``VLMPolicy`` (``load_vlm``, ``build_tiny_vlm``)
- rollouts: ``Collector`` over local envs, vector envs or ``RayBackend``; ``MixedSampler``
  of ``EnvSource``s; ``StepRecord``/``Episode`` records
- training: ``sft_samples``/``train_sft`` (``apply_lora``), ``group_advantages``/
  ``grpo_loss``/``train_grpo``
- data: ``export_episodes``, ``load_episodes`` (``TrajectoryError``, ``TrajectoryWarning``,
  ``read_trajectory``), ``to_conversations``
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "Policy": "policies", "Generation": "policies", "OraclePolicy": "policies",
    "RandomPolicy": "policies", "CallablePolicy": "policies",
    "Turn": "prompts", "system_prompt": "prompts", "build_messages": "prompts",
    "StepRecord": "..trajectory.records", "Episode": "..trajectory.records",
    "RECORD_KEYS": "..trajectory.records",
    "EnvSource": "mixing", "MixedSampler": "mixing", "EpisodeSpec": "mixing",
    "EnvListBackend": "backends", "VectorEnvBackend": "backends",
    "Collector": "rollout",
    "export_episodes": "export", "load_episodes": "export", "to_conversations": "export",
    "write_conversations": "export",
    "TrajectoryError": "..trajectory.format", "TrajectoryWarning": "..trajectory.format",
    "read_trajectory": "..trajectory.format",
    "VLMPolicy": "vlm", "TrainSample": "vlm", "load_vlm": "vlm",
    "build_tiny_vlm": "tiny",
    "LoraSettings": "sft", "apply_lora": "sft", "sft_samples": "sft", "train_sft": "sft",
    "GRPOSettings": "grpo", "group_advantages": "grpo", "grpo_loss": "grpo",
    "train_grpo": "grpo",
    "RayBackend": "ray_workers",
    "MetricsLog": "metrics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        where = _EXPORTS[name]  # a trainer module, or ..trajectory's (the shared format)
        module = where if where.startswith("..") else f".{where}"
        return getattr(importlib.import_module(module, __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
