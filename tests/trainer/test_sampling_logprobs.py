"""Sampling and scoring from one definition (issue 12, points 2 and 5): the distribution the
sampler draws each token from equals the recorded log-prob and the training forward's, even
when the checkpoint's ``generation_config`` carries a repetition penalty or other logits
processors; greedy decoding records log-probs at the policy's temperature, as training scores
them; every end-of-sequence id stops generation; LoRA dropout is the update's only."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("peft")

import torch  # noqa: E402
from trainer_support import IMAGE_SIZE, OBS_SIZE, TASK  # noqa: E402

from phone_gym.envs import PhoneWorldEnv  # noqa: E402
from phone_gym.trainer.prompts import Turn  # noqa: E402
from phone_gym.trainer.sft import LoraSettings, apply_lora  # noqa: E402
from phone_gym.trainer.vlm import TrainSample, VLMPolicy, load_vlm  # noqa: E402

HISTORIES = [[], [Turn('open_app(app="Clock")')],
             [Turn("wait(seconds=1)", "bad"), Turn('press(button="home")')], []]


def checkpoint(tiny: tuple[Any, Any], folder: Path, **generation: Any) -> tuple[Any, Any]:
    """The tiny model saved with ``generation`` in its generation_config, loaded back."""
    model, processor = tiny
    model = copy.deepcopy(model)
    for key, value in generation.items():
        setattr(model.generation_config, key, value)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    loaded = load_vlm(str(folder), "float32")
    for key, value in generation.items():
        assert getattr(loaded[0].generation_config, key) == value
    return loaded


def batch() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    obs, info = PhoneWorldEnv(task=TASK, obs_size=OBS_SIZE).reset(seed=0)
    return [obs] * len(HISTORIES), [info] * len(HISTORIES)


def record_scores(policy: VLMPolicy) -> list[tuple[torch.Tensor, ...]]:
    """Keep the scores the sampler drew from (after every logits processor) of each call."""
    calls: list[tuple[torch.Tensor, ...]] = []
    generate = policy.model.generate

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("generation_config") is not None:
            kwargs["generation_config"] = copy.deepcopy(kwargs["generation_config"])
            kwargs["generation_config"].output_scores = True
        else:
            kwargs["output_scores"] = True
        result = generate(*args, **kwargs)
        calls.append(result.scores)
        return result

    policy.model.generate = spy
    return calls


@pytest.mark.parametrize("generation", [
    {"repetition_penalty": 1.05},
    {"repetition_penalty": 1.3},
    {"do_sample": True, "no_repeat_ngram_size": 2, "min_new_tokens": 6, "typical_p": 0.5,
     "top_k": 3, "top_p": 0.5, "epsilon_cutoff": 0.0009, "sequence_bias": [[[7], 2.0]]},
], ids=["repetition-1.05", "repetition-1.3", "many-processors"])
@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_sampler_recorded_and_training_logprobs_agree(tiny_vlm: Any, tmp_path: Path,
                                                      generation: dict[str, Any],
                                                      temperature: float) -> None:
    model, processor = checkpoint(tiny_vlm, tmp_path, **generation)
    policy = VLMPolicy(model, processor, image_size=IMAGE_SIZE, max_new_tokens=16,
                       temperature=temperature)
    calls = record_scores(policy)
    torch.manual_seed(0)
    gens = policy.act(*batch(), HISTORIES)
    [scores] = calls
    with torch.no_grad():
        trained, _ = policy.sequence_logprobs(
            [TrainSample(g.prompt_ids, g.gen_ids, g.images) for g in gens],
            temperature=policy.temperature)
    for row, gen in enumerate(gens):
        n = len(gen.gen_ids)
        sampler = [float(torch.log_softmax(scores[k][row].float(), -1)[tok])
                   for k, tok in enumerate(gen.gen_ids)]
        assert np.allclose(sampler, gen.logprobs, atol=1e-5, rtol=0)
        assert np.allclose(trained[row, :n].numpy(), gen.logprobs, atol=1e-5, rtol=0)
    # the checkpoint keeps its own generation settings for whoever loads it next
    for key, value in generation.items():
        assert getattr(policy.model.generation_config, key) == value


def test_greedy_logprobs_are_at_the_policy_temperature(tiny_vlm: Any) -> None:
    """Greedy decoding picks the same tokens at any temperature; the log-probs it records are
    of ``softmax(logits / T)``, which GRPO's training forward scores."""
    model, processor = tiny_vlm
    policy = VLMPolicy(copy.deepcopy(model), processor, image_size=IMAGE_SIZE,
                       max_new_tokens=16, do_sample=False, temperature=0.7)
    gens = policy.act(*batch(), HISTORIES)
    with torch.no_grad():
        trained, _ = policy.sequence_logprobs(
            [TrainSample(g.prompt_ids, g.gen_ids, g.images) for g in gens],
            temperature=policy.temperature)
    for row, gen in enumerate(gens):
        assert np.allclose(trained[row, :len(gen.gen_ids)].numpy(), gen.logprobs,
                           atol=1e-5, rtol=0)


def test_temperature_must_be_positive(tiny_vlm: Any) -> None:
    with pytest.raises(ValueError, match="temperature=0; accepted: a number > 0"):
        VLMPolicy(*tiny_vlm, do_sample=False, temperature=0)


def test_generation_stops_at_every_end_of_sequence_id(tiny_vlm: Any, tmp_path: Path) -> None:
    """Qwen instruct checkpoints end on ``<|im_end|>`` or ``<|endoftext|>``
    (generation_config.eos_token_id is a list); the tokenizer names only the first."""
    tokenizer = tiny_vlm[1].tokenizer
    im_end, endoftext = (tokenizer.convert_tokens_to_ids(t)
                         for t in ("<|im_end|>", "<|endoftext|>"))
    model, processor = checkpoint(tiny_vlm, tmp_path, eos_token_id=[im_end, endoftext])
    policy = VLMPolicy(model, processor, image_size=IMAGE_SIZE, max_new_tokens=8)
    assert policy.eos_ids == [im_end, endoftext] and policy.end_id == im_end
    # only <|endoftext|> may be sampled: it must end the completion at once
    policy.banned_ids = [i for i in range(len(tokenizer)) if i != endoftext]
    for gen in policy.act(*batch(), HISTORIES):
        assert gen.gen_ids == [endoftext] and gen.logprobs == [0.0]


def test_lora_dropout_is_the_update_forwards_only(tiny_vlm: Any) -> None:
    """Rollouts run in eval mode; the update's forward runs in train mode. With the default
    LoRA dropout (0) they agree; with dropout they do not (as in TRL unless
    ``disable_dropout``): documented in ``LoraSettings`` and ``VLMPolicy``."""
    model, processor = tiny_vlm
    for dropout, same in ((0.0, True), (0.5, False)):
        policy = VLMPolicy(copy.deepcopy(model), processor, image_size=IMAGE_SIZE,
                           max_new_tokens=16)
        apply_lora(policy, LoraSettings(r=4, alpha=8, dropout=dropout))
        with torch.no_grad():  # adapters that change the output (lora_B starts at 0)
            for name, p in policy.model.named_parameters():
                if "lora_B" in name:
                    p.normal_(0, 0.5)
        torch.manual_seed(0)
        gens = policy.act(*batch(), HISTORIES)
        policy.model.train()
        with torch.no_grad():
            trained, _ = policy.sequence_logprobs(
                [TrainSample(g.prompt_ids, g.gen_ids, g.images) for g in gens],
                temperature=policy.temperature)
        agree = all(np.allclose(trained[row, :len(g.gen_ids)].numpy(), g.logprobs, atol=1e-5)
                    for row, g in enumerate(gens))
        assert agree == same, dropout
