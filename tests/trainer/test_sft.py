"""SFT: the loss is on the model's own tokens only; a few hundred steps on oracle
trajectories of one template make greedy decoding solve it through the env's verifier;
LoRA trains only the adapters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from trainer_support import SFT_SEEDS, SFTRun, clock_envs, make_policy

from phone_gym.trainer.mixing import EpisodeSpec
from phone_gym.trainer.rollout import Collector
from phone_gym.trainer.sft import LoraSettings, apply_lora, sft_samples, train_sft
from phone_gym.trainer.vlm import load_vlm


@pytest.mark.slow  # trains a model first (the sft_run fixture)
def test_sft_solves_the_template_with_greedy_decoding(sft_run: SFTRun) -> None:
    assert sft_run.history[-1]["loss"] < 0.1 < sft_run.history[0]["loss"]
    policy = sft_run.policy
    assert not policy.do_sample
    specs = [EpisodeSpec("env", s, i) for i, s in enumerate(SFT_SEEDS)]
    episodes = Collector(clock_envs(4), policy).collect(specs=specs)
    assert len(episodes) == len(SFT_SEEDS)
    # the oracle's route on each seed (the open_app action or the home icon): what it learnt
    shown = {d.steps[0].seed: [s.action.split("(")[0] for s in d.steps if s.action]
             for d in sft_run.episodes}
    for ep in episodes:  # prompt -> model -> parser -> env -> verifier
        assert ep.success and ep.total_reward == 1.0, [s.text for s in ep.steps]
        assert [s.action.split("(")[0] for s in ep.steps] == shown[ep.steps[0].seed]


@pytest.mark.slow  # trains a model first (the sft_run fixture)
def test_samples_train_on_completion_tokens_only(sft_run: SFTRun) -> None:
    policy = sft_run.policy
    samples = sft_samples(sft_run.episodes[:2], policy)
    steps = [s for ep in sft_run.episodes[:2] for s in ep.steps]
    assert len(samples) == len(steps)
    for sample, step in zip(samples, steps, strict=True):
        assert sample.completion_ids[-1] == policy.end_id
        assert policy.tokenizer.decode(sample.completion_ids[:-1]) == step.text
        assert len(sample.images) == 1
    with torch.no_grad():
        _, mask = policy.sequence_logprobs(samples)
    assert mask.sum(-1).tolist() == [len(s.completion_ids) for s in samples]


def test_rollout_tokens_are_used_as_they_are(fresh_policy: Any) -> None:
    """Token-in/token-out: a model rollout trains on its recorded ids, not a re-encoding."""
    envs = clock_envs(2, max_steps=1)
    episodes = Collector(envs, fresh_policy).collect(2)
    step = episodes[0].steps[0]
    step.gen_ids = step.gen_ids + [7]  # anything recorded is kept verbatim
    samples = sft_samples(episodes, fresh_policy, successful_only=False)
    assert samples[0].prompt_ids == step.prompt_ids
    assert samples[0].completion_ids == step.gen_ids


@pytest.mark.slow  # trains a model first (the sft_run fixture)
def test_lora_trains_only_the_adapters(fresh_policy: Any, sft_run: SFTRun,
                                       tmp_path: Path) -> None:
    base = {k: v.clone() for k, v in fresh_policy.model.state_dict().items()}
    apply_lora(fresh_policy, LoraSettings(r=4, alpha=8))
    trainable = [n for n, p in fresh_policy.model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    samples = sft_samples(sft_run.episodes[:2], fresh_policy)
    history = train_sft(fresh_policy, samples, steps=3, batch_size=4, lr=1e-2)
    assert len(history) == 3
    merged = fresh_policy.model.get_base_model().state_dict()
    changed = [k for k, v in merged.items()
               if "lora_" in k and not torch.equal(v, base.get(k, torch.zeros(0)))]
    frozen = [k for k in base if k in merged and not torch.equal(merged[k], base[k])]
    assert changed and frozen == []
    envs = clock_envs(1, max_steps=1)
    assert Collector(envs, fresh_policy).collect(1)[0].steps[0].gen_ids
    fresh_policy.save(tmp_path / "adapter")
    assert (tmp_path / "adapter" / "adapter_config.json").exists()
    obs = {"instruction": "Open the clock.", "screenshot": np.zeros((300, 135, 3), np.uint8)}
    before = fresh_policy.act([obs], [{}], [[]])[0]
    fresh_policy.save(tmp_path / "merged", merged=True)
    model, processor = load_vlm(str(tmp_path / "merged"))
    assert not any("lora_" in name for name, _ in model.named_parameters())
    after = make_policy((model, processor), do_sample=False).act([obs], [{}], [[]])[0]
    fresh_policy.do_sample = False
    assert fresh_policy.act([obs], [{}], [[]])[0].gen_ids == after.gen_ids
    assert before.prompt_ids == after.prompt_ids


def test_steps_without_frames_are_refused(fresh_policy: Any) -> None:
    episodes = Collector(clock_envs(1, max_steps=1), fresh_policy, keep_frames=False).collect(1)
    for step in episodes[0].steps:
        step.prompt_ids = None
    with pytest.raises(ValueError, match="keep_frames"):
        sft_samples(episodes, fresh_policy, successful_only=False)
