"""History frames reach every prompt the config asks for (issue 12, point 4).

With ``history_images = 2`` a prompt at step ``t`` holds ``min(t, 2) + 1`` images (the
screenshots of the last two earlier steps, then the current one), in SFT samples, in GRPO
rollouts and the update's forward pass (the same prompt ids and images, as TRL's
``GRPOTrainer`` passes a sample's own ``images`` both to generation and to
``_get_per_token_logps_and_entropies``), and in evaluation, even when the collector keeps
no frames for export (``keep_frames=False``, which GRPO runs and evaluation pass).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from trainer_support import OBS_SIZE, TASK, clock_envs, make_policy, rewarded_collector

from phone_gym.trainer.mixing import EpisodeSpec
from phone_gym.trainer.policies import Generation, OraclePolicy
from phone_gym.trainer.prompts import Turn, build_messages
from phone_gym.trainer.rollout import Collector

HISTORY = 2
STEPS = 4  #: episodes of the untrained model run to max_steps: steps 0, 1, 2, 3


def expected(step: int) -> int:
    return min(step, HISTORY) + 1


def spy_act(policy: Any) -> list[tuple[int, Generation]]:
    """Record (step, generation) of every prompt ``policy`` answers from now on."""
    seen: list[tuple[int, Generation]] = []
    act = policy.act

    def wrapped(observations: Any, infos: Any, histories: Any) -> Any:
        gens = act(observations, infos, histories)
        seen.extend((len(h), g) for h, g in zip(histories, gens, strict=True))
        return gens

    policy.act = wrapped
    return seen


def check_prompt(policy: Any, step: int, prompt_ids: Sequence[int], images: Sequence[Any]
                 ) -> None:
    per_image = policy.processor.image_processor.num_tokens()
    assert len(images) == expected(step), (step, len(images))
    assert list(prompt_ids).count(policy.image_token_id) == expected(step) * per_image


# --- prompts and the collector (no model) ----------------------------------------------------
def test_prompts_show_the_last_history_images_screens() -> None:
    shots = [np.full((4, 4, 3), k, np.uint8) for k in range(6)]
    for history_images in (1, 2, 3):
        for step in range(6):
            turns = [Turn(f"wait(seconds={k})", None, shots[k]) for k in range(step)]
            _, images = build_messages("Do it.", turns, shots[step], max_history=3,
                                       history_images=history_images)
            shown = min(step, history_images)
            assert [int(im[0, 0, 0]) for im in images] == list(range(step - shown, step + 1))


def test_more_history_images_than_listed_actions_is_refused() -> None:
    with pytest.raises(ValueError, match="history_images=2 > max_history=1"):
        build_messages("Do it.", [], None, max_history=1, history_images=2)
    with pytest.raises(ValueError, match="history_images"):
        build_messages("Do it.", [], None, history_images=-1)


class HistoryProbe(OraclePolicy):
    """The oracle's actions, recording which earlier turns carry a screenshot."""

    def __init__(self, history_images: int, max_history: int = 8) -> None:
        self.history_images = history_images
        self.max_history = max_history
        self.shown: list[list[bool]] = []

    def act(self, observations: Any, infos: Any, histories: Any) -> list[str]:
        self.shown += [[t.screenshot is not None for t in h] for h in histories]
        return ["wait(seconds=1)" for _ in observations]


@pytest.mark.parametrize("keep_frames", [False, True])
def test_collector_keeps_the_last_history_frames(keep_frames: bool) -> None:
    policy = HistoryProbe(HISTORY)
    [episode] = Collector(clock_envs(1, max_steps=5), policy, keep_frames=keep_frames).collect(1)
    assert len(episode) == 5
    for step, shown in enumerate(policy.shown):
        assert len(shown) == step
        if keep_frames:  # every frame is in the records anyway
            assert all(shown)
        else:  # only the last HISTORY earlier screenshots are held
            assert shown == [k >= step - HISTORY for k in range(step)]
    assert all((s.frame is not None) == keep_frames for s in episode.steps)


def test_fewer_history_frames_than_the_policy_shows_is_refused() -> None:
    with pytest.raises(ValueError, match="history_frames=1 < the policy's history_images=2"):
        Collector(clock_envs(1), HistoryProbe(2), history_frames=1)
    with pytest.raises(ValueError, match="history_images=3 > max_history=2"):
        Collector(clock_envs(1), HistoryProbe(3, max_history=2))


# --- the three paths, on the tiny VLM ---------------------------------------------------------
def test_sft_samples_carry_history_images(tiny_vlm: Any) -> None:
    from phone_gym.trainer.sft import sft_samples

    policy = make_policy(tiny_vlm, do_sample=False, history_images=HISTORY)
    # recorded steps (the oracle's, frames kept): prompts rebuilt from the frames
    oracle = Collector(clock_envs(2), OraclePolicy()).collect(
        specs=[EpisodeSpec("env", s, s) for s in range(2)])
    steps = [s.step for e in oracle for s in e.steps]
    assert max(steps) >= HISTORY
    for step, sample in zip(steps, sft_samples(oracle, policy), strict=True):
        check_prompt(policy, step, sample.prompt_ids, sample.images)
    # a model's own steps (tokens) collected without frames, as GRPO and evaluation do
    rollouts = Collector(clock_envs(2, max_steps=STEPS), policy, keep_frames=False).collect(2)
    steps = [s.step for e in rollouts for s in e.steps]
    assert set(steps) == set(range(STEPS))
    samples = sft_samples(rollouts, policy, successful_only=False)
    for step, sample in zip(steps, samples, strict=True):
        check_prompt(policy, step, sample.prompt_ids, sample.images)


def test_token_steps_without_their_prompt_images_are_refused(tiny_vlm: Any) -> None:
    from phone_gym.trainer.sft import sft_samples

    policy = make_policy(tiny_vlm, do_sample=False, history_images=HISTORY)
    episodes = Collector(clock_envs(1, max_steps=2), policy).collect(1)
    episodes[0].steps[1].images = []  # as load_episodes gives them back
    with pytest.raises(ValueError, match="prompt tokens for 2 images but 0 in memory"):
        sft_samples(episodes, policy, successful_only=False)


def test_grpo_rollout_and_update_prompts_carry_history_images(tiny_vlm: Any) -> None:
    from phone_gym.trainer.grpo import GRPOSettings, train_grpo

    Rewarded = rewarded_collector()

    policy = make_policy(tiny_vlm, history_images=HISTORY)
    rollout = spy_act(policy)
    scored: list[Any] = []
    score = policy.sequence_logprobs

    def spy_score(samples: Any, *args: Any, **kwargs: Any) -> Any:
        scored.extend(samples)
        return score(samples, *args, **kwargs)

    policy.sequence_logprobs = spy_score
    collector = Rewarded(clock_envs(2, max_steps=STEPS), policy, keep_frames=False)
    history = train_grpo(policy, collector, GRPOSettings(iterations=1, groups_per_iter=1,
                                                         group_size=2, minibatch_size=4))
    assert history[0]["samples"] == len(rollout) > 0
    assert {step for step, _ in rollout} == set(range(STEPS))
    for step, gen in rollout:
        check_prompt(policy, step, gen.prompt_ids or [], gen.images)
    # the update's forward pass sees each rollout prompt exactly: same ids, same images
    by_prompt = {tuple(gen.prompt_ids or []): (step, gen) for step, gen in rollout}
    assert scored and {tuple(s.prompt_ids) for s in scored} == set(by_prompt)
    for sample in scored:
        step, gen = by_prompt[tuple(sample.prompt_ids)]
        check_prompt(policy, step, sample.prompt_ids, sample.images)
        assert all(np.array_equal(a, b) for a, b in zip(sample.images, gen.images, strict=True))


def test_evaluation_prompts_carry_history_images(tiny_vlm: Any) -> None:
    from phone_gym.trainer.runs import evaluate

    policy = make_policy(tiny_vlm, do_sample=False, history_images=HISTORY)
    seen = spy_act(policy)
    evaluate(policy, "PhoneWorld-v0", {"task": TASK, "obs_size": OBS_SIZE, "max_steps": STEPS},
             2, seeds=[0, 1], num_envs=2)
    assert {step for step, _ in seen} == set(range(STEPS))
    for step, gen in seen:
        check_prompt(policy, step, gen.prompt_ids or [], gen.images)
