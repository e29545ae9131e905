"""The example run configs (SFT, and GRPO's "real" and "real+mock" branches) run through
``phone-gym train``, shortened, against the virtual adb device."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from phone_gym.cli import main  # noqa: E402
from phone_gym.trainer.config import load_config  # noqa: E402
from phone_gym.virtual import VirtualAdbServer, VirtualPhone  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "examples" / "configs"


@pytest.fixture()
def port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setitem(os.environ, "ADBUTILS_ADB_PATH", "/bin/false")
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as server:
        yield server.port


def short(name: str, tmp_path: Path, port: int) -> Path:
    """The config with a short budget, the tiny model and the virtual device's port."""
    config = load_config(CONFIGS / name)
    config.update(model="tiny", out_dir=str(tmp_path / name), progress=False,
                  max_new_tokens=8)
    if "steps" in config:
        config.update(steps=3, eval_episodes=0)
        config["data"].update(episodes=2, path="")  # collected data: test_cli_train.py
    if "grpo" in config:
        config["grpo"].update(iterations=1, groups_per_iter=1, group_size=2)
        for source in config["sources"]:
            source["kwargs"].update(max_steps=2)
            if source["env"] == "RealPhone-v0":
                source["kwargs"].update(port=port, settle=0.0)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(config))
    return path


@pytest.mark.parametrize(("name", "kind"), [("sft.toml", "sft"), ("grpo_real.toml", "grpo"),
                                            ("grpo_real_mock.toml", "grpo")])
def test_example_config_runs(name: str, kind: str, tmp_path: Path, port: int) -> None:
    assert main(["train", kind, "--config", str(short(name, tmp_path, port))]) == 0
    assert (tmp_path / name / "metrics.csv").exists()
