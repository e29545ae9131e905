"""Issue 24, "a bench no agent can stop": an agent that hangs in ``act``, one that ends its
process (``os._exit``, a segfault) and one that raises ``SystemExit`` each cost only their
own episode, with 1 and 2 workers (and in this process, for an agent object); resume skips
a crashed episode unless asked to retry it; a killed bench leaves no worker behind."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from phone_gym.bench import read_results, run_bench
from phone_gym.bench.results import RESULTS
from phone_gym.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUITE = "ClockDisableAlarm,ContactsAddContact"
BAD = ("ClockDisableAlarm", 1)  #: the episode the agents below misbehave in, at step 2
CALM = "PHONE_GYM_TEST_CALM"  #: set: the agents below behave
PIDS = "PHONE_GYM_TEST_PIDS"  #: a folder where ``HangsAlways`` notes its worker's pid
RELEASE = threading.Event()  #: set: ``Hangs`` in this process returns (never in a worker)
BOUND_S = 120.0  #: a run that takes longer than this is taken to hang


class Unruly:
    """The oracle, except at the second step of the ``BAD`` episode: ``misbehave()``."""

    def bind(self, env: Any, seed: int) -> None:
        self.env, self.seed = env, seed

    def reset(self, instruction: str, info: Any) -> None:
        self.steps = 0

    def act(self, obs: Any, info: Any) -> tuple[Any, dict[str, Any]]:
        self.steps += 1
        task = self.env.unwrapped.episode.template.id
        if (task, self.seed) == BAD and self.steps == 2 and not os.environ.get(CALM):
            self.misbehave()
        return self.env.unwrapped.oracle_action(), {}

    def misbehave(self) -> None:
        raise NotImplementedError


class Hangs(Unruly):
    def misbehave(self) -> None:
        RELEASE.wait()  # forever in a worker


class Exits(Unruly):
    def misbehave(self) -> None:
        os._exit(3)


class RaisesSystemExit(Unruly):
    def misbehave(self) -> None:
        raise SystemExit(5)


class Segfaults(Unruly):
    def misbehave(self) -> None:
        ctypes.string_at(0)  # reads address 0: SIGSEGV


class HangsAlways(Unruly):
    """Notes its pid in ``$PHONE_GYM_TEST_PIDS``, then hangs in its first ``act``."""

    def act(self, obs: Any, info: Any) -> tuple[Any, dict[str, Any]]:
        (Path(os.environ[PIDS]) / str(os.getpid())).touch()
        threading.Event().wait()
        raise AssertionError("unreachable")


def within(seconds: float, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, failing the test if it has not returned after ``seconds``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"the run did not finish in {seconds:g} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def by_episode(out: Path) -> dict[tuple[str, int], dict[str, Any]]:
    return {(r["task"], r["seed"]): r for r in read_results(out)}


@pytest.mark.parametrize("agent, workers, limits, failure, detail", [
    pytest.param("Hangs", 1, {"time_limit_s": 5}, "time_limit",
                 "ran over the time limit of 5 s", marks=pytest.mark.slow),
    ("Hangs", 2, {"call_timeout_s": 1}, "time_limit", "ran over the call timeout of 1 s"),
    ("Exits", 1, {}, "crash", "the worker process exited with code 3"),
    pytest.param("Exits", 2, {}, "crash", "the worker process exited with code 3",
                 marks=pytest.mark.slow),
    pytest.param("RaisesSystemExit", 1, {}, "crash", "the agent raised SystemExit: 5",
                 marks=pytest.mark.slow),
    ("RaisesSystemExit", 2, {}, "crash", "the agent raised SystemExit: 5"),
    pytest.param("Segfaults", 2, {}, "crash", "killed by signal 11 (SIGSEGV)",
                 marks=pytest.mark.slow),
])
def test_an_unruly_agent_costs_only_its_episode(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str, workers: int,
        limits: dict[str, float], failure: str, detail: str) -> None:
    monkeypatch.delenv(CALM, raising=False)
    summary = within(BOUND_S, run_bench, SUITE, f"{__name__}:{agent}", seeds=2,
                     workers=workers, out_dir=tmp_path, frames=False, progress=False,
                     **limits)
    records = by_episode(tmp_path)
    assert len(records) == summary["episodes"] == 4
    assert not (tmp_path / ".workers").exists()  # the workers' progress files are gone
    bad = records.pop(BAD)
    assert bad["failure"] == failure and not bad["success"], bad
    assert detail in bad["failure_detail"]
    assert bad["steps"] == 1 and bad["actions"][0]["action"] is not None  # sent before
    assert bad["instruction"]
    # an agent's SystemExit leaves the phone scorable; a dead or killed worker does not
    assert bad["verdict"].startswith("not scored") == (agent != "RaisesSystemExit")
    assert all(r["success"] and r["failure"] is None for r in records.values()), records
    assert summary["failures"] == {failure: 1}
    assert summary["crashes"] == int(failure == "crash")
    assert summary["time_limits"] == int(failure == "time_limit")


def test_in_this_process_a_hung_call_is_abandoned_and_system_exit_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker and an agent object: the episodes run here, agent calls in a thread."""
    monkeypatch.delenv(CALM, raising=False)
    try:
        summary = within(BOUND_S, run_bench, SUITE, Hangs(), seeds=2, out_dir=tmp_path / "h",
                         frames=False, progress=False, call_timeout_s=1)
    finally:
        RELEASE.set()  # the abandoned call may end now
    bad = by_episode(tmp_path / "h")[BAD]
    assert summary["failures"] == {"time_limit": 1} and summary["successes"] == 3
    assert "ran over the call timeout of 1 s and was abandoned" in bad["failure_detail"]
    assert bad["steps"] == 1 and bad["verdict"].startswith("not scored")
    summary = run_bench(SUITE, RaisesSystemExit(), seeds=2, out_dir=tmp_path / "s",
                        frames=False, progress=False)
    bad = by_episode(tmp_path / "s")[BAD]
    assert summary["failures"] == {"crash": 1} and summary["successes"] == 3
    assert bad["failure_detail"] == "the agent raised SystemExit: 5"


def test_resume_skips_a_crashed_episode_unless_asked_to_retry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(CALM, raising=False)
    args = ["bench", "run", "--suite", SUITE, "--agent", f"{__name__}:Exits", "--seeds", "2",
            "--out", str(tmp_path), "--no-progress", "--no-frames"]
    assert within(BOUND_S, main, [*args, "--call-timeout", "0"]) == 0  # 0: no call timeout
    assert json.loads((tmp_path / "run.json").read_text())["call_timeout_s"] is None
    printed = capsys.readouterr().out
    assert "failures: crash 1" in printed and "--retry-crashed to rerun them" in printed
    first = (tmp_path / RESULTS).read_text()
    monkeypatch.setenv(CALM, "1")  # the agent would behave now: only a retry shows it
    assert main(args) == 0
    assert (tmp_path / RESULTS).read_text() == first  # nothing ran again
    assert "failures: crash 1" in capsys.readouterr().out
    assert within(BOUND_S, main, [*args, "--retry-crashed"]) == 0
    assert "failures: none" in capsys.readouterr().out
    lines = (tmp_path / RESULTS).read_text()
    assert lines.startswith(first) and lines.count("\n") == first.count("\n") + 1
    assert by_episode(tmp_path)[BAD]["success"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: os.kill's answer stands
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ctrl_c_works() -> None:
    """As from a terminal: a library loaded earlier in this test process may leave SIGINT
    ignored or blocked, and a child inherits both (POSIX exec)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("how", [
    signal.SIGKILL, pytest.param(signal.SIGTERM, marks=pytest.mark.slow),
    pytest.param(signal.SIGINT, marks=pytest.mark.slow)])
def test_a_killed_bench_leaves_no_worker_behind(tmp_path: Path, how: signal.Signals) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    here = str(Path(__file__).resolve().parent)
    env = {**os.environ, PIDS: str(pids),
           "PYTHONPATH": os.pathsep.join([str(ROOT), here, os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "phone_gym", "bench", "run", "--suite", SUITE,
               "--agent", f"{__name__}:HangsAlways", "--workers", "2", "--no-frames",
               "--no-progress", "--out", str(tmp_path / "out")]
    bench = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True,
                             preexec_fn=ctrl_c_works)
    try:
        deadline = time.monotonic() + BOUND_S
        while len(list(pids.iterdir())) < 2:
            assert bench.poll() is None, bench.stderr.read() if bench.stderr else ""
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        workers = [int(p.name) for p in pids.iterdir()]
        assert all(_alive(pid) for pid in workers) and bench.pid not in workers
        bench.send_signal(how)  # the bench alone, not its process group
        bench.wait(90)  # generous: CI runs this beside a full parallel test run
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived the bench"
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
        for pid in (int(p.name) for p in pids.iterdir()):  # a failed test leaves none either
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if bench.stderr is not None:
            bench.stderr.close()
