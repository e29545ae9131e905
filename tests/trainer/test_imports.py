"""``import phone_gym`` (and the trainer's CLI wiring) loads neither torch nor transformers."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("torch", "transformers", "peft", "ray")


def loaded_after(statement: str) -> list[str]:
    code = (f"import sys\n{statement}\n"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return [m for m in proc.stdout.strip().split(",") if m]


@pytest.mark.parametrize("statement", [
    "import phone_gym",
    "import phone_gym.envs, phone_gym.cli",
    "import phone_gym.trainer",
    # what phone-gym's CLI does to build its parser
    "import argparse\nfrom phone_gym.trainer.cli import add_commands\n"
    "add_commands(argparse.ArgumentParser().add_subparsers())",
    # rollouts with oracle/random policies and export need no torch
    "import phone_gym.trainer.rollout, phone_gym.trainer.export, phone_gym.trainer.mixing",
    "import phone_gym.trainer.runs",  # phone-gym collect
])
def test_no_heavy_imports(statement: str) -> None:
    assert loaded_after(statement) == []
