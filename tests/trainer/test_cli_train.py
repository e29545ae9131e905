"""The command line's trainer flow as a user runs it: ``phone-gym collect`` then
``phone-gym train sft`` on what it wrote (from any working directory), GRPO's warning when
no rollout differs from another, and the one-line errors of a GRPO config that needs a
phone when there is none."""

from __future__ import annotations

import json
import socket
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import torch  # noqa: E402
from trainer_support import IMAGE_SIZE, OBS_SIZE, TASK, clock_envs, rewarded_collector  # noqa: E402

from phone_gym.cli import main  # noqa: E402
from phone_gym.trainer.grpo import GRPOSettings, NoSignalWarning, train_grpo  # noqa: E402
from phone_gym.trainer.metrics import read_metrics  # noqa: E402
from phone_gym.trainer.rollout import Collector  # noqa: E402
from phone_gym.trajectory.store import load_episodes  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "examples" / "configs"


def last_json(out: str) -> dict[str, Any]:
    return dict(json.loads(out.strip().splitlines()[-1]))


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("phone-gym: "), err
    assert "Traceback" not in err
    return lines[0]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_collect_writes_what_train_sft_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    assert main(["collect", "--task", TASK, "--episodes", "2", "--num-envs", "2", "--size",
                 *map(str, OBS_SIZE), "--out", "traj", "--no-progress"]) == 0
    collected = last_json(capsys.readouterr().out)
    assert collected["episodes"] == collected["solved"] == 2
    # from another working directory: the frames and the conversations' images resolve
    monkeypatch.chdir(tmp_path / "b")
    folder = Path("..") / "a" / "traj"
    episodes = load_episodes(folder)
    assert sum(len(e) for e in episodes) == collected["steps"]
    assert all(s.frame is not None and s.frame.shape == (300, 135, 3)
               for e in episodes for s in e.steps)
    rows = [json.loads(line) for line in
            (folder / "conversations_llamafactory.jsonl").read_text().splitlines()]
    assert len(rows) == collected["conversations"] == collected["steps"]
    images = [Path(p) for row in rows for p in row["images"]]
    assert images and all(p.is_absolute() and p.is_file() for p in images)
    # the example SFT config reads the folder as data.path
    assert main(["train", "sft", "--config", str(CONFIGS / "sft.toml"),
                 "--set", f"data.path={folder}", "--set", "steps=2", "--set", "eval_episodes=0",
                 "--set", f"image_size={list(IMAGE_SIZE)}", "--set", "max_new_tokens=8",
                 "--set", "progress=false", "--set", "out_dir=run"]) == 0
    summary = last_json(capsys.readouterr().out)
    assert summary["samples"] == collected["steps"]
    assert [r["step"] for r in read_metrics(Path("run") / "metrics.csv")] == ["1", "2"]
    assert (Path("run") / "final").is_dir()


def test_grpo_warns_when_every_reward_is_the_same(fresh_policy: Any) -> None:
    """A fresh model cannot solve the task in one step: every rollout gets reward 0, so
    there is nothing to learn and the model must stay as it is."""
    collector = Collector(clock_envs(2, max_steps=1), fresh_policy, keep_frames=False)
    before = {k: v.clone() for k, v in fresh_policy.model.state_dict().items()}
    settings = GRPOSettings(iterations=2, groups_per_iter=1, group_size=2, lr=1e-2,
                            drop_flat_groups=False, beta=0.1)
    with pytest.warns(NoSignalWarning) as caught:
        history = train_grpo(fresh_policy, collector, settings)
    assert [str(w.message) for w in caught] == [
        f"GRPO iteration {i}: all 2 episodes got reward 0: no learning signal, no update "
        "(GRPO learns from rollouts of a task that score differently: start from a model that "
        "solves these tasks sometimes, e.g. after SFT, or pick other tasks)" for i in (1, 2)]
    assert [h["no_signal"] for h in history] == [1, 1]
    assert [h["samples"] for h in history] == [0, 0]
    after = fresh_policy.model.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_grpo_with_a_learning_signal_does_not_warn(fresh_policy: Any) -> None:

    Rewarded = rewarded_collector()

    collector = Rewarded(clock_envs(2, max_steps=1), fresh_policy, keep_frames=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoSignalWarning)
        history = train_grpo(fresh_policy, collector,
                             GRPOSettings(iterations=1, groups_per_iter=1, group_size=2))
    assert history[0]["no_signal"] == 0 and history[0]["samples"] > 0


def test_cli_shows_the_no_signal_warning(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "grpo.toml"
    path.write_text(f"""
model = "tiny"
out_dir = "{tmp_path / 'run'}"
image_size = {list(IMAGE_SIZE)}
max_new_tokens = 8
progress = false
[grpo]
iterations = 1
groups_per_iter = 1
group_size = 2
[[sources]]
name = "mock"
env = "PhoneWorld-v0"
kwargs = {{ task = "{TASK}", obs_size = {list(OBS_SIZE)}, max_steps = 1 }}
num_envs = 2
""")
    assert main(["train", "grpo", "--config", str(path)]) == 0
    captured = capsys.readouterr()
    line = one_line_error(captured.err)
    assert line.startswith("phone-gym: warning: GRPO iteration 1: all 2 episodes got reward 0: "
                           "no learning signal, no update")
    assert last_json(captured.out)["iterations"] == 1
    assert read_metrics(tmp_path / "run" / "metrics.csv")[0]["no_signal"] == "1"


def test_grpo_real_mock_without_the_real_extra(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "adbutils", None)  # import adbutils fails
    assert main(["train", "grpo", "--config", str(CONFIGS / "grpo_real_mock.toml"),
                 "--set", "model=tiny", "--set", f"out_dir={tmp_path / 'run'}"]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert "the real-phone source 'real' of this config needs adbutils" in line
    assert 'pip install -e ".[real]"' in line
    assert "phone-gym virtual-device --port 5037" in line
    assert not (tmp_path / "run").exists()


def test_grpo_real_mock_without_an_adb_server(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    port = closed_port()
    assert main(["train", "grpo", "--config", str(CONFIGS / "grpo_real_mock.toml"),
                 "--set", "model=tiny", "--set", f"out_dir={tmp_path / 'run'}",
                 "--set", f"sources.real.kwargs.port={port}"]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert f"the real-phone source 'real' finds no adb server at 127.0.0.1:{port}" in line
    assert f"phone-gym virtual-device --port {port}" in line
    assert not (tmp_path / "run").exists()  # it stops before the model loads


def test_grpo_records_its_rollouts_for_sft(tmp_path: Path) -> None:
    """``record = true``: every rollout lands in OUT/rollouts in the trajectory format, with
    its frames, and loads back as the episodes GRPO collected."""
    from phone_gym.trajectory.store import load_episodes

    path = tmp_path / "grpo.toml"
    path.write_text(f"""
model = "tiny"
out_dir = "{tmp_path / 'run'}"
image_size = {list(IMAGE_SIZE)}
max_new_tokens = 8
progress = false
record = true
[grpo]
iterations = 2
groups_per_iter = 1
group_size = 2
[[sources]]
name = "mock"
env = "PhoneWorld-v0"
kwargs = {{ task = "{TASK}", obs_size = {list(OBS_SIZE)}, max_steps = 2 }}
num_envs = 2
""")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoSignalWarning)
        assert main(["train", "grpo", "--config", str(path)]) == 0
    episodes = load_episodes(tmp_path / "run" / "rollouts")
    assert len(episodes) == 4  # 2 iterations x 1 group x 2 episodes
    assert len({e.episode_id for e in episodes}) == 4
    assert all(e.steps[0].task_id == TASK and 1 <= len(e) <= 2 for e in episodes)
    assert all(step.frame is not None for e in episodes for step in e.steps)
