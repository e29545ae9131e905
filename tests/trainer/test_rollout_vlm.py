"""Rollouts of the tiny VLM over vectorized PhoneWorld envs: complete trajectory records
(token-in/token-out), groups, and parse errors fed back to the model."""

from __future__ import annotations

from typing import Any

from trainer_support import OBS_SIZE, TASK, clock_envs, make_policy

import phone_gym
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory.records import RECORD_KEYS


def test_vlm_rollouts_on_4_vector_envs_give_complete_records(fresh_policy: Any) -> None:
    vec = phone_gym.make_vec(4, f"PhoneWorld-{TASK}-v0", vectorization_mode="async",
                             obs_size=OBS_SIZE, max_steps=3)
    episodes = Collector(vec, fresh_policy, format_penalty=0.1, seed=0).collect(
        8, group_size=2)
    vec.close()
    assert len(episodes) == 8
    per_image = fresh_policy.processor.image_processor.num_tokens()
    tok = fresh_policy.tokenizer
    for ep in episodes:
        assert 1 <= len(ep) <= 3 and ep.steps[-1].done
        assert ep.steps[-1].verdict and ep.steps[-1].success is not None
        for s in ep.steps:
            data = s.to_json()
            assert tuple(data) == RECORD_KEYS and all(k in data for k in RECORD_KEYS)
            assert s.task_id == TASK and s.seed is not None and s.instruction
            assert s.prompt_ids and s.gen_ids and len(s.logprobs) == len(s.gen_ids)
            assert s.prompt_ids.count(fresh_policy.image_token_id) == per_image
            assert s.text == tok.decode(s.gen_ids, skip_special_tokens=True).strip()
            assert len(s.images) == len(s.image_refs) == 1
            assert s.image_refs == [s.screenshot]
            assert s.penalty == (-0.1 if s.action_error else 0.0)
            if not s.valid:  # unparseable text: a no-op step that reports the error
                assert s.action is None and s.action_error
    seeds = {ep.group_id: set() for ep in episodes}
    for ep in episodes:
        seeds[ep.group_id].add(ep.steps[0].seed)
    assert len(seeds) == 4 and all(len(v) == 1 for v in seeds.values())


def test_parse_errors_reach_the_next_prompt(fresh_policy: Any) -> None:
    vec = phone_gym.make_vec(4, f"PhoneWorld-{TASK}-v0", vectorization_mode="sync",
                             obs_size=OBS_SIZE, max_steps=2)
    episodes = Collector(vec, fresh_policy, seed=1).collect(4)
    failed = [ep for ep in episodes if len(ep) == 2 and ep.steps[0].action_error]
    assert failed, "the untrained model should write something unparseable"
    for ep in failed:
        first, second = ep.steps
        assert second.feedback == first.action_error
        prompt = fresh_policy.tokenizer.decode(second.prompt_ids)
        assert "Your last action failed" in prompt


def test_history_images_are_referenced_by_frame(tiny_vlm: Any) -> None:
    policy = make_policy(tiny_vlm, history_images=1)
    [ep] = Collector(clock_envs(1, max_steps=2), policy).collect(1)
    first, second = ep.steps  # the untrained model writes no finish: 2 steps
    assert first.image_refs == [first.screenshot] and len(first.images) == 1
    assert second.image_refs == [first.screenshot, second.screenshot]
    assert len(second.images) == 2
