"""Demonstration data: oracle reasons and step instructions in trajectories, ``phone-gym
collect`` over a (template, seed) grid (workers, resume, summary) and its exports in the
formats trainers load: ``datasets`` parquet, LLaMA-Factory's ShareGPT JSON, TRL's
conversational messages (loaded and trained on by the libraries themselves)."""

from __future__ import annotations

import importlib.util
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from trainer_support import OBS_SIZE

from phone_gym.actions import parse_action
from phone_gym.testing.grounding import route_signature
from phone_gym.trainer.cli import main
from phone_gym.trainer.collect import (
    INDEX_FILE,
    SUMMARY_FILE,
    collect_grid,
    done_pairs,
    parse_seeds,
    read_index,
)
from phone_gym.trainer.export import SHAREGPT_NAME, write_formats
from phone_gym.trainer.mixing import EpisodeSpec
from phone_gym.trainer.policies import OraclePolicy
from phone_gym.trainer.prompts import REASONS, assistant_text, system_prompt
from phone_gym.trainer.rollout import Collector
from phone_gym.trajectory import load_episodes
from phone_gym.trajectory.records import StepRecord

TASKS = ["ClockDisableAlarm", "ContactsAddContact"]
HAVE_DATASETS = importlib.util.find_spec("datasets") is not None
HAVE_TRAIN = all(importlib.util.find_spec(m) for m in ("torch", "transformers"))


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seeds 0-1 of two templates, collected by one process."""
    out = tmp_path_factory.mktemp("grid")
    collect_grid(TASKS, [0, 1], out, obs_size=OBS_SIZE, progress=False)
    return out


def test_old_records_without_reasons_still_load() -> None:
    envs_ = [_env()]
    [ep] = Collector(envs_, OraclePolicy()).collect(specs=[EpisodeSpec("env", 0, 0)])
    data = ep.steps[0].to_json()
    assert data["reason"] and data["step_instruction"]  # the oracle's, recorded
    old = {k: v for k, v in data.items() if k not in ("reason", "step_instruction")}
    record = StepRecord.from_json(old)
    assert record.reason is None and record.step_instruction is None
    with pytest.raises(ValueError, match="'reason' is a number"):
        StepRecord.from_json({**data, "reason": 3})


def _env() -> Any:
    from phone_gym.envs import PhoneWorldEnv

    return PhoneWorldEnv(task=TASKS[0], obs_size=OBS_SIZE)


def test_the_oracle_step_gives_reason_and_instruction_but_not_to_the_agent() -> None:
    env = _env()
    _, info = env.reset(seed=0)
    step = env.unwrapped.oracle_step()
    assert set(step) == {"action", "reason", "step_instruction"}
    assert step["reason"] and step["step_instruction"]
    _, _, _, _, info = env.step(step["action"])
    assert not {"reason", "step_instruction", "oracle_action"} & set(info)


def test_grid_episodes_carry_reasons_and_routes(grid: Path) -> None:
    episodes = load_episodes(grid, frames=False)
    assert sorted(e.episode_id for e in episodes) == sorted(
        f"{t}-s{s}" for t in TASKS for s in (0, 1))
    index = read_index(grid)
    for ep in episodes:
        assert all(s.reason and s.step_instruction for s in ep.steps)
        assert {(s.task_id, s.seed) for s in ep.steps} == {
            (ep.steps[0].task_id, ep.steps[0].seed)}
        row = index[(ep.steps[0].task_id or "", ep.steps[0].seed or 0)]
        assert row["steps"] == len(ep) and row["success"] == ep.success
        types = [str(s.action).split("(")[0] for s in ep.steps]
        assert row["actions"] == types
        pairs = [tuple(r.split(":", 1)) for r in row["route"]]
        assert [p[0] for p in pairs] == types
        assert tuple(row["route"]) == route_signature(pairs)  # the audit's route notation
        taps = [p for p in pairs if p[0] == "click"]
        assert taps and all(kind for _, kind in taps)  # each tap names what it hit
    summary = json.loads((grid / SUMMARY_FILE).read_text())
    assert summary["episodes"] == 4 and summary["steps"] == sum(len(e) for e in episodes)
    assert summary["actions"] == dict(Counter(
        str(s.action).split("(")[0] for e in episodes for s in e.steps))
    assert summary["failures"] == [] and summary["solved"] == 4
    assert 1 <= summary["routes"] <= 4 and summary["templates"] == 2


def test_a_rerun_skips_finished_episodes(tmp_path: Path) -> None:
    first = collect_grid(TASKS[:1], [0], tmp_path, obs_size=OBS_SIZE, progress=False)
    assert (first["collected"], first["skipped"]) == (1, 0)
    before = (tmp_path / "steps.jsonl").read_text()
    again = collect_grid(TASKS[:1], [0, 1], tmp_path, obs_size=OBS_SIZE, progress=False)
    assert (again["collected"], again["skipped"], again["episodes"]) == (1, 1, 2)
    after = (tmp_path / "steps.jsonl").read_text()
    assert after.startswith(before)  # appended, the first episode untouched
    assert done_pairs(tmp_path) == {(TASKS[0], 0), (TASKS[0], 1)}
    assert len((tmp_path / INDEX_FILE).read_text().splitlines()) == 2


def test_workers_give_the_episodes_of_one_process(grid: Path, tmp_path: Path) -> None:
    collect_grid(TASKS, [0, 1], tmp_path, workers=2, obs_size=OBS_SIZE, progress=False)

    def steps(folder: Path) -> dict[str, list[tuple[Any, ...]]]:
        return {e.episode_id: [(s.action, s.reason, s.step_instruction, s.screenshot)
                               for s in e.steps] for e in load_episodes(folder, frames=False)}

    assert steps(tmp_path) == steps(grid)
    one, two = (json.loads((f / SUMMARY_FILE).read_text()) for f in (grid, tmp_path))
    for key in ("episodes", "steps", "actions", "routes"):
        assert one[key] == two[key], key
    for name in ("ClockDisableAlarm-s1/002.png", "ContactsAddContact-s0/000.png"):
        assert (tmp_path / "frames" / name).read_bytes() == (grid / "frames" / name).read_bytes()


def test_seed_ranges() -> None:
    assert parse_seeds("0-2,7,1") == [0, 1, 2, 7]
    for bad in ("2-1", "-1", "x"):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_targets_with_reasons_parse_to_their_action() -> None:
    action = 'type(text="milk")'
    assert assistant_text(action, "Why.", "Type “milk”", "none") == action
    text = assistant_text(action, "The list lacks milk.", "Type “milk”", "reason_and_step")
    assert text.splitlines() == ["Reason: The list lacks milk.", "Step: Type “milk”",
                                 f"Action: {action}"]
    assert parse_action(text) == parse_action(action)
    assert assistant_text(action, None, None, "reason") == action  # nothing recorded
    assert "Reason:" in system_prompt(reasons="reason") and "Reason:" not in system_prompt()
    with pytest.raises(ValueError, match="accepted"):
        assistant_text(action, "x", "y", "thoughts")
    assert REASONS == ("none", "reason", "reason_and_step")


def check_sharegpt(folder: Path, samples: int) -> list[dict[str, Any]]:
    """The layout of LLaMA-Factory's data/README.md, "Sharegpt Format" (multimodal):
    a JSON list of {"conversations": [{"from", "value"}...], "system", "images"}, human
    turns at odd positions and gpt turns at even ones, one <image> per image, and a
    dataset_info.json entry {"file_name", "formatting": "sharegpt", "columns": {...}}
    whose columns name the sample's keys (messages -> conversations)."""
    info = json.loads((folder / "dataset_info.json").read_text())
    entry = info[SHAREGPT_NAME]
    assert set(entry) == {"file_name", "formatting", "columns"}
    assert entry["formatting"] == "sharegpt"
    columns = entry["columns"]
    assert set(columns) <= {"messages", "system", "tools", "images", "videos", "audios"}
    assert columns["messages"] == "conversations" and columns["images"] == "images"
    rows = json.loads((folder / entry["file_name"]).read_text())
    assert isinstance(rows, list) and len(rows) == samples
    for row in rows:
        assert set(row) <= set(columns.values())
        turns = row[columns["messages"]]
        assert [t["from"] for t in turns] == ["human", "gpt"] * (len(turns) // 2)
        assert all(set(t) == {"from", "value"} and isinstance(t["value"], str) for t in turns)
        assert isinstance(row["system"], str) and row["system"]
        images = row[columns["images"]]
        assert sum(t["value"].count("<image>") for t in turns) == len(images) >= 1
        assert all(Path(p).is_absolute() and Path(p).is_file() for p in images)
    return rows


def test_sharegpt_export_matches_llamafactory_layout(grid: Path) -> None:
    counts = write_formats(grid, ["sharegpt"], reasons="reason")
    steps = sum(len(e) for e in load_episodes(grid, frames=False))
    rows = check_sharegpt(grid / "sharegpt", steps)
    assert counts == {"sharegpt": steps}
    assert all(r["conversations"][-1]["value"].startswith("Reason: ") for r in rows)
    assert "Reason:" in rows[0]["system"]


@pytest.mark.skipif(not HAVE_DATASETS, reason="datasets is not installed (the trl extra)")
def test_hf_export_loads_with_load_dataset(grid: Path, tmp_path: Path) -> None:
    import shutil

    from datasets import load_dataset
    from PIL import Image

    write_formats(grid, ["hf"], reasons="reason_and_step")
    moved = tmp_path / "hf"
    shutil.copytree(grid / "hf", moved)  # the parquet holds the images: the folder moves
    data = load_dataset("parquet", data_dir=str(moved), split="train")
    episodes = load_episodes(grid, frames=True)
    steps = [s for e in episodes for s in e.steps]
    assert len(data) == len(steps)
    by_key = {(s.episode_id, s.step): s for s in steps}
    for row in data.select(range(0, len(data), 5)):
        step = by_key[(row["episode_id"], row["step"])]
        [image] = row["images"]
        assert isinstance(image, Image.Image) and image.size == OBS_SIZE
        assert (image.convert("RGB").tobytes() == step.frame.tobytes())  # type: ignore[union-attr]
        assert row["reason"] == step.reason and row["step_instruction"] == step.step_instruction
        answer = row["messages"][-1]["content"][0]["text"]
        assert answer == assistant_text(step.action or "", step.reason, step.step_instruction,
                                        "reason_and_step")
        user = row["messages"][1]["content"]
        assert [c["type"] for c in user].count("image") == len(row["images"])


@pytest.mark.skipif(not (HAVE_DATASETS and HAVE_TRAIN and importlib.util.find_spec("trl")),
                    reason="needs trl, datasets, torch and transformers")
def test_sft_trainer_runs_a_step_on_the_trl_export(grid: Path, tmp_path: Path) -> None:
    from datasets import Image, load_dataset
    from trl import SFTConfig, SFTTrainer

    from phone_gym.trainer.tiny import build_tiny_vlm

    write_formats(grid, ["trl"], reasons="reason")
    data = load_dataset("json", data_files=str(grid / "trl" / "train.jsonl"), split="train")
    data = data.cast_column("images", [Image()]).select(range(2))
    assert data[0]["messages"][-1]["content"][0]["text"].startswith("Reason: ")
    model, processor = build_tiny_vlm()
    args = SFTConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=2,
                     learning_rate=1e-2, use_cpu=True, bf16=False, report_to="none",
                     save_strategy="no", logging_steps=1, dataloader_num_workers=0,
                     max_length=None)
    trainer = SFTTrainer(model=model, args=args, train_dataset=data, processing_class=processor)
    result = trainer.train()
    assert trainer.state.global_step == 1 and math.isfinite(result.training_loss)


@pytest.mark.skipif(not HAVE_TRAIN, reason="needs torch and transformers (the train extra)")
def test_train_sft_with_reasons_trains_on_them(grid: Path, tmp_path: Path,
                                               tiny_vlm: tuple[Any, Any],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from trainer_support import IMAGE_SIZE, make_policy

    from phone_gym.trainer.sft import sft_samples

    config = {"model": "tiny", "out_dir": str(tmp_path / "sft"), "image_size": list(IMAGE_SIZE),
              "steps": 2, "train_batch_size": 2, "reasons": "reason_and_step",
              "data": {"path": str(grid)}}
    path = tmp_path / "sft.json"
    path.write_text(json.dumps(config))
    assert main(["train", "sft", "--config", str(path), "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert math.isfinite(summary["final_loss"]) and summary["samples"] > 0
    saved = json.loads((tmp_path / "sft" / "config.json").read_text())
    assert saved["reasons"] == "reason_and_step"
    episodes = load_episodes(grid)
    policy = make_policy(tiny_vlm, do_sample=False)
    with_reasons = sft_samples(episodes[:1], policy, reasons="reason_and_step")
    plain = sft_samples(episodes[:1], policy)
    step = episodes[0].steps[0]
    target = policy.tokenizer.decode(with_reasons[0].completion_ids[:-1])
    assert target == f"Reason: {step.reason}\nStep: {step.step_instruction}\n" \
                     f"Action: {step.text}"
    assert policy.tokenizer.decode(plain[0].completion_ids[:-1]) == step.text
    with pytest.raises(ValueError, match="reasons"):
        main(["train", "sft", "--config", str(path), "--set", "reasons=thoughts"])


def test_collect_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c"
    argv = ["collect", "--tasks", TASKS[0], "--seeds", "0", "--out", str(out), "--size",
            *map(str, OBS_SIZE), "--format", "native,sharegpt,trl", "--no-progress"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["episodes"] == 1 and summary["collected"] == 1
    assert set(summary["formats"]) == {"sharegpt", "trl"}
    check_sharegpt(out / "sharegpt", summary["formats"]["sharegpt"])
    assert len((out / "trl" / "train.jsonl").read_text().splitlines()) == summary["steps"]
    assert main(argv) == 0  # resumed: nothing left to do
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (again["collected"], again["skipped"]) == (0, 1)
    with pytest.raises(SystemExit):
        main(["collect", "--seeds", "0", "--format", "parquet"])


@pytest.mark.slow  # every template, 2 seeds: minutes
@pytest.mark.skipif(not HAVE_DATASETS, reason="datasets is not installed (the trl extra)")
def test_collect_every_template_in_all_formats(tmp_path: Path) -> None:
    from datasets import load_dataset

    from phone_gym.trainer.collect import cpu_workers, template_ids

    summary = collect_grid("all", [0, 1], tmp_path, workers=cpu_workers(),
                           obs_size=OBS_SIZE, progress=False)
    templates = template_ids("all")
    assert summary["episodes"] + len([f for f in summary["failures"]
                                      if f["why"] != "not solved"]) == 2 * len(templates)
    counts = write_formats(tmp_path, ["native", "hf", "sharegpt", "trl"], reasons="reason")
    solved_steps = sum(len(e) for e in load_episodes(tmp_path, frames=False) if e.success)
    assert counts["hf"] == counts["sharegpt"] == counts["trl"] == solved_steps
    assert counts["native"] == summary["steps"]
    assert len(load_dataset("parquet", data_dir=str(tmp_path / "hf"), split="train")) \
        == solved_steps
    check_sharegpt(tmp_path / "sharegpt", solved_steps)
    print(json.dumps({k: summary[k] for k in ("episodes", "steps", "routes",
                                              "templates_with_2_routes", "seconds")}))
