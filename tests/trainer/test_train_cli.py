"""``phone-gym train sft|grpo --config FILE`` through the trainer's argparse wiring (small
configs, temporary folders); ``collect`` is tested in test_collector.py (no torch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trainer_support import IMAGE_SIZE, OBS_SIZE, TASK

from phone_gym.trainer.cli import main
from phone_gym.trainer.metrics import read_metrics
from phone_gym.trainer.runs import oracle_episodes
from phone_gym.trainer.vlm import load_vlm


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_train_sft_from_a_json_config(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = {
        "model": "tiny", "out_dir": str(tmp_path / "sft"), "image_size": list(IMAGE_SIZE),
        "max_new_tokens": 16, "steps": 4, "train_batch_size": 4,
        "checkpoint_every": 2, "eval_episodes": 2,
        "data": {"kwargs": {"task": TASK, "obs_size": list(OBS_SIZE)}, "episodes": 2,
                 "num_envs": 2},
    }
    path = tmp_path / "sft.json"
    path.write_text(json.dumps(config))
    assert main(["train", "sft", "--config", str(path), "--set", "steps=3",
                 "--no-progress"]) == 0
    summary = last_json(capsys.readouterr().out)
    data = oracle_episodes("PhoneWorld-v0", config["data"]["kwargs"], 2, None, 2, 0)
    assert summary["samples"] == sum(len(e) for e in data)  # the same oracle episodes
    assert 0.0 <= summary["eval_success"] <= 1.0
    out = tmp_path / "sft"
    rows = read_metrics(out / "metrics.csv")
    assert [r["step"] for r in rows] == ["1", "2", "3"] and "loss" in rows[0]
    assert (out / "checkpoint-2").is_dir() and not (out / "checkpoint-4").exists()
    model, processor = load_vlm(str(out / "final"))
    assert model.config.model_type == "qwen2_5_vl"
    saved = json.loads((out / "config.json").read_text())
    assert saved["steps"] == 3 and saved["progress"] is False  # --no-progress


def test_train_grpo_from_a_toml_config(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "grpo"
    path = tmp_path / "grpo.toml"
    path.write_text(f"""
model = "tiny"
out_dir = "{out}"
image_size = [64, 128]
max_new_tokens = 12
progress = false
format_penalty = 0.1
[grpo]
iterations = 2
groups_per_iter = 2
group_size = 2
lr = 1e-4
[[sources]]
name = "mock"
env = "PhoneWorld-v0"
kwargs = {{ task = "{TASK}", obs_size = [135, 300], max_steps = 2 }}
num_envs = 4
""")
    assert main(["train", "grpo", "--config", str(path)]) == 0
    summary = last_json(capsys.readouterr().out)
    assert summary["iterations"] == 2
    rows = read_metrics(out / "metrics.csv")
    assert [r["iteration"] for r in rows] == ["1", "2"]
    assert {"reward_mean", "groups_kept", "loss"} <= set(rows[0])
    assert (out / "final" / "config.json").exists()


def test_bad_configs_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"model": "tiny", "stepz": 3}))
    with pytest.raises(ValueError, match="unknown sft config key"):
        main(["train", "sft", "--config", str(path)])
    path.write_text(json.dumps({"model": "tiny"}))
    with pytest.raises(ValueError, match="sources"):
        main(["train", "grpo", "--config", str(path)])
