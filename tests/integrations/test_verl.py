"""verl's agent loop on PhoneWorld, against a fake generation server with scripted replies.

The loop is built the way verl's ``AgentLoopWorker._run_agent_loop`` builds it (hydra
``instantiate`` of ``examples/verl/agent_loop.yaml``'s entry, with verl's own arguments), with a
tiny Qwen-style processor built offline (``phone_gym.trainer.tiny``). Its output is checked
against an independent re-render of the whole conversation with the processor's chat
template. Runs in the verl venv (``.ci/run``'s verl step); elsewhere the verl tests skip.
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

TASK, SEED = "SettingsBluetoothOn", 0
IMAGE_SIZE = (270, 600)
YAML = Path(__file__).resolve().parents[2] / "examples" / "verl" / "agent_loop.yaml"
HAVE_VERL = importlib.util.find_spec("verl") is not None
needs_verl = pytest.mark.skipif(
    not HAVE_VERL, reason="verl is not installed: it runs in its own venv, pip install "
    "'phone-gym[verl]' (see .ci/run's verl step)")


# --- the parquet dataset (pyarrow only) -------------------------------------------------------
def test_rows_are_templates_times_seeds() -> None:
    from phone_gym.integrations.verl_data import build_rows

    rows = build_rows(["SettingsBluetoothOn", "ClockAddAlarm"], seeds=[3, 4])
    assert [(r["extra_info"]["task"], r["extra_info"]["seed"]) for r in rows] == [
        ("SettingsBluetoothOn", 3), ("SettingsBluetoothOn", 4), ("ClockAddAlarm", 3),
        ("ClockAddAlarm", 4)]
    assert [r["extra_info"]["index"] for r in rows] == [0, 1, 2, 3]
    assert {r["agent_name"] for r in rows} == {"phone_gym"}
    with pytest.raises(ValueError, match="accepted"):
        build_rows("ClockAddAlarm", seeds=[])
    with pytest.raises(ValueError, match="accepted"):
        build_rows("ClockAddAlarm", seeds=2, split="validation")


def test_split_keeps_train_templates_only() -> None:
    from phone_gym.integrations.verl_data import build_rows
    from phone_gym.suites import pwbench

    try:
        bench = pwbench.load()
    except FileNotFoundError:
        pytest.skip("PhoneWorld-Bench's split file is not in this tree yet")
    tasks = {r["extra_info"]["task"] for r in build_rows(None, seeds=1, split="train")}
    assert tasks and all(bench.split_of(t) == "train" for t in tasks)
    assert len(tasks) < len({r["extra_info"]["task"] for r in build_rows(None, seeds=1)})


def test_parquet_reads_back(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pip install 'phone-gym[verl]'")
    from phone_gym.integrations.verl_data import build_parquet, main

    out = build_parquet(tmp_path / "d" / "train.parquet", "ClockAddAlarm", seeds=2)
    rows = pq.read_table(out).to_pylist()
    assert [(r["extra_info"]["task"], r["extra_info"]["seed"]) for r in rows] == [
        ("ClockAddAlarm", 0), ("ClockAddAlarm", 1)]
    assert rows[0]["prompt"][0]["role"] == "user"
    main([str(tmp_path / "cli.parquet"), "--tasks", "ClockAddAlarm", "--seeds", "3",
          "--first-seed", "5"])
    assert [r["extra_info"]["seed"] for r in pq.read_table(tmp_path / "cli.parquet")
            .to_pylist()] == [5, 6, 7]


@needs_verl
def test_verl_dataset_reads_the_parquet(tmp_path: Path) -> None:
    """verl's own ``RLHFDataset`` reads the rows and hands the agent loop what it needs."""
    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from phone_gym.integrations.verl_data import build_parquet

    path = build_parquet(tmp_path / "train.parquet", ["ClockAddAlarm", "NotesCreateNote"], 2)
    tokenizer, processor = tiny_processor()
    config = OmegaConf.create({"max_prompt_length": 256, "filter_overlong_prompts": False,
                               "cache_dir": str(tmp_path / "cache")})
    ds = RLHFDataset(str(path), tokenizer, config, processor)
    assert len(ds) == 4
    item = ds[3]
    assert item["agent_name"] == "phone_gym"
    assert (item["extra_info"]["task"], item["extra_info"]["seed"]) == ("NotesCreateNote", 1)
    assert item["raw_prompt"][0]["role"] == "user"


# --- the agent loop ------------------------------------------------------------------------
def tiny_processor() -> tuple[Any, Any]:
    from phone_gym.trainer.tiny import (
        CHAT_TEMPLATE,
        PatchImageProcessor,
        TinyVLProcessor,
        build_tiny_tokenizer,
    )

    tokenizer = build_tiny_tokenizer()
    processor = TinyVLProcessor(PatchImageProcessor((64, 128)), tokenizer,
                                chat_template=CHAT_TEMPLATE)
    return tokenizer, processor


class FakeServerManager:
    """Mirrors verl 0.9.1's ``LLMServerClient.generate`` (``verl/workers/rollout/llm_server.py``):
    ``await generate(request_id, *, prompt_ids, sampling_params, image_data=None,
    video_data=None, audio_data=None, mm_processor_kwargs=None, **kwargs)`` returning a
    ``TokenOutput`` (``verl/workers/rollout/replica.py``). It answers with scripted replies:
    their token ids and ``<|im_end|>``, where a Qwen server stops."""

    def __init__(self, tokenizer: Any, replies: list[str]) -> None:
        self.tokenizer = tokenizer
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []
        self.generated: list[list[int]] = []

    async def generate(self, request_id: str, *, prompt_ids: list[int],
                       sampling_params: dict[str, Any], image_data: Any = None,
                       video_data: Any = None, audio_data: Any = None,
                       mm_processor_kwargs: Any = None, **kwargs: Any) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        self.calls.append({"request_id": request_id, "prompt_ids": list(prompt_ids),
                           "images": list(image_data or [])})
        text = self.replies[len(self.generated)]
        ids = self.tokenizer.encode(text, add_special_tokens=False)
        ids.append(self.tokenizer.convert_tokens_to_ids("<|im_end|>"))
        self.generated.append(ids)
        return TokenOutput(token_ids=ids, log_probs=[-0.5] * len(ids), stop_reason="completed")


def screen() -> tuple[int, int]:
    from phone_gym.actions.formats import get_format

    return get_format("qwen25vl").model_screen(*IMAGE_SIZE)


def oracle_actions(task: str, seed: int) -> list[Any]:
    env: Any = gym.make("PhoneWorld-v0")
    env.reset(seed=seed, options={"task": task})
    actions = []
    for _ in range(30):
        action = env.unwrapped.oracle_action()
        actions.append(action)
        *_, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return actions
    raise AssertionError("the oracle did not finish")


def replay(task: str, seed: int, replies: list[str]) -> tuple[str, list[Image.Image],
                                                               list[str | None], float]:
    """What the episode should show, from a plain env: the instruction, the screenshots
    (resized as the loop resizes them), the error after each reply, the verifier's score."""
    from phone_gym.actions import ActionError
    from phone_gym.actions.formats import get_format

    fmt = get_format("qwen25vl")
    env: Any = gym.make("PhoneWorld-v0")
    obs, _ = env.reset(seed=seed, options={"task": task})

    def shot(o: dict[str, Any]) -> Image.Image:
        return Image.fromarray(o["screenshot"]).convert("RGB").resize(
            IMAGE_SIZE, Image.Resampling.BILINEAR)

    instruction, images, errors = obs["instruction"], [shot(obs)], []
    for text in replies:
        try:
            action = fmt.parse(text, screen())
        except ActionError as err:
            errors.append(str(err))
            images.append(images[-1])
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return instruction, images, errors, float(reward)
        errors.append(info.get("action_error"))
        images.append(shot(obs))
    return instruction, images, errors, float(env.unwrapped.end_episode()[0])


def make_loop(server: Any, tokenizer: Any, processor: Any, response_length: int = 60000,
              **overrides: Any) -> Any:
    """The loop as verl's ``AgentLoopWorker._run_agent_loop`` builds it."""
    import hydra
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset

    entries = OmegaConf.load(YAML)
    (entry,) = [e for e in entries if e.name == "phone_gym"]
    entry = OmegaConf.merge(entry, {"image_size": list(IMAGE_SIZE), **overrides})
    config = OmegaConf.create({
        "actor_rollout_ref": {"rollout": {"prompt_length": 60000,
                                          "response_length": response_length}},
        "data": {}})
    return hydra.utils.instantiate(
        config=entry, trainer_config=DictConfigWrap(config=config), server_manager=server,
        tokenizer=tokenizer, processor=processor, hf_model_type="qwen2_5_vl",
        dataset_cls=RLHFDataset, data_config=DictConfigWrap(config.data),
        tools=ToolListWrap([]))


def run_episode(replies: list[str], task: str = TASK, seed: int = SEED,
                **overrides: Any) -> tuple[Any, FakeServerManager, Any, Any]:
    tokenizer, processor = tiny_processor()
    server = FakeServerManager(tokenizer, replies)

    async def go() -> Any:  # built inside the running loop, as verl's worker does
        loop = make_loop(server, tokenizer, processor, **overrides)
        return await loop.run({"temperature": 1.0}, raw_prompt=[{"role": "user", "content": "x"}],
                              extra_info={"task": task, "seed": seed, "index": 0},
                              agent_name="phone_gym")

    return asyncio.run(go()), server, tokenizer, processor


def conversation(instruction: str, images: list[Image.Image], replies: list[str],
                 errors: list[str | None]) -> list[dict[str, Any]]:
    """The whole conversation, written independently of the loop's message building."""
    from phone_gym.actions.formats import get_format
    from phone_gym.integrations.verl import ERROR_NOTE, SCREEN_NOTE, TASK_NOTE

    messages: list[dict[str, Any]] = [
        {"role": "system", "content": get_format("qwen25vl").system_prompt(instruction, screen())},
        {"role": "user", "content": [{"type": "image", "image": images[0]},
                                     {"type": "text", "text": TASK_NOTE.format(
                                         instruction=instruction)}]}]
    for k, reply in enumerate(replies):
        messages.append({"role": "assistant", "content": reply})
        if k + 1 < len(images):
            note = ERROR_NOTE.format(error=errors[k]) if errors[k] else SCREEN_NOTE
            messages.append({"role": "user", "content": [
                {"type": "image", "image": images[k + 1]}, {"type": "text", "text": note}]})
    return messages


def render(processor: Any, messages: list[dict[str, Any]], generation_prompt: bool) -> list[int]:
    """The token ids of ``messages`` through the processor's chat template and the processor
    (image pads expanded), as verl's trainer re-processes a sample."""
    images = [p["image"] for m in messages if isinstance(m["content"], list)
              for p in m["content"] if p["type"] == "image"]
    text = processor.apply_chat_template(messages, tokenize=False,
                                         add_generation_prompt=generation_prompt)
    out = processor(text=[text], images=images or None, return_tensors="pt")
    return [int(i) for i in out["input_ids"][0]]


def check_episode(replies: list[str], expected_reward: float) -> None:
    output, server, tokenizer, processor = run_episode(replies)
    instruction, images, errors, reward = replay(TASK, SEED, replies)
    assert reward == expected_reward  # the verifier's score, from a plain env
    assert output.reward_score == reward
    assert len(server.generated) == len(replies)

    # images: one per observation, in order, as the env showed them
    shown = output.multi_modal_data["images"]
    assert len(shown) == len(images) == len(replies)
    for got, want in zip(shown, images, strict=True):
        assert got.size == IMAGE_SIZE
        assert np.array_equal(np.asarray(got), np.asarray(want))

    # ids: the re-render of the whole conversation (it adds the newline after the last
    # <|im_end|>, where generation stopped)
    messages = conversation(instruction, images, replies, errors)
    full = render(processor, messages, generation_prompt=False)
    newline = tokenizer.encode("\n", add_special_tokens=False)
    ids = output.prompt_ids + output.response_ids
    assert ids == full[:-1] and full[-1:] == newline
    assert output.prompt_ids == render(processor, messages[:2], generation_prompt=True)

    # the loss mask: 1 exactly on the generated tokens; each request saw the conversation so
    # far and every screenshot shown so far
    expected_mask = [0] * len(output.response_ids)
    for k, generated in enumerate(server.generated):
        before = render(processor, messages[:2 + 2 * k], generation_prompt=True)
        assert server.calls[k]["prompt_ids"] == before
        assert len(server.calls[k]["images"]) == k + 1
        start = len(before) - len(output.prompt_ids)
        assert output.response_ids[start:start + len(generated)] == generated
        expected_mask[start:start + len(generated)] = [1] * len(generated)
    assert output.response_mask == expected_mask
    assert sum(output.response_mask) == sum(map(len, server.generated))
    assert len({c["request_id"] for c in server.calls}) == 1  # one sticky session
    assert output.response_logprobs is not None
    assert [lp for lp, m in zip(output.response_logprobs, output.response_mask, strict=True)
            if m] == [-0.5] * sum(output.response_mask)
    assert output.extra_fields["phone_gym"]["task"] == TASK
    assert output.num_turns == len(replies) + len(images)  # ToolAgentLoop's count
    assert output.metrics.generate_sequences > 0


@needs_verl
def test_oracle_episode_scores_one() -> None:
    from phone_gym.actions.formats import get_format

    fmt = get_format("qwen25vl")
    replies = [fmt.render(a, screen()) for a in oracle_actions(TASK, SEED)]
    check_episode(replies, expected_reward=1.0)


@needs_verl
def test_wrong_episode_scores_zero_and_shows_errors() -> None:
    from phone_gym.actions import PhoneAction
    from phone_gym.actions.formats import get_format

    fmt = get_format("qwen25vl")
    replies = [
        "I am not sure what to do.",  # no action: the phone stays, the model reads why
        fmt.render(PhoneAction(type="press", button="home"), screen()),
        fmt.render(PhoneAction(type="finish", status="success"), screen()),
    ]
    check_episode(replies, expected_reward=0.0)


@needs_verl
def test_unfinished_episode_is_scored_on_the_final_state() -> None:
    from phone_gym.actions.formats import get_format

    fmt = get_format("qwen25vl")
    replies = [fmt.render(a, screen()) for a in oracle_actions(TASK, SEED)][:-1]
    output, server, *_ = run_episode(replies, max_steps=len(replies))
    assert len(server.generated) == len(replies)
    # no observation after the last turn: the model would never answer it
    assert len(output.multi_modal_data["images"]) == len(replies)
    assert output.num_turns == 2 * len(replies)
    assert output.response_mask[-1] == 1
    assert output.reward_score == replay(TASK, SEED, replies)[3] == 1.0
    assert output.extra_fields["phone_gym"]["ended"] is False


@needs_verl
def test_response_length_caps_the_episode() -> None:
    from phone_gym.actions.formats import get_format

    fmt = get_format("qwen25vl")
    replies = [fmt.render(a, screen()) for a in oracle_actions(TASK, SEED)]
    output, server, *_ = run_episode(replies, response_length=80)
    assert len(server.generated) < len(replies)
    assert len(output.response_ids) == len(output.response_mask) <= 80
    assert output.reward_score == 0.0  # stopped before the task was done


@needs_verl
def test_registered_and_bad_arguments_raise() -> None:
    from hydra.errors import InstantiationException
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry

    import phone_gym.integrations.verl as mod

    assert _agent_loop_registry["phone_gym"] == {
        "_target_": "phone_gym.integrations.verl.PhoneGymAgentLoop"}
    tokenizer, processor = tiny_processor()
    server = FakeServerManager(tokenizer, [])

    async def build(**overrides: Any) -> Any:
        return make_loop(server, tokenizer, processor, **overrides)

    def value_error(**overrides: Any) -> str:
        """The ValueError the constructor raised (hydra wraps it, ``raise ... from``)."""
        with pytest.raises(InstantiationException) as info:
            asyncio.run(build(**overrides))
        assert isinstance(info.value.__cause__, ValueError)
        return str(info.value.__cause__)

    assert "known formats" in value_error(action_format="qwen9")
    assert "accepted" in value_error(image_size=[0, 600])
    assert "accepted" in value_error(max_steps=0)
    assert isinstance(asyncio.run(build()), mod.PhoneGymAgentLoop)
    assert mod.DEFAULT_IMAGE_SIZE == (270, 600)
