"""TRL's GRPOTrainer with ``environment_factory=PhoneToolEnv`` on PhoneWorld: a tiny random
Qwen-VL with TRL's Qwen3-VL chat template, and scripted generations so that the tool calls
are known: one rollout of each group follows the oracle, the other makes a bad click and
finishes."""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from phone_gym.integrations.trl import PhoneToolEnv, build_dataset, check_processor

TASK, SEED = "SettingsBluetoothOn", 0
IMAGE_SIZE = (64, 128)
HAVE_TRL = all(importlib.util.find_spec(m) for m in ("trl", "torch", "datasets"))
needs_trl = pytest.mark.skipif(not HAVE_TRL, reason="pip install 'phone-gym[trl]'")


def oracle_calls(task: str, seed: int) -> list[dict[str, Any]]:
    """The oracle's actions on (task, seed) as tool calls {name, arguments}."""
    env: Any = gym.make("PhoneWorld-v0")
    env.reset(seed=seed, options={"task": task})
    calls = []
    for _ in range(30):
        action = env.unwrapped.oracle_action()
        fields = action.to_dict()
        calls.append({"name": fields.pop("action"), "arguments": fields})
        *_, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return calls
    raise AssertionError("the oracle did not finish")


def verifier_score(task: str, seed: int, calls: list[dict[str, Any]]) -> float:
    """The verifier's reward for the episode the tool calls make, run in a plain env."""
    env: Any = gym.make("PhoneWorld-v0")
    env.reset(seed=seed, options={"task": task})
    for call in calls:
        action = {"action": call["name"], **call["arguments"]}
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return float(reward)
    return float(env.unwrapped.end_episode()[0])


# --- the env alone ------------------------------------------------------------------------------
def test_tools_step_the_env_and_show_each_screen() -> None:
    env = PhoneToolEnv(image_size=IMAGE_SIZE)
    first = env.reset(task=TASK, seed=SEED, prompt=[{"role": "user", "content": "x"}])
    assert first[0]["type"] == "image" and first[0]["image"].size == IMAGE_SIZE
    assert first[1]["text"].startswith("Task: ") and "Bluetooth" in first[1]["text"]
    bad = env.click(x=5000, y=10)
    assert isinstance(bad, list) and "out of range" in bad[1]["text"] and "Error" in bad[1]["text"]
    calls = oracle_calls(TASK, SEED)
    for call in calls:
        out = getattr(env, call["name"])(**call["arguments"])
        assert isinstance(out, list) and out[0]["type"] == "image"
    assert "ended" in out[1]["text"]
    assert env.observations == 2 + len(calls)
    assert env.get_reward() == 1.0 == verifier_score(TASK, SEED, [
        {"name": "click", "arguments": {"x": 5000, "y": 10}}, *calls])
    assert "ended" in str(env.click(x=1, y=1))  # nothing runs after the end


def test_unfinished_episode_is_scored_on_the_final_state() -> None:
    env = PhoneToolEnv(image_size=None)
    assert env.reset(task=TASK, seed=SEED)[0]["image"].size == (540, 1200)
    calls = oracle_calls(TASK, SEED)[:-1]  # everything but finish()
    for call in calls:
        getattr(env, call["name"])(**call["arguments"])
    assert env.get_reward() == 1.0 == verifier_score(TASK, SEED, calls)
    env.reset(task=TASK, seed=SEED)
    assert env.get_reward() == 0.0 and env.observations == 1


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="accepted"):
        PhoneToolEnv(image_size=(0, 10))
    with pytest.raises(ValueError, match="not registered"):
        PhoneToolEnv("PhoneWorld-NoSuchThing-v0").reset()
    with pytest.raises(RuntimeError, match="reset"):
        PhoneToolEnv().click(x=1, y=1)


@needs_trl
def test_dataset_rows_are_templates_times_seeds() -> None:
    ds = build_dataset(["SettingsBluetoothOn", "ClockAddAlarm"], seeds=[3, 4])
    assert [(r["task"], r["seed"]) for r in ds] == [
        ("SettingsBluetoothOn", 3), ("SettingsBluetoothOn", 4), ("ClockAddAlarm", 3),
        ("ClockAddAlarm", 4)]
    assert [m["role"] for m in ds[0]["prompt"]] == ["system", "user"]
    assert len(build_dataset("ClockAddAlarm", seeds=5)) == 5
    with pytest.raises(ValueError, match="accepted"):
        build_dataset("ClockAddAlarm", seeds=[])


@needs_trl
def test_dataset_split_keeps_train_templates_only() -> None:
    from phone_gym.suites import pwbench

    try:
        bench = pwbench.load()
    except FileNotFoundError:
        pytest.skip("PhoneWorld-Bench's split file is not in this tree yet")
    tasks = {r["task"] for r in build_dataset(None, seeds=1, split="train")}
    assert tasks and all(bench.split_of(t) == "train" for t in tasks)


# --- TRL GRPO end to end --------------------------------------------------------------------------
def tiny_qwen3_vl() -> tuple[Any, Any]:
    """The project's tiny random Qwen-VL with TRL's own copy of Qwen3-VL's chat template, the
    one whose tool calls TRL parses (``add_response_schema``); Qwen2.5-VL's is refused."""
    from trl.chat_template_utils import qwen2_5_vl_chat_template, qwen3_vl_chat_template

    from phone_gym.trainer.tiny import build_tiny_vlm

    model, processor = build_tiny_vlm(image_size=IMAGE_SIZE)
    processor.chat_template = qwen2_5_vl_chat_template
    with pytest.raises(ValueError, match="Qwen2.5-VL"):
        check_processor(processor)
    processor.chat_template = qwen3_vl_chat_template
    check_processor(processor)
    # TRL drops tool results that push a sequence past the context: the tool schemas of the
    # twelve actions take a few thousand tokens of the tiny tokenizer (rope has no limit)
    model.config.text_config.max_position_embeddings = 16384
    return model, processor


def call_text(call: dict[str, Any]) -> str:
    """A tool call as Qwen3-VL writes it (its chat template's rendering)."""
    body = json.dumps({"name": call["name"], "arguments": call["arguments"]})
    return f"<tool_call>\n{body}\n</tool_call><|im_end|>"


@needs_trl
@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_grpo_trains_two_steps_on_phoneworld(tmp_path: Path) -> None:
    import torch
    from trl import GRPOConfig, GRPOTrainer

    model, processor = tiny_qwen3_vl()
    tokenizer = processor.tokenizer
    good = oracle_calls(TASK, SEED)
    bad = [{"name": "click", "arguments": {"x": 5000, "y": 10}},
           {"name": "finish", "arguments": {"status": "success"}}]
    assert good[0] != bad[0]
    scripts = [good, bad]  # rollout 0 of each group follows the oracle, rollout 1 does not
    expected = [verifier_score(TASK, SEED, s) for s in scripts]
    assert expected == [1.0, 0.0]

    def scripted(prompt_ids: list[list[int]], images: Any, multimodal_fields: Any,
                 num_generations: int, has_tool_images: bool = False) -> tuple[Any, None]:
        """Stands in for the model's generate: the next call of the rollout's script, which
        its history tells (the first turn: its place in the group); then a closing reply."""
        out = []
        for i, ids in enumerate(prompt_ids):
            text = tokenizer.decode(ids)
            done = text.count("<tool_response>")
            assert text.count("<|vision_start|>") == 1 + done  # every screen is in the prompt
            if done == 0:
                assert "Task: Turn on Bluetooth" in text  # reset's instruction
                script = scripts[i % 2]
            else:
                script = good if call_text(good[0])[:-10] in text else bad
                if script is bad:  # the action's error reaches the model
                    assert "Error: x=5000 is out of range" in text
            text = call_text(script[done]) if done < len(script) else "Done.<|im_end|>"
            out.append(tokenizer.encode(text, add_special_tokens=False))
        return out, None

    data = build_dataset(TASK, seeds=[SEED])
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=2,
                      num_generations=2, learning_rate=1e-2, beta=0.0, weight_decay=0.0,
                      max_completion_length=4096, max_tool_calling_iterations=10,
                      use_cpu=True, bf16=False, report_to="none", save_strategy="no",
                      logging_steps=1, dataloader_num_workers=0)
    # TRL types reset() as returning str | None; at run time it also takes content blocks
    # (a list: images and text), which is how the first screenshot reaches the prompt
    factory: Any = functools.partial(PhoneToolEnv, image_size=IMAGE_SIZE)
    trainer = GRPOTrainer(model=model, args=args, train_dataset=data, processing_class=processor,
                          environment_factory=factory)
    trainer._generate_single_turn = scripted  # type: ignore[method-assign]

    seen: list[dict[str, Any]] = []  # per generation: observations and rewards
    calculate = trainer._calculate_rewards

    def calculate_rewards(*a: Any, **k: Any) -> Any:
        rewards = calculate(*a, **k)
        envs: list[Any] = trainer.environments or []
        seen.append({"observations": [e.observations for e in envs],
                     "rewards": rewards.sum(dim=1).tolist()})
        return rewards

    trainer._calculate_rewards = calculate_rewards  # type: ignore[method-assign]
    forward_images: list[int] = []  # images in each forward pass that trains

    def count_images(module: Any, args_: Any, kwargs: dict[str, Any]) -> None:
        if torch.is_grad_enabled():
            grid = kwargs.get("image_grid_thw")
            forward_images.append(0 if grid is None else int(grid.shape[0]))

    hook = model.register_forward_pre_hook(count_images, with_kwargs=True)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    result = trainer.train()
    hook.remove()

    assert trainer.state.global_step == 2 and math.isfinite(result.training_loss)
    # each rollout: its first screen and one screen per tool call
    per_rollout = [1 + len(good), 1 + len(bad)]
    assert [s["observations"] for s in seen] == [per_rollout, per_rollout]
    assert forward_images == [sum(per_rollout)] * 2
    assert [s["rewards"] for s in seen] == [expected, expected]
    logged = [h for h in trainer.state.log_history if "rewards/PhoneToolEnv/mean" in h]
    assert [h["rewards/PhoneToolEnv/mean"] for h in logged] == [0.5, 0.5]
    assert all(h["tools/call_frequency"] == (len(good) + len(bad)) / 2 for h in logged)
    changed = [n for n, p in model.named_parameters() if not torch.equal(before[n], p.detach())]
    assert any("visual" in n for n in changed) and any("language_model" in n for n in changed)


# --- remote= : the same episode through phone-gym's OpenEnv server ----------------------------
def test_remote_episode_equals_local() -> None:
    pytest.importorskip("openenv.core", reason="pip install 'phone-gym[openenv]'")
    uvicorn = pytest.importorskip("uvicorn", reason="pip install 'phone-gym[openenv]'")
    import socket
    import threading
    import time

    import numpy as np

    from phone_gym.integrations.openenv import create_server_app, server_config

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_server_app("PhoneWorld-v0", max_sessions=2)
    server = uvicorn.Server(server_config(app, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
            time.sleep(0.02)
        calls = [{"name": "click", "arguments": {"x": 5000, "y": 10}},
                 *oracle_calls(TASK, SEED)]
        local, remote = (PhoneToolEnv(image_size=IMAGE_SIZE),
                         PhoneToolEnv(image_size=IMAGE_SIZE,  # the URL serve prints
                                      remote=f"http://127.0.0.1:{port}/?token={app.state.token}"))
        outs = []
        for env in (local, remote):
            seq = [env.reset(task=TASK, seed=SEED)]
            seq += [getattr(env, c["name"])(**c["arguments"]) for c in calls]
            outs.append((seq, env.get_reward(), env.observations))
        (lseq, lreward, lobs), (rseq, rreward, robs) = outs
        assert (lreward, lobs) == (rreward, robs) == (1.0, 1 + len(calls))
        for a, b in zip(lseq, rseq, strict=True):
            assert a[1]["text"] == b[1]["text"]
            assert np.array_equal(np.asarray(a[0]["image"]), np.asarray(b[0]["image"]))
        assert "out of range" in rseq[1][1]["text"]
        remote.env.close()
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@needs_trl
@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_example_runs_one_step(tmp_path: Path) -> None:
    import subprocess
    import sys

    example = Path(__file__).resolve().parents[2] / "examples" / "trl_grpo.py"
    done = subprocess.run(
        [sys.executable, str(example), "--tasks", TASK, "--seeds", "1", "--steps", "1",
         "--max-completion-length", "16", "--output-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "1 prompts" in done.stdout
    assert re.search(r"^step 1: reward \d\.\d{3}, tool calls per rollout", done.stdout, re.M)
