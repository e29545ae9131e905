"""The runs behind the command line: oracle collection, SFT and GRPO from a config, with a
metrics log (``metrics.csv``), checkpoints (``checkpoint-N/``) and the final model
(``final/``, LoRA merged) in ``out_dir``. Collection needs no torch."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..trajectory.format import TrajectoryError
from ..trajectory.records import Episode
from .config import ConfigError, resolve
from .export import export_episodes, load_episodes, write_conversations, write_formats
from .metrics import MetricsLog, read_metrics
from .mixing import EnvSource, MixedSampler
from .policies import OraclePolicy
from .prompts import reasons_prompt
from .rollout import Collector

#: A Hugging Face hub id (``org/name``), which ``load_vlm`` may download.
HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")

if TYPE_CHECKING:
    from .vlm import VLMPolicy


def oracle_episodes(env: str = "PhoneWorld-v0", kwargs: Mapping[str, Any] | None = None,
                    episodes: int = 16, seeds: list[int] | None = None, num_envs: int = 4,
                    seed: int = 0, progress: bool = False) -> list[Episode]:
    """Episodes of the task oracle on ``num_envs`` envs (``seeds`` in order, else random)."""
    source = EnvSource("oracle", env, dict(kwargs or {}), num_envs=num_envs, seeds=seeds)
    sampler = MixedSampler([source], seed=seed)
    collector = Collector(sampler, OraclePolicy())
    return collector.collect(episodes, progress=progress)


def run_collect(task: str | Sequence[str] | None, episodes: int, out: str | Path, *,
                num_envs: int = 4, seed: int = 0, obs_size: tuple[int, int] | None = None,
                conversations: str | None = "llamafactory", progress: bool = True,
                formats: Sequence[str] = ("native",), reasons: str = "none"
                ) -> dict[str, Any]:
    """Oracle trajectories of PhoneWorld (``task``: one template id, several, "all" or
    None for all) as an export folder, which ``run_sft`` reads as ``data.path``, plus
    conversations with absolute image paths and the other ``formats``
    (``export.write_formats``, with ``reasons`` in the targets)."""
    if task == "all" or (task is not None and not isinstance(task, str)
                         and list(task) == ["all"]):
        task = None
    elif isinstance(task, str) and "," in task:
        task = [t.strip() for t in task.split(",") if t.strip()]
    kwargs: dict[str, Any] = {}
    if task:
        kwargs["task"] = task if isinstance(task, str) else list(task)
    if obs_size:
        kwargs["obs_size"] = tuple(obs_size)
    eps = oracle_episodes("PhoneWorld-v0", kwargs, episodes, num_envs=num_envs, seed=seed,
                          progress=progress)
    export_episodes(eps, out)
    summary: dict[str, Any] = {"episodes": len(eps), "solved": sum(e.success for e in eps),
                               "steps": sum(len(e) for e in eps)}
    if conversations:
        summary["conversations"] = write_conversations(
            eps, Path(out) / f"conversations_{conversations}.jsonl", frames_dir=out,
            style=conversations)
    extra = [f for f in formats if f != "native"]
    if extra:
        summary["formats"] = write_formats(out, extra, reasons=reasons)
    return summary


def sft_data(data: Mapping[str, Any], seed: int = 0) -> list[Episode]:
    """The episodes of an SFT config's ``data`` table: the folder ``data.path`` (what
    ``phone-gym collect`` wrote), or fresh oracle episodes."""
    if not data["path"]:
        return oracle_episodes(data["env"], data["kwargs"], data["episodes"], data["seeds"],
                               data["num_envs"], seed)
    try:
        return load_episodes(data["path"])
    except (FileNotFoundError, TrajectoryError) as exc:
        raise ConfigError(f"data.path = {str(data['path'])!r}: {exc}") from None


def eval_kwargs(data: Mapping[str, Any], episodes: Sequence[Episode]) -> dict[str, Any]:
    """Env kwargs to evaluate on: ``data.kwargs``, with the tasks of ``episodes`` when it
    names none."""
    kwargs = dict(data["kwargs"])
    if "task" not in kwargs:
        tasks = sorted({s.task_id for e in episodes for s in e.steps if s.task_id})
        if tasks:
            kwargs["task"] = tasks
    return kwargs


def check_model(name: str) -> str:
    """``name`` if it is "tiny", an existing folder or a hub id, else ``ConfigError``."""
    if name != "tiny" and not Path(name).exists() and not HUB_ID.fullmatch(name):
        raise ConfigError(f"model = {name!r}: no such folder (use \"tiny\", the final/ folder "
                          "of a run, e.g. runs/sft/final after phone-gym train sft, or a "
                          "local checkpoint)")
    return name


def build_policy(cfg: Mapping[str, Any], do_sample: bool) -> VLMPolicy:
    """The model, processor and ``VLMPolicy`` a resolved config describes (LoRA applied;
    ``quantization = "4bit"``: over a 4-bit base, ``quantize.py``)."""
    from .sft import LoraSettings, apply_lora
    from .vlm import VLMPolicy, load_vlm

    quantization = cfg.get("quantization")
    model, processor = load_vlm(check_model(cfg["model"]), cfg["dtype"], cfg["device"],
                                quantization)
    if quantization is not None:  # QLoRA: frozen 4-bit base, norms etc. in float32
        from .quantize import prepare

        model = prepare(model)
    policy = VLMPolicy(model, processor, image_size=cfg["image_size"],
                       max_new_tokens=cfg["max_new_tokens"], do_sample=do_sample,
                       temperature=cfg["temperature"], max_history=cfg["max_history"],
                       history_images=cfg["history_images"], batch_size=cfg["batch_size"])
    if quantization is not None:  # as TRL with bf16=True: autocast to the 4-bit compute dtype
        from .precision import Precision, parse_dtype
        from .quantize import compute_dtype

        policy.precision = Precision(policy.precision.loaded,
                                     compute_dtype(parse_dtype(cfg["dtype"])))
    if cfg["lora"]:
        apply_lora(policy, LoraSettings(**cfg["lora"]))
    if cfg["gradient_checkpointing"]:
        from .checkpoint import enable_gradient_checkpointing

        enable_gradient_checkpointing(policy)
    return policy


def record_precision(out: Path, policy: VLMPolicy) -> None:
    """Add the dtypes the model actually loaded and computes in (``precision`` table) to the
    run's config.json."""
    path = out / "config.json"
    cfg = json.loads(path.read_text())
    cfg["precision"] = policy.precision.as_dict()
    path.write_text(json.dumps(cfg, indent=2, default=str))


@contextmanager
def progress_bars(enabled: bool) -> Iterator[None]:
    """Unless ``enabled``, transformers' progress bars (saving shards, loading weights) are
    off within it: a run with ``progress = false`` prints no bar at all."""
    from transformers.utils import logging as hf_logging

    was = hf_logging.is_progress_bar_enabled()
    if not enabled:
        hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            hf_logging.enable_progress_bar()


def _start(config: Mapping[str, Any], kind: str, resume: str | Path | None = None
           ) -> tuple[dict[str, Any], Path, MetricsLog, dict[str, Any] | None]:
    cfg = resolve(config, kind)
    check_model(str(cfg["model"]))
    if cfg["quantization"] is not None:  # before any data is collected or model loaded
        from .quantize import require_4bit

        require_4bit()
    state = None
    if resume is not None:
        state = resume_state(resume, cfg, kind)
    out = Path(cfg["out_dir"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg, indent=2, default=str))
    import torch

    torch.manual_seed(cfg["seed"])
    log = MetricsLog(out / "metrics.csv")
    if state is not None:  # the rows up to the checkpoint; later ones are logged again
        key, done = ("step", state["step"]) if kind == "sft" else ("iteration",
                                                                    state["iteration"])
        rows = read_metrics(log.path) if log.path.exists() else []
        log.path.unlink(missing_ok=True)
        for row in rows:
            if int(float(row[key])) <= done:
                log.log(row)
    return cfg, out, log, state


def resume_state(path: str | Path, cfg: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The trainer state of the checkpoint ``path`` names (a checkpoint-N folder or the run
    folder: its last one), checked against the run's config: the same kind and the same
    starting model, which stays the KL reference (``ConfigError`` otherwise)."""
    from .checkpoint import load_checkpoint

    try:
        state = load_checkpoint(path)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if state["kind"] != kind:
        raise ConfigError(f"--resume {str(path)!r} is a {state['kind']} checkpoint: resume it "
                          f"with phone-gym train {state['kind']}")
    if state["reference"] != cfg["model"]:
        raise ConfigError(f"--resume {str(path)!r}: the run started from model = "
                          f"{state['reference']!r} (its KL reference), the config says "
                          f"{cfg['model']!r}: resume with the run's config (its "
                          "config.json)")
    return state


def saver(out: Path, policy: VLMPolicy, cfg: Mapping[str, Any]) -> Any:
    """``save(n, state)`` for the trainers: ``out/checkpoint-n`` with the trainer state and
    the identity of the model the run started from (the KL reference)."""
    from .checkpoint import save_checkpoint

    def save(n: int, state: Mapping[str, Any]) -> None:
        save_checkpoint(out / f"checkpoint-{n}", policy,
                        {**state, "reference": cfg["model"], "seed": cfg["seed"]})

    return save


def run_sft(config: Mapping[str, Any], resume: str | Path | None = None) -> dict[str, Any]:
    """SFT from a config: data from an export folder (``data.path``) or fresh oracle
    episodes; ``eval_episodes`` greedy episodes after training (on the data's tasks).
    ``resume``: a checkpoint of this run (or its out_dir: the last one) to continue from."""
    cfg, out, log, state = _start(config, "sft", resume)
    with progress_bars(cfg["progress"]):
        return _run_sft(cfg, out, log, state)


def _run_sft(cfg: dict[str, Any], out: Path, log: MetricsLog,
             state: dict[str, Any] | None = None) -> dict[str, Any]:
    from .sft import sft_samples, train_sft

    data = cfg["data"]
    episodes = sft_data(data, cfg["seed"])
    policy = build_policy(cfg, do_sample=False)
    if cfg["reasons"] != "none":  # the model is told to think first, as it is trained
        if getattr(policy, "system", "") is None:  # the default prompt, in each locale
            policy.reasons = cfg["reasons"]
        else:
            policy.system = "\n".join(filter(None, [policy.system,
                                                     reasons_prompt(cfg["reasons"])]))
    record_precision(out, policy)
    samples = sft_samples(episodes, policy, successful_only=cfg["successful_only"],
                          reasons=cfg["reasons"])

    history = train_sft(policy, samples, steps=cfg["steps"],
                        batch_size=cfg["train_batch_size"], lr=cfg["lr"],
                        weight_decay=cfg["weight_decay"], max_grad_norm=cfg["max_grad_norm"],
                        seed=cfg["seed"], callback=lambda _, m: log.log(m),
                        progress=cfg["progress"], micro_batch_size=cfg["micro_batch_size"],
                        checkpoint_every=cfg["checkpoint_every"],
                        save=saver(out, policy, cfg), resume=state)
    policy.save(out / "final", merged=True)
    summary: dict[str, Any] = {"samples": len(samples),
                               "final_loss": history[-1]["loss"] if history else None,
                               "out_dir": str(out)}
    if cfg["eval_episodes"]:
        summary["eval_success"] = evaluate(policy, data["env"], eval_kwargs(data, episodes),
                                           cfg["eval_episodes"], data["seeds"],
                                           data["num_envs"])
    return summary


def evaluate(policy: VLMPolicy, env: str, kwargs: Mapping[str, Any], episodes: int,
             seeds: list[int] | None = None, num_envs: int = 4, seed: int = 0) -> float:
    """Success rate of ``policy`` over ``episodes`` episodes."""
    sampler = MixedSampler([EnvSource("eval", env, dict(kwargs), num_envs=num_envs,
                                      seeds=seeds)], seed=seed)
    eps = Collector(sampler, policy, keep_frames=False).collect(episodes)
    return float(np.mean([e.success for e in eps]))


def run_grpo(config: Mapping[str, Any], resume: str | Path | None = None) -> dict[str, Any]:
    """GRPO from a config, on local envs or (``ray_workers > 0``) Ray actors. ``resume``: a
    checkpoint of this run (or its out_dir: the last one) to continue from."""
    cfg, out, log, state = _start(config, "grpo", resume)
    with progress_bars(cfg["progress"]):
        return _run_grpo(cfg, out, log, state)


def _run_grpo(cfg: dict[str, Any], out: Path, log: MetricsLog,
              state: dict[str, Any] | None = None) -> dict[str, Any]:
    from .grpo import GRPOSettings, train_grpo

    settings = GRPOSettings(**{"seed": cfg["seed"], **cfg["grpo"]})
    policy = build_policy(cfg, do_sample=True)
    record_precision(out, policy)
    sampler = MixedSampler([dict(s) for s in cfg["sources"]], settings.group_size,
                           seed=cfg["seed"])
    backend: Any = sampler
    if cfg["ray_workers"]:
        import ray

        from .ray_workers import RayBackend

        if not ray.is_initialized():
            ray.init(num_cpus=cfg["ray_workers"], include_dashboard=False)
        backend = RayBackend.from_sampler(sampler, cfg["ray_workers"])
    # record = true: every rollout is written to OUT/rollouts in the trajectory format
    # (what `phone-gym collect` and `phone-gym play` write; `train sft` reads it)
    collector = Collector(backend, policy, sampler=sampler,
                          format_penalty=cfg["format_penalty"], keep_frames=cfg["record"],
                          seed=cfg["seed"])

    history = train_grpo(policy, collector, settings, callback=lambda _, m: log.log(m),
                         progress=cfg["progress"],
                         record_to=out / "rollouts" if cfg["record"] else None,
                         checkpoint_every=cfg["checkpoint_every"],
                         save=saver(out, policy, cfg), resume=state)
    collector.backend.close()
    policy.save(out / "final", merged=True)
    return {"iterations": len(history),
            "reward_first": history[0]["reward_mean"] if history else None,
            "reward_last": history[-1]["reward_mean"] if history else None,
            "out_dir": str(out)}
