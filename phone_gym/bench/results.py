"""Bench results: the record of an episode, ``results.jsonl``, ``summary.json`` and
``compare``.

A run folder holds ``results.jsonl`` (one JSON object per finished episode, keys
``RECORD_KEYS``, appended one line at a time and fsynced, so an interrupted run loses at
most the line it was writing), ``summary.json`` (``summarize``) and ``run.json`` (the
run's settings). Failure reasons (``FAILURES``): "wrong_answer" (the agent ended the
episode, with ``answer`` or ``finish``, and the verifier says no), "budget" (the step budget
ran out), "invalid_actions" (more than the limit of invalid actions in a row, or every
action invalid), "crash" (an exception in the agent or the env, ``SystemExit`` too:
``failure_detail`` is the traceback's last line; or the worker process died: its exit code
or signal), "endpoint" (the model endpoint failed after its retries), "time_limit" (the
episode's wall-clock limit ran out, or an agent call overran its deadline and was
abandoned); None on success. An episode cut short in a dead or killed worker is not scored
(its ``verdict`` says so).
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
RUN = "run.json"
FAILURES: tuple[str, ...] = ("wrong_answer", "budget", "invalid_actions", "crash", "endpoint",
                             "time_limit")
RECORD_KEYS: tuple[str, ...] = (
    "suite", "task", "seed", "apps", "category", "difficulty", "success", "reward", "steps",
    "max_steps", "tokens_in", "tokens_out", "latency_s", "time_s", "failure", "failure_detail",
    "instruction", "verdict", "frames", "actions")
#: Fields that depend on the wall clock (left out when two runs are compared for equality).
TIMING_KEYS: tuple[str, ...] = ("latency_s", "time_s")


def read_results(run_dir: str | Path) -> list[dict[str, Any]]:
    """The records of ``run_dir/results.jsonl`` (a torn last line, from an interrupted
    write, is skipped; a later record of the same (task, seed) replaces an earlier one)."""
    path = Path(run_dir) / RESULTS
    if not path.exists():
        return []
    records: dict[tuple[str, int], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "task" in record and "seed" in record:
            records[(record["task"], record["seed"])] = record
    return list(records.values())


class ResultsWriter:
    """Appends records to ``results.jsonl``: one line each, flushed and fsynced. Opening
    cuts a torn last line (a write an interruption cut short) so the next record starts on
    a line of its own."""

    def __init__(self, run_dir: str | Path) -> None:
        self.path = Path(run_dir) / RESULTS
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            data = self.path.read_bytes()
            if data and not data.endswith(b"\n"):
                with open(self.path, "r+b") as f:
                    f.truncate(data.rfind(b"\n") + 1)
        self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def write(self, record: Mapping[str, Any]) -> None:
        self.file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _rate(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    n = len(records)
    wins = sum(bool(r["success"]) for r in records)
    return {"episodes": n, "successes": wins, "success_rate": wins / n if n else 0.0}


def summarize(records: Sequence[Mapping[str, Any]], suite: str, agent: str) -> dict[str, Any]:
    """``summary.json``: success overall and by app (a cross-app episode counts for each of
    its apps), category and difficulty; tokens, time, the failure reasons, and the counts
    of crashes and time limits (also 0)."""
    by_app: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    by_category: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    by_difficulty: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    failures: dict[str, int] = defaultdict(int)
    for r in records:
        for app in r["apps"]:
            by_app[app].append(r)
        by_category[r["category"]].append(r)
        by_difficulty[str(r["difficulty"])].append(r)
        if r["failure"]:
            failures[r["failure"]] += 1
    overall = _rate(records)
    return {
        "suite": suite, "agent": agent, "episodes": overall["episodes"],
        "successes": overall["successes"], "success_rate": overall["success_rate"],
        "by_app": {k: _rate(v) for k, v in sorted(by_app.items())},
        "by_category": {k: _rate(v) for k, v in sorted(by_category.items())},
        "by_difficulty": {k: _rate(v) for k, v in sorted(by_difficulty.items())},
        "failures": dict(sorted(failures.items())),
        "crashes": failures.get("crash", 0), "time_limits": failures.get("time_limit", 0),
        "tokens_in": sum(int(r["tokens_in"]) for r in records),
        "tokens_out": sum(int(r["tokens_out"]) for r in records),
        "time_s": round(sum(float(r["time_s"]) for r in records), 3),
    }


def sign_test(wins_a: int, wins_b: int) -> float:
    """Two-sided exact sign test (binomial, p = 1/2) on the discordant pairs: ``wins_a``
    pairs only A solved, ``wins_b`` only B. 1.0 when there are none."""
    n = wins_a + wins_b
    if n == 0:
        return 1.0
    k = min(wins_a, wins_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _paired(a: Iterable[Mapping[str, Any]], b: Iterable[Mapping[str, Any]]
            ) -> dict[str, list[tuple[bool, bool]]]:
    """Per task, the (A success, B success) of each seed both runs hold."""
    rb = {(r["task"], r["seed"]): bool(r["success"]) for r in b}
    pairs: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for r in sorted(a, key=lambda r: (r["task"], r["seed"])):
        key = (r["task"], r["seed"])
        if key in rb:
            pairs[r["task"]].append((bool(r["success"]), rb[key]))
    return pairs


def compare(a: str | Path | Sequence[Mapping[str, Any]],
            b: str | Path | Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Two runs side by side over the (task, seed) episodes both hold: per task the success
    rates, their difference (B - A) and an exact sign test over seeds (paired: the seeds
    only one run solved); the same over all tasks. ``a``/``b``: run folders or records."""
    ra = read_results(a) if isinstance(a, (str, Path)) else list(a)
    rb = read_results(b) if isinstance(b, (str, Path)) else list(b)
    pairs = _paired(ra, rb)
    if not pairs:
        raise ValueError("the two runs share no (task, seed) episode: compare runs of one "
                         "suite and seeds")

    def row(items: list[tuple[bool, bool]]) -> dict[str, Any]:
        n = len(items)
        sa, sb = sum(x for x, _ in items), sum(y for _, y in items)
        only_a = sum(x and not y for x, y in items)
        only_b = sum(y and not x for x, y in items)
        return {"seeds": n, "success_a": sa / n, "success_b": sb / n,
                "diff": (sb - sa) / n, "only_a": only_a, "only_b": only_b,
                "p_value": sign_test(only_a, only_b)}

    tasks = {task: row(items) for task, items in sorted(pairs.items())}
    everything = [p for items in pairs.values() for p in items]
    return {"a": str(a) if isinstance(a, (str, Path)) else "A",
            "b": str(b) if isinstance(b, (str, Path)) else "B",
            "tasks": tasks, "overall": row(everything),
            "only_in_a": len(ra) - len(everything), "only_in_b": len(rb) - len(everything)}


def format_compare(result: Mapping[str, Any]) -> str:
    """``compare``'s result as a table: one line per task, then the overall line."""
    width = max(24, *(len(t) for t in result["tasks"]))
    lines = [f"A: {result['a']}", f"B: {result['b']}",
             f"{'task':{width}} {'seeds':>5} {'A':>6} {'B':>6} {'B-A':>7} {'p':>7}"]

    def line(name: str, r: Mapping[str, Any]) -> str:
        return (f"{name:{width}} {r['seeds']:>5} {r['success_a']:>6.0%} {r['success_b']:>6.0%} "
                f"{r['diff']:>+7.0%} {r['p_value']:>7.3f}")

    lines += [line(task, r) for task, r in result["tasks"].items()]
    lines.append(line("overall", result["overall"]))
    lines.append("p: two-sided exact sign test over the seeds only one run solved")
    if result["only_in_a"] or result["only_in_b"]:
        lines.append(f"not compared: {result['only_in_a']} episodes only in A, "
                     f"{result['only_in_b']} only in B")
    return "\n".join(lines)
