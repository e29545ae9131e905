"""Demonstrations recorded by a play session feed ``phone-gym train sft`` as they are (the
folder is ``data.path``), with the tiny model built from a config (no download)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from play_support import SIZE, TASK, oracle_plan

from phone_gym.cli import main
from phone_gym.play.cli import make_session
from phone_gym.trajectory.store import load_episodes

for _module in ("torch", "transformers", "peft"):
    pytest.importorskip(_module, reason="the train extra is not installed")


def record_demonstrations(out: Path, seeds: list[int]) -> None:
    """Play the oracle's plan of each seed through a session, as the page would."""
    session = make_session(task=TASK, seed=seeds[0], out=out, size=SIZE)
    for seed in seeds:
        state = session.new_episode()
        assert state["seed"] == seed
        _, plan = oracle_plan(TASK, seed)
        for action in plan:
            state = session.act(action.to_dict())
        assert state["verdict"]["success"], state
    session.close()


def test_train_sft_runs_on_recorded_demonstrations(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    demos = tmp_path / "play"
    record_demonstrations(demos, [0, 1])
    episodes = load_episodes(demos)
    assert len(episodes) == 2 and all(e.success for e in episodes)
    steps = sum(len(e) for e in episodes)
    config = {"model": "tiny", "out_dir": str(tmp_path / "sft"), "image_size": [64, 128],
              "max_new_tokens": 16, "progress": False, "steps": 2, "train_batch_size": 2,
              "eval_episodes": 0}
    path = tmp_path / "sft.json"
    path.write_text(json.dumps(config))
    assert main(["train", "sft", "--config", str(path), "--set", f"data.path={demos}"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["samples"] == steps  # one sample per recorded step
    assert summary["final_loss"] > 0
    assert (tmp_path / "sft" / "final" / "config.json").is_file()
