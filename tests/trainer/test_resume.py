"""Resume, gradient accumulation and compact checkpoints (issue 30): a run stopped after k
steps and resumed equals one never stopped; micro-batches give the full batch's gradients;
checkpoints are in the training dtype and ``train export`` writes a loadable folder."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
import torch
from trainer_support import IMAGE_SIZE, OBS_SIZE, TASK, clock_envs, make_policy, rewarded_collector

from phone_gym.trainer import runs
from phone_gym.trainer.checkpoint import STATE_DIR, find_checkpoint
from phone_gym.trainer.cli import main
from phone_gym.trainer.config import ConfigError
from phone_gym.trainer.grpo import GRPOSettings, micro_weights, train_grpo
from phone_gym.trainer.metrics import MetricsLog, read_metrics
from phone_gym.trainer.sft import sft_micro_losses, sft_samples
from phone_gym.trainer.vlm import load_vlm

SFT_CONFIG: dict[str, Any] = {
    "model": "tiny", "image_size": list(IMAGE_SIZE), "max_new_tokens": 8, "steps": 6,
    "train_batch_size": 3, "lr": 3e-3, "checkpoint_every": 2, "progress": False,
    "data": {"kwargs": {"task": TASK, "obs_size": list(OBS_SIZE)}, "episodes": 2,
             "num_envs": 2},
}
GRPO_CONFIG: dict[str, Any] = {
    "model": "tiny", "image_size": list(IMAGE_SIZE), "max_new_tokens": 8, "progress": False,
    "checkpoint_every": 2, "format_penalty": 0.1,
    "grpo": {"iterations": 3, "groups_per_iter": 2, "group_size": 2, "lr": 1e-3,
             "minibatch_size": 3, "beta": 0.05},
    "sources": [{"name": "mock", "env": "PhoneWorld-v0", "num_envs": 2,
                 "kwargs": {"task": TASK, "obs_size": list(OBS_SIZE), "max_steps": 2}}],
}


class Interrupt(Exception):
    pass


def interrupted(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """Make the run stop (raise) when it logs its row ``after + 1``, as a killed run would."""
    log = MetricsLog.log

    def stop(self: MetricsLog, row: Any) -> None:
        if len(self.rows) >= after:
            raise Interrupt
        log(self, row)

    monkeypatch.setattr(MetricsLog, "log", stop)


def losses(path: Path) -> list[float]:
    return [float(r["loss"]) for r in read_metrics(path / "metrics.csv")]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sft", "grpo"])
def test_a_resumed_run_equals_one_never_stopped(kind: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    run = runs.run_sft if kind == "sft" else runs.run_grpo
    config = SFT_CONFIG if kind == "sft" else GRPO_CONFIG
    stop_after = 4 if kind == "sft" else 2  # steps (sft) or iterations (grpo) done
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run({**config, "out_dir": str(tmp_path / "whole")})
        with monkeypatch.context() as patch:
            interrupted(patch, stop_after)
            with pytest.raises(Interrupt):
                run({**config, "out_dir": str(tmp_path / "cut")})
        cut = tmp_path / "cut"
        assert not (cut / "final").exists()
        assert find_checkpoint(cut).name == f"checkpoint-{stop_after}"
        run({**config, "out_dir": str(cut)}, resume=cut)
    whole, resumed = losses(tmp_path / "whole"), losses(cut)
    assert len(whole) == len(resumed) == (6 if kind == "sft" else 3)
    assert resumed == pytest.approx(whole, rel=1e-4, abs=1e-6)
    # the weights too: the final models agree
    a, _ = load_vlm(str(tmp_path / "whole" / "final"))
    b, _ = load_vlm(str(cut / "final"))
    for (name, x), y in zip(a.state_dict().items(), b.state_dict().values(), strict=True):
        assert torch.allclose(x.float(), y.float(), atol=1e-5), name


@pytest.mark.slow
def test_resume_refuses_another_model_or_kind(tmp_path: Path) -> None:
    out = tmp_path / "sft"
    runs.run_sft({**SFT_CONFIG, "steps": 2, "out_dir": str(out)})
    assert (out / "checkpoint-2" / STATE_DIR / "resume.pt").exists()
    with pytest.raises(ConfigError, match="started from model = 'tiny'.*KL reference"):
        runs.run_sft({**SFT_CONFIG, "model": str(out / "final"), "out_dir": str(out)},
                     resume=out)
    with pytest.raises(ConfigError, match="sft checkpoint: resume it with phone-gym train sft"):
        runs.run_grpo({**GRPO_CONFIG, "out_dir": str(out)}, resume=out / "checkpoint-2")
    with pytest.raises(ConfigError, match="no checkpoint there"):
        runs.run_sft({**SFT_CONFIG, "out_dir": str(out)}, resume=tmp_path)


def grads(policy: Any) -> dict[str, torch.Tensor]:
    return {n: p.grad.clone() for n, p in policy.model.named_parameters()
            if p.grad is not None}


def oracle_samples(policy: Any) -> list[Any]:
    from phone_gym.trainer.policies import OraclePolicy
    from phone_gym.trainer.rollout import Collector

    episodes = Collector(clock_envs(1), OraclePolicy()).collect(1)
    return sft_samples(episodes, policy)


@pytest.mark.parametrize("micro", [1, 2])
def test_sft_micro_batches_give_the_full_batch_gradient(tiny_vlm: Any, micro: int) -> None:
    policy = make_policy(tiny_vlm, do_sample=False)
    samples = oracle_samples(policy)
    lengths = {len(s.completion_ids) for s in samples}
    assert len(samples) >= 3 and len(lengths) > 1  # a plain mean of means would differ
    result = []
    for size in (None, micro):
        policy.model.zero_grad()
        total = 0.0
        for loss, _, _ in sft_micro_losses(policy, samples, size):
            loss.backward()
            total += loss.item()
        result.append((total, grads(policy)))
    (full_loss, full), (acc_loss, acc) = result
    assert acc_loss == pytest.approx(full_loss, rel=1e-5)
    assert full.keys() == acc.keys() and full
    for name in full:
        assert torch.allclose(full[name], acc[name], atol=1e-6, rtol=1e-4), name


@pytest.mark.slow
@pytest.mark.parametrize("loss_type", ["grpo", "bnpo", "dr_grpo", "dapo"])
def test_grpo_micro_batches_give_the_full_batch_gradient(tiny_vlm: Any, loss_type: str,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """One GRPO iteration (one optimizer step) with micro-batches of 1 reaches the
    optimizer with the gradients of the whole mini-batch at once."""
    Rewarded = rewarded_collector()
    seen: list[list[torch.Tensor]] = []
    step = torch.optim.AdamW.step

    def record(self: torch.optim.AdamW, *args: Any, **kwargs: Any) -> Any:
        seen.append([p.grad.clone() for g in self.param_groups for p in g["params"]])
        return step(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.AdamW, "step", record)
    losses = []
    for micro in (None, 1):
        torch.manual_seed(0)
        policy = make_policy(tiny_vlm)
        collector = Rewarded(clock_envs(2, max_steps=2), policy, keep_frames=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            history = train_grpo(policy, collector, GRPOSettings(
                iterations=1, groups_per_iter=1, group_size=2, lr=1e-3, minibatch_size=64,
                loss_type=loss_type, micro_batch_size=micro, max_grad_norm=1e9))
        assert history[0]["samples"] > 1  # more than one micro-batch
        losses.append(history[0]["loss"])
    assert len(seen) == 2  # one optimizer step each
    assert losses[1] == pytest.approx(losses[0], rel=1e-4, abs=1e-7)
    assert any(bool(g.abs().sum() > 0) for g in seen[0])
    for full, acc in zip(*seen, strict=True):
        assert torch.allclose(full, acc, atol=1e-6, rtol=1e-4)


def test_micro_weights_are_shares_of_the_batch() -> None:
    from phone_gym.trainer.grpo import GRPOSample

    batch = [GRPOSample([1], [2] * n, [], [0.0] * n, 1.0) for n in (1, 3)]
    shares = {t: [w for _, w in micro_weights(batch, GRPOSettings(loss_type=t), 1)]
              for t in ("grpo", "bnpo", "dr_grpo", "dapo")}
    assert shares == {"grpo": [0.5, 0.5], "bnpo": [0.25, 0.75], "dr_grpo": [0.5, 0.5],
                      "dapo": [1.0, 1.0]}
    with pytest.raises(ValueError, match="micro_batch_size = 0; accepted: an integer >= 1"):
        GRPOSettings(micro_batch_size=0)


@pytest.mark.slow
def test_bf16_checkpoints_and_export(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sft"
    runs.run_sft({**SFT_CONFIG, "dtype": "bfloat16", "steps": 2, "lr": 1e-4,
                  "micro_batch_size": 2, "gradient_checkpointing": True,
                  "out_dir": str(out)})
    ckpt = out / "checkpoint-2"
    from safetensors.torch import load_file

    weights = load_file(str(ckpt / "model.safetensors"))
    assert {t.dtype for t in weights.values() if t.is_floating_point()} == {torch.bfloat16}
    master = torch.load(ckpt / STATE_DIR / "master.pt", weights_only=True)
    assert {t.dtype for t in master.values()} == {torch.float32}
    assert not list(out.glob(".checkpoint-*"))  # no temporary folder left
    assert main(["train", "export", str(out), str(tmp_path / "hf")]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["from"] == str(out / "final") and summary["dtype"] == "bfloat16"
    from transformers import AutoModelForImageTextToText

    model = AutoModelForImageTextToText.from_pretrained(str(tmp_path / "hf"))
    assert model.dtype == torch.bfloat16
    assert not (tmp_path / "hf" / STATE_DIR).exists()
    with pytest.raises(ValueError, match="exists: pass a new folder"):
        main(["train", "export", str(out), str(tmp_path / "hf")])
    with pytest.raises(ValueError, match="needs RUN_DIR OUT"):
        main(["train", "export", str(out)])


def test_config_checks_the_memory_keys() -> None:
    from phone_gym.trainer.config import resolve

    assert resolve({}, "sft")["micro_batch_size"] is None
    assert resolve({}, "sft")["gradient_checkpointing"] is False
    with pytest.raises(ConfigError, match="micro_batch_size = 0; accepted: an integer >= 1"):
        resolve({"micro_batch_size": 0}, "sft")
