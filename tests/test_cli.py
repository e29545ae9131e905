from __future__ import annotations

import socket
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

from phone_gym.cli import OVERVIEW_COLUMNS, main
from phone_gym.mockapps import APPS, TEMPLATES


def listed_ids(out: str) -> list[str]:
    """Template ids in the first column of ``phone-gym tasks`` output."""
    return [line.split()[0] for line in out.splitlines()
            if line.split() and line.split()[0] in TEMPLATES]


def test_tasks_lists_every_template(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks"]) == 0
    out = capsys.readouterr().out
    assert sorted(listed_ids(out)) == sorted(TEMPLATES)
    assert f"{len(TEMPLATES)} templates" in out


def test_tasks_filtered_by_app(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--app", "Clock"]) == 0
    ids = listed_ids(capsys.readouterr().out)
    clock = sorted(t.id for t in TEMPLATES.values() if "Clock" in t.apps)
    assert clock and sorted(ids) == clock


def test_tasks_filtered_by_tags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--tag", "safety", "--tag", "mini_program"]) == 0
    ids = listed_ids(capsys.readouterr().out)
    both = sorted(t.id for t in TEMPLATES.values() if {"safety", "mini_program"} <= t.tags)
    assert both and sorted(ids) == both
    assert main(["tasks", "--tag", "unsafe"]) == 2
    assert "accepted: artifact, handoff" in capsys.readouterr().err


def test_tasks_in_a_locale_lists_its_templates_and_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--locale", "zh-CN", "--app", "Settings"]) == 0
    out = capsys.readouterr().out
    zh = sorted(t.id for t in TEMPLATES.values()
                if "zh-CN" in t.locales and "Settings" in t.apps)
    assert len(zh) >= 20 and sorted(listed_ids(out)) == zh
    assert "打开蓝牙。" in out and f"zh-CN: {len(zh)} templates on 1 apps" in out
    assert main(["tasks", "--locale", "fr"]) == 2
    assert "accepted: en-US, zh-CN" in capsys.readouterr().err


def test_an_unknown_suite_names_every_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--suite", "pwbench-crosss"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'pwbench-cross'" in err
    assert ("accepted: pwbench, pwbench-single, pwbench-cross, pwbench-mini, pwbench-zh, "
            "pwbench-zh-single, pwbench-zh-cross, pwbench-zh-mini, androidworld") in err


def oracle_screens(task: str, seed: int, size: tuple[int, int]
                   ) -> tuple[list[np.ndarray], list[tuple[int | None, int | None]]]:
    """The screenshots of the oracle's episode (the first before any action, the last after
    the last one) and each action's touch point, as ``phone-gym demo`` runs it."""
    env = gym.make("PhoneWorld-v0", task=task, obs_size=size)
    obs, _ = env.reset(seed=seed)
    shots, points, done = [obs["screenshot"]], [], False
    while not done:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        points.append((action.x, action.y))
        obs, _, terminated, truncated, _ = env.step(action)
        shots.append(obs["screenshot"])
        done = terminated or truncated
    env.close()
    return shots, [*points, (None, None)]


def test_demo_saves_gif_and_final_png(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["demo", "--out", str(tmp_path), "--task", "NotesPinNote",
                 "--size", "270", "600"])
    assert code == 0
    assert "SUCCESS" in capsys.readouterr().out
    gifs = list(tmp_path.glob("demo_NotesPinNote_*.gif"))
    pngs = list(tmp_path.glob("demo_NotesPinNote_*_final.png"))
    assert len(gifs) == 1 and len(pngs) == 1
    shots, points = oracle_screens("NotesPinNote", 0, (270, 600))
    with Image.open(gifs[0]) as gif:
        assert gif.n_frames == len(shots) > 2
        for k, (shot, (x, y)) in enumerate(zip(shots, points, strict=True)):
            gif.seek(k)
            frame = np.asarray(gif.convert("RGB")).astype(int)
            # the caption is a strip under the screen, which stays whole: every pixel as the
            # screenshot's (up to the GIF palette's rounding) but the touch point's circle
            assert frame.shape[0] > 600 and frame.shape[1] == 270
            diff = np.abs(frame[:600] - shot.astype(int)).max(axis=-1)
            if x is not None and y is not None:
                cx, cy, r = x * 270 // 1000, y * 600 // 1000, 270 // 30 + 6
                diff[max(0, cy - r):cy + r, max(0, cx - r):cx + r] = 0
            assert diff.max() <= 48, f"frame {k}: the screen is drawn over"
            assert diff[-60:].max() <= 48  # the nav bar at the bottom is not covered
            strip = frame[600:]
            assert (strip == 0).all(axis=-1).mean() > 0.5  # a black caption strip ...
            assert (strip[..., 0] > 200).any()  # ... with text in it
    with Image.open(pngs[0]) as png:
        assert png.size == (270, 600)
        assert np.array_equal(np.asarray(png.convert("RGB")), shots[-1])


def test_captions_wrap_and_draw_any_script() -> None:
    from phone_gym.cli import CAPTION_BG, captioned

    screen = Image.new("RGB", (180, 400), (250, 250, 250))
    latin = captioned([screen], ["1. type(text=\"a b\")"])[0]
    assert latin.size[0] == 180 and latin.size[1] > 400
    assert np.array_equal(np.asarray(latin)[:400], np.asarray(screen))
    long = "2. type(text=\"" + "word " * 30 + "\")"
    several = captioned([screen, screen], ["1. back()", long])
    assert several[0].size == several[1].size  # one strip height: frames of one GIF
    assert several[0].height > latin.height  # the long caption wraps to more lines
    for text in ["Ωμέγα", "привет", "✓★"]:
        [image] = captioned([screen], [text])
        strip = np.asarray(image)[400:]
        assert (strip != CAPTION_BG).any(), f"{text!r} drew nothing"
        # and no font's missing-glyph box: the same text drawn differently than a box row
        boxes = np.asarray(captioned([screen], ["\uffff" * len(text)])[0])[400:]
        assert not np.array_equal(strip, boxes), text


def test_demo_unknown_task_names_accepted_tasks(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--task", "Nope", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "Nope" in err and "phone-gym tasks" in err
    assert main(["demo", "--task", "NotesPinNot", "--out", str(tmp_path)]) == 2
    assert "did you mean 'NotesPinNote'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_screenshots_one_per_app_and_overview(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["screenshots", "--out", str(tmp_path), "--size", "180", "400"]) == 0
    expected = {"launcher.png", "overview.png", *(f"{app.name.lower()}.png" for app in APPS)}
    assert {p.name for p in tmp_path.iterdir()} == expected
    for name in expected - {"overview.png"}:
        with Image.open(tmp_path / name) as img:
            assert img.size == (180, 400)
    shots = len(APPS) + 1
    columns = min(OVERVIEW_COLUMNS, shots)
    rows = -(-shots // columns)
    with Image.open(tmp_path / "overview.png") as img:  # half size, in rows
        assert img.size == (columns * (90 + 12) - 12, rows * (200 + 12) - 12)
    assert "overview.png" in capsys.readouterr().out


def test_screenshots_of_a_zh_phone_show_its_apps_in_chinese(tmp_path: Path) -> None:
    assert main(["screenshots", "--locale", "zh-CN", "--out", str(tmp_path), "--size", "180",
                 "400"]) == 0
    zh_apps = [app for app in APPS if "zh-CN" in app.manifest.locales]
    assert {"Settings", "TencentDocs", "Yuanbao"} <= {app.name for app in zh_apps}
    assert {p.name for p in tmp_path.iterdir()} == {
        "launcher.png", "overview.png", *(f"{app.name.lower()}.png" for app in zh_apps)}
    en = tmp_path / "en"
    assert main(["screenshots", "--out", str(en), "--size", "180", "400"]) == 0
    for name in ("launcher.png", "settings.png"):  # the same screens, in other words
        with Image.open(tmp_path / name) as zh_img, Image.open(en / name) as en_img:
            assert zh_img.size == en_img.size
            assert (np.asarray(zh_img) != np.asarray(en_img)).any(), name
    assert main(["screenshots", "--locale", "fr-FR", "--out", str(tmp_path)]) == 2


def test_virtual_device_serves_a_phone_until_stopped(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from phone_gym.real.backend import AdbBackend

    def ctrl_c_works() -> None:
        """As from a terminal: a library loaded earlier in this test process may leave
        SIGINT ignored or blocked, and a child inherits both (POSIX exec)."""
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    env = {**os.environ, "ADBUTILS_ADB_PATH": "/bin/false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "phone_gym", "virtual-device", "--port", "0",
         "--serial", "phone-a", "--serial", "phone-b"],
        stdout=subprocess.PIPE, text=True, env=env, preexec_fn=ctrl_c_works)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("virtual adb device: phone-a, phone-b on 127.0.0.1:"), first
        port = int(first.rsplit(":", 1)[1])
        backend = AdbBackend("phone-b", port=port, timeout=5)
        assert backend.shell("getprop ro.product.model").output.strip() == "PhoneWorld"
        assert backend.window_size() == (1080, 2400)
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0  # generous: CI runs this beside other tests


def test_tasks_real_lists_the_real_device_templates(capsys: pytest.CaptureFixture[str]) -> None:
    from phone_gym.cli import main
    from phone_gym.envs.real_phone import REAL_TEMPLATES

    assert main(["tasks", "--real"]) == 0
    out = capsys.readouterr().out
    assert all(task_id in out for task_id in REAL_TEMPLATES)
    assert f"{len(REAL_TEMPLATES)} real-device templates" in out


def test_demo_real_runs_the_scripted_policy_over_adb(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone

    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    with VirtualAdbServer([VirtualPhone()]) as server:
        code = main(["demo", "--real", "--port", str(server.port), "--settle", "0",
                     "--out", str(tmp_path), "--size", "180", "400"])
    assert code == 0
    assert (tmp_path / "demo_SettingsWifiOff_0.gif").exists()


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_line_error(err: str) -> str:
    """The single line a user error prints (``phone-gym: what is wrong: what to do``)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("phone-gym: "), err
    assert "Traceback" not in err
    return lines[0]


def test_demo_real_without_an_adb_server_says_what_to_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # adbutils must not start an adb
    port = closed_port()
    assert main(["demo", "--real", "--port", str(port), "--out", str(tmp_path)]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert f"no adb server at 127.0.0.1:{port}" in line
    assert f"phone-gym virtual-device --port {port}" in line
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("argv", [["demo", "--real", "--debug"], ["--debug", "demo", "--real"]])
def test_debug_adds_the_traceback(argv: list[str], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    assert main([*argv, "--port", str(closed_port()), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "DeviceError" in err
    assert err.strip().splitlines()[-1].startswith("phone-gym: no adb server at")


def test_demo_real_on_a_core_install_names_the_extra(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "adbutils", None)  # import adbutils fails, as uninstalled
    assert main(["demo", "--real", "--port", "5999", "--out", str(tmp_path)]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert "adbutils" in line and 'pip install -e ".[real]"' in line
    assert "phone-gym virtual-device --port 5999" in line


def test_collect_on_a_core_install(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("tqdm", "torch", "transformers"):  # the train extra is not installed
        monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "traj"
    assert main(["collect", "--task", "NotesPinNote", "--episodes", "1", "--num-envs", "1",
                 "--size", "135", "300", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert '"solved": 1' in captured.out and (out / "steps.jsonl").is_file()
    line = one_line_error(captured.err)  # the progress bar it cannot show: a warning
    assert line.startswith("phone-gym: warning: no progress bar: tqdm is not installed")


def test_bad_arguments_are_rejected_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "-1"]) == 2
    assert "argument --seed: '-1' is not accepted: an integer >= 0" in capsys.readouterr().err
    assert main(["demo", "--size", "0", "600"]) == 2
    assert "an integer >= 1" in capsys.readouterr().err
    assert main(["demo", "--real", "--port", "70000"]) == 2
    assert "a port, 1 to 65535" in capsys.readouterr().err
    assert main(["collect", "--episodes", "zero"]) == 2
    assert "'zero' is not accepted" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from phone_gym import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"phone-gym {__version__}"


def test_every_flag_has_plain_help() -> None:
    import argparse

    from phone_gym.cli import build_parser

    def walk(parser: argparse.ArgumentParser, where: str) -> list[str]:
        problems = []
        texts = [parser.description or ""]
        if not parser.description:
            problems.append(f"{where}: no description")
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help:
                problems.append(f"{where} {action.option_strings or action.dest}: no help")
            texts.append(action.help or "")
            if isinstance(action, argparse._SubParsersAction):
                texts += [c.help or "" for c in action._choices_actions]
                problems += [f"{where} {c.dest}: no help" for c in action._choices_actions
                             if not c.help]
                for name, sub in action.choices.items():
                    problems += walk(sub, f"{where} {name}")
        for text in texts:  # plain text: no reStructuredText markup
            if "``" in text or ":func:" in text or ":class:" in text:
                problems.append(f"{where}: markup in {text!r}")
        return problems

    assert walk(build_parser(), "phone-gym") == []


def test_an_out_folder_that_cannot_be_made_fails_before_the_episode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["demo", "--task", "NotesPinNote", "--out", str(blocker / "out")]) == 1
    captured = capsys.readouterr()
    line = one_line_error(captured.err)
    assert line.startswith(f"phone-gym: {blocker / 'out'}: ") and "check the path" in line
    assert "step" not in captured.out


def test_an_unknown_env_id_names_phone_gyms(tmp_path: Path) -> None:
    from phone_gym.cli import describe_error

    with pytest.raises(gym.error.Error) as info:
        gym.make("PhoneWorld-v9")
    code, message = describe_error(info.value)
    assert code == 2 and "PhoneWorld-v0, PhoneWorld-<task id>-v0 or RealPhone-v0" in message
    code, message = describe_error(RuntimeError("boom"))
    assert code == 1 and message == ("unexpected RuntimeError: boom (run again with --debug "
                                     "for the traceback, and report it)")


def test_virtual_device_on_a_busy_port(tmp_path: Path) -> None:
    import subprocess

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "phone_gym", "virtual-device", "--port",
                               str(port)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    line = one_line_error(done.stderr)
    assert f"cannot listen on 127.0.0.1:{port}" in line and "pass another --port" in line
