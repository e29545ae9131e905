"""Run configs for ``phone-gym train sft|grpo --config FILE``: JSON or TOML (``tomllib``).

Shared keys (defaults in ``COMMON``): ``model`` ("tiny" or a local checkpoint), ``out_dir``,
the policy settings, ``seed``, ``checkpoint_every``, ``lora`` (a table: r, alpha, dropout,
target_modules; absent: full fine-tuning). SFT adds ``data`` and the optimizer keys in
``SFT``; GRPO adds ``sources`` (a list of ``EnvSource`` tables), ``grpo`` (``GRPOSettings``
fields), ``format_penalty`` and ``ray_workers``. Example (TOML)::

    model = "tiny"
    out_dir = "runs/grpo"
    [grpo]
    iterations = 20
    group_size = 8
    [[sources]]
    name = "mock"
    env = "PhoneWorld-v0"
    kwargs = { task = "ClockDisableAlarm", end_on_success = true, max_steps = 4 }
    num_envs = 8
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

COMMON: dict[str, Any] = {
    "model": "tiny", "out_dir": "runs/train", "image_size": None, "max_new_tokens": 48,
    "temperature": 1.0, "max_history": 8, "history_images": 0, "dtype": None,
    "device": None, "seed": 0, "checkpoint_every": 0, "lora": None, "progress": True,
    "batch_size": 16,
}
SFT: dict[str, Any] = {
    "data": None, "steps": 300, "train_batch_size": 8, "lr": 1e-3, "weight_decay": 0.0,
    "max_grad_norm": 1.0, "eval_episodes": 0, "successful_only": True,
}
GRPO: dict[str, Any] = {
    "sources": None, "grpo": {}, "format_penalty": 0.0, "ray_workers": 0,
}
#: Keys of the SFT ``data`` table: an export folder (``path``), or oracle episodes.
DATA: dict[str, Any] = {
    "path": None, "env": "PhoneWorld-v0", "kwargs": {}, "episodes": 16, "seeds": None,
    "num_envs": 4,
}


def load_config(path: str | Path) -> dict[str, Any]:
    """A config file as a dict (``.toml`` through tomllib, anything else as JSON)."""
    path = Path(path)
    text = path.read_text()
    if path.suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        return tomllib.loads(text)
    return dict(json.loads(text))


def resolve(config: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The config with defaults filled in; unknown keys raise ``ValueError``."""
    defaults = {**COMMON, **(SFT if kind == "sft" else GRPO)}
    unknown = sorted(set(config) - set(defaults))
    if unknown:
        raise ValueError(f"unknown {kind} config keys {unknown}; accepted: {sorted(defaults)}")
    out = {**defaults, **config}
    if kind == "sft":
        data = dict(out["data"] or {})
        bad = sorted(set(data) - set(DATA))
        if bad:
            raise ValueError(f"unknown data keys {bad}; accepted: {sorted(DATA)}")
        out["data"] = {**DATA, **data}
    else:
        from .grpo import GRPOSettings

        names = {f.name for f in fields(GRPOSettings)}
        bad = sorted(set(out["grpo"]) - names)
        if bad:
            raise ValueError(f"unknown grpo keys {bad}; accepted: {sorted(names)}")
        if not out["sources"]:
            raise ValueError("a grpo config needs [[sources]] (env, kwargs, weight, num_envs)")
    return out
