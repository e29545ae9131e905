"""``phone-gym bench run --record DIR``: bench episodes in the trainer's trajectory format,
the same folder layout as the play page's recordings (train sft reads it; the replay view
lists it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from play_support import TASK

from phone_gym.actions import parse_action
from phone_gym.bench.runner import run_bench
from phone_gym.cli import main
from phone_gym.play import list_recorded, recorded_steps
from phone_gym.trainer.export import load_episodes, to_conversations


def test_bench_run_records_trajectories(tmp_path: Path) -> None:
    summary = run_bench(TASK, "oracle", seeds=2, out_dir=tmp_path / "run", progress=False,
                        record_to=tmp_path / "traj")
    assert summary["episodes"] == 2 and summary["success_rate"] == 1.0
    episodes = load_episodes(tmp_path / "traj")
    assert sorted(int(e.steps[0].seed or 0) for e in episodes) == [0, 1]
    for episode in episodes:
        assert episode.success and episode.steps[-1].done and episode.steps[-1].terminated
        assert not any(s.done for s in episode.steps[:-1])
        assert episode.total_reward == 1.0
        assert all(s.frame is not None and s.frame.shape[2] == 3 for s in episode.steps)
        # the oracle opens Clock by the action or through the launcher (its route)
        assert episode.steps[0].action in ('open_app(app="Clock")', 'press(button="home")')
        assert all(parse_action(s.text).to_dict() == parse_action(s.action).to_dict()
                   for s in episode.steps if s.action)
        assert episode.steps[1].history == [episode.steps[0].action]
        assert recorded_steps(tmp_path / "traj", episode.episode_id)["final"] is not None
    assert {e["task_id"] for e in list_recorded(tmp_path / "traj")} == {TASK}
    samples = to_conversations(episodes)
    assert len(samples) == sum(len(e) for e in episodes)


def test_bench_cli_record_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    traj = tmp_path / "traj"
    assert main(["bench", "run", "--suite", TASK, "--out", str(tmp_path / "run"),
                 "--record", str(traj), "--no-progress"]) == 0
    assert f"trajectories in {traj}" in capsys.readouterr().out
    assert len(load_episodes(traj)) == 1


def test_bench_record_copies_the_run_frames(tmp_path: Path) -> None:
    """The recorded frames are the run's PNG files byte for byte (not decoded and encoded
    again), and they load back as the run's pixels."""
    run_bench(TASK, "oracle", seeds=1, out_dir=tmp_path / "run", progress=False,
              record_to=tmp_path / "traj")
    (episode,) = load_episodes(tmp_path / "traj")
    shots = sorted((tmp_path / "run" / "episodes").glob("*/step_*.png"))
    assert len(shots) == len(episode.steps) + 1  # the screen after the last step too
    for step, shot in zip(episode.steps, shots, strict=False):
        assert step.screenshot is not None
        assert (tmp_path / "traj" / step.screenshot).read_bytes() == shot.read_bytes()
    final = tmp_path / "traj" / "frames" / episode.episode_id / "final.png"
    assert final.read_bytes() == shots[-1].read_bytes()


def test_bench_record_without_frames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--record --no-frames``: actions and verdicts only, no frame files."""
    traj = tmp_path / "traj"
    assert main(["bench", "run", "--suite", TASK, "--out", str(tmp_path / "run"),
                 "--record", str(traj), "--no-frames", "--no-progress"]) == 0
    assert f"trajectories in {traj}" in capsys.readouterr().out
    (episode,) = load_episodes(traj)
    assert episode.success and episode.steps[-1].verdict
    assert episode.steps[0].action == 'open_app(app="Clock")'
    assert all(s.screenshot is None and s.frame is None and not s.image_refs
               for s in episode.steps)
    assert not (traj / "frames").exists()
    assert not (tmp_path / "run" / "episodes").exists()
