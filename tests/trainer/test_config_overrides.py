"""Run configs and ``--set KEY=VALUE`` overrides (``phone_gym.trainer.config``), and the
command line's one-line errors for a config that cannot be used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")  # GRPO's keys come from GRPOSettings; train needs the extra

from phone_gym.cli import main  # noqa: E402
from phone_gym.trainer.config import (  # noqa: E402
    ConfigError,
    apply_overrides,
    load_config,
    parse_value,
    resolve,
)

GRPO: dict[str, Any] = {"model": "tiny", "grpo": {"iterations": 20, "group_size": 4, "lr": 1e-5},
        "sources": [{"name": "real", "env": "RealPhone-v0", "kwargs": {"port": 5037}},
                    {"name": "mock", "env": "PhoneWorld-v0", "num_envs": 4}]}


@pytest.mark.parametrize(("text", "value"), [
    ("3", 3), ("1e-6", 1e-6), ("-2.5", -2.5), ("true", True), ("false", False),
    ("[64, 128]", [64, 128]), ('"quoted"', "quoted"), ("'single'", "single"),
    ("{ lr = 1e-4, epochs = 2 }", {"lr": 1e-4, "epochs": 2}),
    ("out/traj", "out/traj"), ("tiny", "tiny"), ("runs/sft/final", "runs/sft/final"),
    ('""', ""), ("01", "01"),  # not TOML: the text itself
])
def test_values_are_toml_literals_else_text(text: str, value: object) -> None:
    assert parse_value(text) == value
    assert type(parse_value(text)) is type(value)


def test_broken_tables_and_arrays_are_errors() -> None:
    for text in ("{ lr = }", "[1, 2", '"open'):
        with pytest.raises(ConfigError, match="is not a TOML value"):
            parse_value(text)


def test_top_level_and_dotted_keys() -> None:
    out = apply_overrides(GRPO, ["seed=3", "grpo.lr=1e-6", "sources.real.kwargs.port=5038",
                                 "sources.1.num_envs=2", "lora.r=8"], "grpo")
    assert out["seed"] == 3 and out["grpo"] == {"iterations": 20, "group_size": 4, "lr": 1e-6}
    assert out["sources"][0]["kwargs"] == {"port": 5038}
    assert out["sources"][1]["num_envs"] == 2 and out["lora"] == {"r": 8}
    assert GRPO["grpo"]["lr"] == 1e-5  # the config given is not changed
    sft = apply_overrides({"steps": 300, "data": {"path": "out/traj"}},
                          ["steps=3", "data.path=elsewhere/x", "eval_episodes=0"], "sft")
    assert sft == {"steps": 3, "data": {"path": "elsewhere/x"}, "eval_episodes": 0}


def test_a_key_of_the_main_table_may_leave_the_table_out() -> None:
    out = apply_overrides(GRPO, ["iterations=3", "lr=1e-6"], "grpo")
    assert out["grpo"] == {"iterations": 3, "group_size": 4, "lr": 1e-6}
    assert "iterations" not in out and "lr" not in out
    sft = apply_overrides({"lr": 1e-3, "data": {"path": "a"}}, ["lr=1e-4", "path=b"], "sft")
    assert sft == {"lr": 1e-4, "data": {"path": "b"}}  # sft's lr is a top-level key
    assert apply_overrides(GRPO, ["seed=5"], "grpo")["seed"] == 5  # top-level first


def test_an_inline_table_is_merged_into_the_files_table() -> None:
    out = apply_overrides(GRPO, ["grpo={ lr = 1e-6, epochs = 2 }"], "grpo")
    assert out["grpo"] == {"iterations": 20, "group_size": 4, "lr": 1e-6, "epochs": 2}
    out = apply_overrides(GRPO, ["sources.real={ weight = 2.0, kwargs = { settle = 0 } }"],
                          "grpo")
    assert out["sources"][0]["weight"] == 2.0
    assert out["sources"][0]["kwargs"] == {"port": 5037, "settle": 0}
    assert resolve(out, "grpo")["grpo"]["iterations"] == 20


@pytest.mark.parametrize(("item", "kind", "message"), [
    ("stepz=3", "sft", "unknown sft config key 'stepz'; did you mean 'steps'?"),
    ("grpo.lrr=1e-6", "grpo", "unknown grpo key 'lrr'; did you mean 'lr'?"),
    ("grpp.lr=1e-6", "grpo", "did you mean 'grpo.lr'?"),
    ("iteration=3", "grpo", "did you mean 'grpo.iterations'?"),
    ("grpo={ itrations = 3 }", "grpo", "unknown grpo key 'itrations'; did you mean "
                                        "'iterations'"),
    ("sources.real.wieght=2", "grpo", "did you mean 'weight'?"),
    ("sources.phone.weight=2", "grpo", "no entry 'phone'; entries: 'real', 'mock'"),
    ("steps", "sft", "expected KEY=VALUE"),
])
def test_unknown_keys_say_what_was_meant(item: str, kind: str, message: str) -> None:
    config = GRPO if kind == "grpo" else {"steps": 300}
    with pytest.raises(ConfigError) as info:
        apply_overrides(config, [item], kind)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_wrong_types_name_what_is_accepted() -> None:
    with pytest.raises(ConfigError, match=r"grpo.iterations = 'many'; accepted: an integer"):
        resolve(apply_overrides(GRPO, ["iterations=many"], "grpo"), "grpo")


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("phone-gym: "), err
    return lines[0]


def test_cli_config_errors_are_one_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.toml"
    assert main(["train", "sft", "--config", str(missing)]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert f"no config file {str(missing)!r}" in line and "examples/configs" in line
    bad = tmp_path / "bad.toml"
    bad.write_text('model = "tiny"\nsteps = [1,\n')
    assert main(["train", "sft", "--config", str(bad)]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert f"{bad} is not valid TOML" in line and "fix it" in line
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{'model': 'tiny'}")
    assert main(["train", "sft", "--config", str(bad_json)]) == 2
    assert "is not valid JSON" in one_line_error(capsys.readouterr().err)
    good = tmp_path / "sft.json"
    good.write_text(json.dumps({"model": "tiny", "out_dir": str(tmp_path / "run")}))
    assert main(["train", "sft", "--config", str(good), "--set", "stepz=3"]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert "--set stepz=3: unknown sft config key 'stepz'; did you mean 'steps'?" in line
    assert main(["train", "sft", "--config", str(good), "--set", "data.path=nowhere"]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert "data.path = 'nowhere'" in line and "phone-gym collect --out nowhere" in line
    assert not (tmp_path / "run" / "final").exists()


def test_the_example_configs_load() -> None:
    configs = Path(__file__).resolve().parents[2] / "examples" / "configs"
    for path in sorted(configs.glob("*.toml")):
        config = load_config(path)
        kind = "grpo" if "grpo" in config else "sft"
        resolve(config, kind)
    sft = load_config(configs / "sft.toml")
    assert sft["data"]["path"] == "out/traj"  # where the README's phone-gym collect writes
