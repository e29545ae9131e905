"""Acceptance of issue 13: ``phone-gym bench run`` against a fake OpenAI-compatible server on
127.0.0.1 (scripted model outputs: the oracle's actions rendered in the requested format),
2 workers, killed midway and resumed, gives the records of an uninterrupted run; and bad
endpoints (refused, HTTP 500, malformed JSON, a reply with no action) are recorded failures,
never a crash of the run.

The fake server answers as OpenAI's chat completions endpoint does
(https://platform.openai.com/docs/api-reference/chat/object): ``{"id", "object":
"chat.completion", "created", "model", "choices": [{"index", "message": {"role":
"assistant", "content"}, "finish_reason": "stop"}], "usage": {"prompt_tokens",
"completion_tokens", "total_tokens"}}``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import phone_gym  # noqa: F401 - registers the env ids
from phone_gym.actions import PhoneAction, format_action
from phone_gym.bench import read_results, run_bench
from phone_gym.bench.results import TIMING_KEYS

ROOT = Path(__file__).resolve().parents[2]
SUITE = ["ClockDisableAlarm", "ContactsAddContact", "ClockAlarmTimeLookup",
         "ContactsDeleteContactInfeasible"]
SEEDS = 2
SCREEN = (540, 1200)  # the env's default screenshot: (width, height) the model sees


class FakeOpenAI:
    """A chat completions server on 127.0.0.1: ``reply(body) -> (status, raw bytes)`` makes
    each answer; ``requests`` keeps the bodies it got; ``gate`` (set: answer) holds every
    answer while it is clear; ``headers`` the request headers."""

    def __init__(self, reply: Callable[[dict[str, Any]], tuple[int, bytes]]) -> None:
        self.reply = reply
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.gate = threading.Event()
        self.gate.set()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                owner.requests.append(body)
                owner.headers.append(dict(self.headers))
                owner.gate.wait()
                status, raw = (404, b"{}") if self.path != "/v1/chat/completions" else \
                    owner.reply(body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()


def completion(content: Any, prompt_tokens: int = 100, completion_tokens: int = 10) -> bytes:
    """A chat completion body, shaped as OpenAI's."""
    return json.dumps({
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens}}).encode()


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    return next(part["text"] for part in content if part["type"] == "text")


def oracle_script(tasks: list[str], seeds: int) -> dict[str, list[PhoneAction]]:
    """The oracle's actions of each episode, by instruction (run offline)."""
    env = gym.make("PhoneWorld-v0", task=tasks)
    script: dict[str, list[PhoneAction]] = {}
    for task in tasks:
        for seed in range(seeds):
            obs, info = env.reset(seed=seed, options={"task": task})
            actions, done = [], False
            while not done:
                action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
                actions.append(action)
                obs, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            assert info["success"], (task, seed)
            assert obs["instruction"] not in script, "instructions must tell episodes apart"
            script[obs["instruction"]] = actions
    return script


def render(fmt: str) -> Callable[[PhoneAction], str]:
    """How a model of format ``fmt`` writes an action."""
    if fmt == "phone_gym":
        return format_action
    from phone_gym.actions.formats import get_format

    chosen = get_format(fmt)
    return lambda action: chosen.render(action, SCREEN)


def scripted(script: dict[str, list[PhoneAction]], fmt: str
             ) -> Callable[[dict[str, Any]], tuple[int, bytes]]:
    """Answers with the oracle's next action: the episode from the task line, the step from
    how many earlier actions the prompt lists."""
    write = render(fmt)

    def reply(body: dict[str, Any]) -> tuple[int, bytes]:
        text = user_text(body)
        instruction = re.search(r"^Task: (.*)$", text, re.M).group(1)  # type: ignore[union-attr]
        step = len(re.findall(r"^\d+\. ", text, re.M))
        return 200, completion(write(script[instruction][step]), 1000 + step, 12)

    return reply


def bench_command(base_url: str, out: Path, fmt: str = "phone_gym") -> list[str]:
    return [sys.executable, "-m", "phone_gym", "bench", "run", "--suite", ",".join(SUITE),
            "--agent", "openai", "--base-url", base_url, "--model", "fake", "--format", fmt,
            "--seeds", str(SEEDS), "--workers", "2", "--out", str(out), "--no-progress"]


def without_timing(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(({k: v for k, v in r.items() if k not in TIMING_KEYS} for r in records),
                  key=lambda r: (r["task"], r["seed"]))


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.fixture(scope="module")
def script() -> dict[str, list[PhoneAction]]:
    return oracle_script(SUITE, SEEDS)


@pytest.mark.slow  # a sweep of its own: the full tier runs it
def test_killed_and_resumed_run_equals_an_uninterrupted_one(
        tmp_path: Path, script: dict[str, list[PhoneAction]]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with FakeOpenAI(scripted(script, "phone_gym")) as server:
        whole = tmp_path / "whole"
        done = subprocess.run(bench_command(server.base_url, whole), env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert "8 episodes: success 100.0%" in done.stdout

        cut = tmp_path / "cut"
        proc = subprocess.Popen(bench_command(server.base_url, cut), env=env, cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 240
            while lines(cut / "results.jsonl") < 2:
                assert proc.poll() is None, "the run ended before it was killed"
                assert time.monotonic() < deadline
                time.sleep(0.02)
            server.gate.clear()  # hold every answer: the run cannot finish before the kill
            time.sleep(0.3)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers
            proc.wait()
            server.gate.set()
        before = read_results(cut)
        assert 2 <= len(before) < 2 * len(SUITE)
        resumed = subprocess.run(bench_command(server.base_url, cut), env=env, cwd=tmp_path,
                                 capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr

    whole_records, cut_records = read_results(whole), read_results(cut)
    assert len(cut_records) == len(whole_records) == 2 * len(SUITE)
    assert without_timing(cut_records) == without_timing(whole_records)
    # resumed: the episodes finished before the kill were not run again
    kept = {(r["task"], r["seed"]): r["time_s"] for r in before}
    assert all(r["time_s"] == kept[(r["task"], r["seed"])] for r in cut_records
               if (r["task"], r["seed"]) in kept)
    record = whole_records[0]
    assert record["tokens_in"] == sum(1000 + i for i in range(record["steps"]))
    assert record["tokens_out"] == 12 * record["steps"]
    frames = sorted((whole / record["frames"]).glob("step_*.png"))
    assert len(frames) == record["steps"] + 1


def _instructions(task: str) -> set[str]:
    """The instructions of ``task``'s episodes (seeds 0..SEEDS-1)."""
    env = gym.make("PhoneWorld-v0", task=task)
    return {env.reset(seed=seed)[0]["instruction"] for seed in range(SEEDS)}


def _formats() -> list[str]:
    try:
        from phone_gym.actions.formats import FORMATS
    except ImportError:
        return ["phone_gym"]
    return sorted(FORMATS)


@pytest.mark.parametrize("fmt", _formats())
def test_every_format_solves_with_the_oracles_outputs(
        tmp_path: Path, script: dict[str, list[PhoneAction]], fmt: str) -> None:
    from phone_gym.actions import ActionError

    write = render(fmt)

    def sayable(actions: list[PhoneAction]) -> bool:
        try:
            for action in actions:
                write(action)
        except ActionError:  # e.g. glm has no finish(status="infeasible")
            return False
        return True

    unsayable = {i for i, actions in script.items() if not sayable(actions)}
    tasks = [t for t in SUITE if not _instructions(t) & unsayable]
    assert len(tasks) >= 3, (fmt, tasks)
    with FakeOpenAI(scripted(script, fmt)) as server:
        summary = run_bench(",".join(tasks), "openai", seeds=SEEDS, out_dir=tmp_path,
                            agent_options={"base_url": server.base_url, "model": "fake",
                                           "format": fmt},
                            frames=False, progress=False)
        body = server.requests[0]
    assert summary["success_rate"] == 1.0, read_results(tmp_path)
    assert body["model"] == "fake" and body["temperature"] == 0.0 and body["max_tokens"] == 512
    system, user = body["messages"]
    assert system["role"] == "system" and isinstance(system["content"], str)
    image = next(p for p in user["content"] if p["type"] == "image_url")
    assert image["image_url"]["url"].startswith("data:image/png;base64,")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def bad_server(request: pytest.FixtureRequest) -> Iterator[str]:
    kind = request.param
    if kind == "refused":
        yield f"http://127.0.0.1:{_free_port()}/v1"
        return
    replies = {
        "http500": lambda body: (500, b'{"error": {"message": "boom"}}'),
        "malformed": lambda body: (200, b'{"id": "x", "choices": [{"mess'),
        "no_action": lambda body: (200, completion("I am not sure what to do here.")),
        "no_content": lambda body: (200, json.dumps({"object": "chat.completion"}).encode()),
    }
    with FakeOpenAI(replies[kind]) as server:
        yield server.base_url


@pytest.mark.parametrize("bad_server, failure, detail", [
    ("refused", "endpoint", "cannot reach"),
    pytest.param("http500", "endpoint", "HTTP 500", marks=pytest.mark.slow),
    pytest.param("malformed", "endpoint", "malformed JSON", marks=pytest.mark.slow),
    pytest.param("no_content", "endpoint", "no choices[0].message.content",
                 marks=pytest.mark.slow),
    ("no_action", "invalid_actions", "4 invalid actions in a row"),
], indirect=["bad_server"])
def test_bad_endpoints_are_recorded_failures(tmp_path: Path, bad_server: str, failure: str,
                                             detail: str) -> None:
    summary = run_bench("ClockDisableAlarm,ContactsAddContact", "openai", seeds=1,
                        workers=2, out_dir=tmp_path, progress=False,
                        agent_options={"base_url": bad_server, "model": "fake",
                                       "retries": 2, "backoff_s": 0.01, "timeout": 10})
    records = read_results(tmp_path)
    assert summary["episodes"] == len(records) == 2
    assert summary["failures"] == {failure: 2}
    for record in records:
        assert not record["success"] and record["failure"] == failure
        assert detail in record["failure_detail"]


def test_http_500_is_retried_with_back_off(tmp_path: Path,
                                           script: dict[str, list[PhoneAction]]) -> None:
    good = scripted(script, "phone_gym")
    calls = []

    def flaky(body: dict[str, Any]) -> tuple[int, bytes]:
        calls.append(time.monotonic())
        return (503, b"busy") if len(calls) % 3 else good(body)  # 2 failures, then an answer

    with FakeOpenAI(flaky) as server:
        summary = run_bench("ClockDisableAlarm", "openai", seeds=1, out_dir=tmp_path,
                            progress=False, frames=False,
                            agent_options={"base_url": server.base_url, "model": "fake",
                                           "retries": 2, "backoff_s": 0.05})
    assert summary["success_rate"] == 1.0
    steps = read_results(tmp_path)[0]["steps"]
    assert len(calls) == 3 * steps
    assert calls[1] - calls[0] >= 0.05 and calls[2] - calls[1] >= 0.1  # doubling back-off
