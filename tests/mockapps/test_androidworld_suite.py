"""The AndroidWorld suite as data (116 tasks, counts as in the catalog, mapped ids that
exist), its protocol in ``PhoneWorld-v0`` (``suite=``), ``phone-gym tasks --suite`` and bench,
and ``docs/androidworld.md`` kept up to date."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import gymnasium as gym
import pytest

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.bench.results import read_results
from phone_gym.bench.runner import _budget, run_bench
from phone_gym.bench.suites import resolve_suite
from phone_gym.cli import main
from phone_gym.mockapps import TEMPLATES
from phone_gym.suites import SUITES, get_suite
from phone_gym.suites.androidworld import androidworld_doc, step_budget

DOC = Path(__file__).resolve().parents[2] / "docs" / "androidworld.md"
AW = SUITES["androidworld"]

#: Tasks per app group, from the catalog's table (Simple Calendar Pro: 8 + 9 IR).
GROUPS = {"Audio Recorder": 2, "Chrome": 3, "Camera": 2, "Clock": 3, "Contacts": 2,
          "Pro Expense": 9, "Files": 2, "Markor": 14, "OsmAnd": 3, "Broccoli": 13,
          "Retro Music": 4, "Simple Draw Pro": 1, "Simple Gallery Pro": 1,
          "Simple SMS Messenger": 6, "System": 16, "VLC": 2, "Simple Calendar Pro": 17,
          "Tasks": 6, "OpenTracks": 6, "Joplin": 4}
IR = {"Simple Calendar Pro": 9, "Tasks": 6, "OpenTracks": 6, "Joplin": 4}


def test_the_catalog_is_complete() -> None:
    names = [t.name for t in AW.tasks]
    assert len(names) == 116 and len(set(names)) == 116
    assert Counter(t.app for t in AW.tasks) == GROUPS
    assert Counter(t.difficulty for t in AW.tasks) == {"easy": 61, "medium": 36, "hard": 19}
    assert Counter(t.app for t in AW.tasks if t.information_retrieval) == IR
    assert sum(t.information_retrieval for t in AW.tasks) == 25
    by_name = {t.name: t for t in AW.tasks}
    merge = by_name["MarkorMergeNotes"]
    assert (merge.difficulty, merge.complexity, merge.optimal_steps) == ("hard", 7.8, 39)
    assert by_name["ExpenseAddMultipleFromMarkor"].apps == ("Pro Expense", "Markor")
    assert by_name["MarkorTranscribeVideo"].apps == ("VLC", "Markor")
    assert by_name["NotesIsTodo"].apps == ("Joplin",)
    assert all(t.differs for t in AW.tasks)


def test_mapped_ids_exist_and_mean_the_same() -> None:
    assert AW.template_ids and set(AW.template_ids) <= set(TEMPLATES)
    pairs = {t.name: t.counterpart for t in AW.mapped}
    assert pairs["SystemWifiTurnOff"] == "SettingsWifiOff"
    assert pairs["SystemBluetoothTurnOn"] == "SettingsBluetoothOn"
    # a switch that already has its value is not the same task as turning it
    assert pairs.get("SystemWifiTurnOffVerify") != "SettingsWifiOff"
    assert not any(TEMPLATES[i].infeasible for i in AW.template_ids)
    assert AW.coverage == (len(pairs), 116)


def test_protocol_date_and_budget() -> None:
    assert AW.device_date == datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc)
    by_name = {t.name: t for t in AW.tasks}
    assert step_budget(by_name["ContactsAddContact"]) == 12  # complexity 1.2
    assert step_budget(by_name["OsmAndTrack"]) == 120
    assert AW.budgets()["FilesDeleteFile"] == 22  # complexity 2.2


def test_env_samples_only_mapped_templates_with_the_suite_budget() -> None:
    env = gym.make("PhoneWorld-v0", suite="androidworld", screenshot=False)
    try:
        assert env.unwrapped.suite_coverage == AW.coverage  # type: ignore[attr-defined]
        seen = set()
        for seed in range(30):
            _, info = env.reset(seed=seed)
            task_id = env.unwrapped.episode.template.id  # type: ignore[attr-defined]
            seen.add(task_id)
            assert info["max_steps"] == AW.budgets()[task_id]
        assert seen <= set(AW.template_ids) and len(seen) > 1
    finally:
        env.close()
    env = gym.make("PhoneWorld-v0", suite="androidworld", max_steps=7, screenshot=False)
    try:
        assert env.reset(seed=0)[1]["max_steps"] == 7
    finally:
        env.close()


def test_env_refuses_bad_suite_arguments() -> None:
    with pytest.raises(ValueError, match="one of them"):
        gym.make("PhoneWorld-v0", suite="androidworld", task="SettingsWifiOff")
    with pytest.raises(ValueError, match="did you mean 'androidworld'"):
        gym.make("PhoneWorld-v0", suite="android_world")
    with pytest.raises(ValueError, match="accepted: androidworld"):
        get_suite("nope")


def test_cli_lists_116_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--suite", "androidworld"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = lines[1:-1]
    assert len(rows) == 116
    assert lines[-1] == f"{len(AW.mapped)} of 116 mapped"
    wifi = next(r for r in rows if r.split()[0] == "SystemWifiTurnOn")
    assert wifi.split()[-1] == "SettingsWifiOn"
    for task in AW.tasks:
        row = next(r for r in rows if r.split()[0] == task.name)
        assert row.split()[-1] == (task.counterpart or "yet")  # "not yet"
    assert main(["tasks", "--suite", "androidwrld"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "did you mean 'androidworld'" in err


def test_bench_suite_is_the_mapped_templates_with_the_suite_budgets() -> None:
    suite = resolve_suite("androidworld")
    assert suite.env_id == "PhoneWorld-v0" and suite.task_ids == AW.template_ids
    assert suite.budgets == AW.budgets() and suite.env_kwargs == {"suite": "androidworld"}
    assert _budget("FilesDeleteFile", 1.0, suite) == 22  # 10 x complexity 2.2
    assert _budget("FilesDeleteFile", 1.5, suite) == 33
    assert _budget("FilesDeleteFile", 1.0) == TEMPLATES["FilesDeleteFile"].max_steps


def test_bench_runs_the_suite_at_its_date_and_budgets(tmp_path: Path) -> None:
    summary = run_bench("androidworld", "oracle", seeds=1, out_dir=tmp_path, frames=False,
                        progress=False)
    assert summary["success_rate"] == 1.0
    records = {r["task"]: r for r in read_results(tmp_path)}
    assert set(records) == set(AW.template_ids)
    assert all(r["max_steps"] == AW.budgets()[t] for t, r in records.items())


def test_suite_episodes_start_at_the_device_date() -> None:
    env = gym.make("PhoneWorld-v0", suite="androidworld", screenshot=False)
    try:
        for seed in range(3):
            env.reset(seed=seed)
            device = env.unwrapped.episode.device  # type: ignore[attr-defined]
            assert device.system.now == datetime(2023, 10, 15, 15, 34)
    finally:
        env.close()


def test_the_page_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == androidworld_doc(), (
        "docs/androidworld.md is out of date: run "
        "`python -m phone_gym.suites docs/androidworld.md`")
    text = DOC.read_text(encoding="utf-8")
    for t in AW.tasks:
        assert f"| `{t.name}` |" in text


def test_the_suites_module_answers_help_and_refuses_unknown_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m phone_gym.suites --help`` printed nothing and wrote a file named --help."""
    from phone_gym.suites.__main__ import main as suites_main

    monkeypatch.chdir(tmp_path)
    assert suites_main(["--help"]) == 0 and "docs/androidworld.md" in capsys.readouterr().out
    assert suites_main(["--bogus"]) == 2 and "--help" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
