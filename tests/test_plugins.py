"""A third-party app installed with pip (``tests/plugin_app``, entry point ``phone_gym.apps``)
shows up in ``phone-gym tasks``, on the launcher and as ``gym.make`` ids, with no edit to
phone-gym; a broken plugin is skipped with a warning; ``PHONE_GYM_NO_PLUGINS=1`` hides them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent / "plugin_app"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin, installed with pip into a folder of its own (no network, no index)."""
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", "--no-build-isolation", "--target", str(target),
                    str(PLUGIN)], check=True, timeout=300, cwd=build,
                   env={**os.environ, "PIP_NO_INPUT": "1"})
    assert any(p.name.endswith(".dist-info") for p in target.iterdir())
    return target


def run(site: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(site), **env})


def test_the_plugin_app_is_everywhere(site: Path) -> None:
    proc = run(site, """
        import gymnasium as gym
        import phone_gym
        from phone_gym.cli import main
        from phone_gym.world.a11y import ui_elements

        main(["tasks", "--app", "Calculator"])
        env = gym.make("PhoneWorld-CalculatorLastResult-v0")
        obs, info = env.reset(seed=0)
        print("instruction:", obs["instruction"])
        device = env.unwrapped.device
        icons = []
        for page in range(device.launcher.pages(len(device.app_classes))):
            device.launcher.page = page  # every home page (plugins come last)
            device.invalidate()
            icons += [e.text for e in ui_elements(device.frame())
                      if e.class_name.endswith("TextView") and e.clickable]
        device.go_home()
        print("launcher:", icons)
        for _ in range(10):
            obs, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
            if terminated or truncated:
                break
        print("reward:", reward)
        env = gym.make("PhoneWorld-v0", apps=["Calculator"])
        print("apps:", [t.id for t in env.unwrapped.templates])
    """)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "CalculatorLastResult" in out and "1 templates" in out
    assert "instruction: In the Calculator, what was the result" in out
    assert "'Calculator'" in out.split("launcher:")[1].splitlines()[0]
    assert "reward: 1.0" in out and "apps: ['CalculatorLastResult']" in out


def test_the_authoring_checks_pass_on_the_plugin(site: Path) -> None:
    proc = run(site, """
        from phone_gym.testing import check_app, check_task
        print(check_task("CalculatorLastResult", 5, processes=False).line())
        print(check_app("Calculator", 2000).line())
    """)
    assert proc.returncode == 0, proc.stderr
    assert "oracle 5/5" in proc.stdout


def test_plugins_can_be_switched_off(site: Path) -> None:
    proc = run(site, "import phone_gym.mockapps as m; print(sorted(m.TEMPLATES))",
               PHONE_GYM_NO_PLUGINS="1")
    assert proc.returncode == 0, proc.stderr
    assert "CalculatorLastResult" not in proc.stdout and "NotesPinNote" in proc.stdout


def test_a_broken_plugin_is_skipped_with_a_warning(tmp_path: Path) -> None:
    dist = tmp_path / "broken_pkg-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-pkg\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[phone_gym.apps]\nbroken = broken_pkg\n")
    (tmp_path / "broken_pkg.py").write_text("raise ImportError('the plugin is broken')\n")
    proc = run(tmp_path, """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import phone_gym.mockapps as m
        print(m.REGISTRY.errors)
        print([str(w.message) for w in caught])
        print("NotesPinNote" in m.TEMPLATES)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "third-party app 'broken'" in proc.stdout and "the plugin is broken" in proc.stdout
    assert proc.stdout.strip().endswith("True")
