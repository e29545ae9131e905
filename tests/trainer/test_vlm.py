"""The tiny VLM, its hand-built processor and ``VLMPolicy``: prompts, batched generation
with left padding, log-probs that training reproduces, save and load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from trainer_support import IMAGE_SIZE, OBS_SIZE, make_policy

from phone_gym.actions import ACTION_TYPES
from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer.prompts import Turn, build_messages, system_prompt
from phone_gym.trainer.tiny import PatchImageProcessor
from phone_gym.trainer.vlm import TrainSample, load_vlm


def observation(seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    env = PhoneWorldEnv(task="ClockDisableAlarm", obs_size=OBS_SIZE)
    return env.reset(seed=seed)


def test_system_prompt_comes_from_the_action_definitions() -> None:
    text = system_prompt(["Clock", "Notes"])
    for name in ACTION_TYPES:
        assert f"- {name}(" in text
    assert "[0, 1000]" in text and "top-left" in text and "Apps: Clock, Notes." in text


def test_messages_hold_history_feedback_and_images() -> None:
    shots = [np.zeros((4, 4, 3), np.uint8) + k for k in range(4)]
    history = [Turn(f"wait(seconds={k})", None, shots[k]) for k in range(3)]
    history[-1].error = "no such app"
    messages, images = build_messages("Do it.", history, shots[3], system="S",
                                      max_history=2, history_images=1)
    assert messages[0] == {"role": "system", "content": "S"}
    text = "".join(p.get("text", "") for p in messages[1]["content"])
    assert "Task: Do it." in text and "1. wait" not in text
    assert "2. wait(seconds=1)\n3. wait(seconds=2)" in text
    assert "Your last action failed: no such app" in text
    assert [im[0, 0, 0] for im in images] == [2, 3]


def test_patch_layout_matches_the_transformers_qwen_processor() -> None:
    mod = pytest.importorskip("transformers.models.qwen2_vl.image_processing_pil_qwen2_vl")
    image = np.random.default_rng(0).integers(0, 256, (112, 56, 3), dtype=np.uint8)
    ours = PatchImageProcessor((56, 112), patch_size=14, merge_size=2, temporal_patch_size=2)
    theirs = mod.Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=56 * 112)
    a = ours([image])
    b = theirs(images=[image], return_tensors="pt")
    assert a["image_grid_thw"].tolist() == b["image_grid_thw"].tolist() == [[1, 8, 4]]
    assert torch.allclose(a["pixel_values"], b["pixel_values"].float(), atol=1e-4)


def test_prompt_image_tokens_and_generation(fresh_policy: Any) -> None:
    obs, info = observation()
    ids, images = fresh_policy.prompt_ids(obs, info, [])
    per_image = fresh_policy.processor.image_processor.num_tokens()
    assert ids.count(fresh_policy.image_token_id) == per_image == 32
    assert len(images) == 1 and images[0].shape == (IMAGE_SIZE[1], IMAGE_SIZE[0], 3)
    [gen] = fresh_policy.act([obs], [info], [[]])
    assert gen.prompt_ids == ids
    assert 1 <= len(gen.gen_ids) <= fresh_policy.max_new_tokens
    assert len(gen.logprobs) == len(gen.gen_ids) and max(gen.logprobs) <= 0.0
    assert gen.text == fresh_policy.tokenizer.decode(gen.gen_ids,
                                                     skip_special_tokens=True).strip()


def test_left_padded_generation_logprobs_match_the_training_forward(
        fresh_policy: Any) -> None:
    torch.manual_seed(0)
    obs, info = observation()
    histories = [[], [Turn('open_app(app="Clock")')],
                 [Turn("wait(seconds=1)", "bad"), Turn('press(button="home")')], []]
    gens = fresh_policy.act([obs] * 4, [info] * 4, histories)
    assert len({len(g.prompt_ids) for g in gens}) == 3  # rows were padded
    samples = [TrainSample(g.prompt_ids, g.gen_ids, g.images) for g in gens]
    with torch.no_grad():
        logp, mask = fresh_policy.sequence_logprobs(samples)
    for row, g in enumerate(gens):
        n = len(g.gen_ids)
        assert mask[row].sum() == n
        assert np.allclose(logp[row, :n].numpy(), g.logprobs, atol=1e-4)


def test_vision_tokens_are_never_sampled_nor_scored(fresh_policy: Any) -> None:
    """A vision token in a completion would claim an image the training pass lacks: the
    sampler may not pick one, and the recorded and training log-probs exclude them too."""
    banned = fresh_policy.banned_ids
    assert fresh_policy.image_token_id in banned and len(banned) >= 3
    logits = torch.zeros(2, len(fresh_policy.tokenizer))
    masked = fresh_policy._masked(logits)
    assert torch.isinf(masked[:, banned]).all() and not torch.isinf(masked[:, 0]).any()
    torch.manual_seed(3)
    obs, info = observation()
    for gen in fresh_policy.act([obs] * 8, [info] * 8, [[]] * 8):
        assert not set(gen.gen_ids) & set(banned)


def test_save_and_load_give_the_same_policy(tiny_vlm: Any, tmp_path: Path) -> None:
    policy = make_policy(tiny_vlm, do_sample=False)
    policy.save(tmp_path)
    model, processor = load_vlm(str(tmp_path))
    again = make_policy((model, processor), do_sample=False)
    obs, info = observation(1)
    a = policy.act([obs], [info], [[]])[0]
    b = again.act([obs], [info], [[]])[0]
    assert a.prompt_ids == b.prompt_ids and a.gen_ids == b.gen_ids


def test_history_screenshots_go_into_the_prompt(tiny_vlm: Any) -> None:
    policy = make_policy(tiny_vlm, history_images=1)
    obs, info = observation()
    earlier = Turn('open_app(app="Clock")', None, obs["screenshot"])
    [gen] = policy.act([obs], [info], [[earlier]])
    assert len(gen.images) == 2
    assert gen.prompt_ids.count(policy.image_token_id) == 2 * 32
    with torch.no_grad():
        logp, _ = policy.sequence_logprobs([TrainSample(gen.prompt_ids, gen.gen_ids,
                                                        gen.images)])
    assert np.allclose(logp[0].numpy(), gen.logprobs, atol=1e-4)


def test_package_exports_resolve() -> None:
    import phone_gym.trainer as trainer

    for name in trainer.__all__:
        assert getattr(trainer, name) is not None
    with pytest.raises(AttributeError):
        trainer.not_a_name  # noqa: B018
