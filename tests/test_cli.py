from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from phone_gym.cli import main
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


def test_demo_saves_gif_and_final_png(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["demo", "--out", str(tmp_path), "--task", "NotesPinNote",
                 "--size", "270", "600"])
    assert code == 0
    assert "SUCCESS" in capsys.readouterr().out
    gifs = list(tmp_path.glob("demo_NotesPinNote_*.gif"))
    pngs = list(tmp_path.glob("demo_NotesPinNote_*_final.png"))
    assert len(gifs) == 1 and len(pngs) == 1
    with Image.open(gifs[0]) as gif:
        assert gif.size == (270, 600)
        assert gif.n_frames > 2
    with Image.open(pngs[0]) as png:
        assert png.size == (270, 600)


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
    with Image.open(tmp_path / "overview.png") as img:
        assert img.height == 400 and img.width > 180 * len(APPS)
    assert "overview.png" in capsys.readouterr().out


def test_virtual_device_serves_a_phone_until_stopped(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from phone_gym.real.backend import AdbBackend

    env = {**os.environ, "ADBUTILS_ADB_PATH": "/bin/false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "phone_gym", "virtual-device", "--port", "0",
         "--serial", "phone-a", "--serial", "phone-b"],
        stdout=subprocess.PIPE, text=True, env=env)
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
        assert proc.wait(timeout=10) == 0


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
