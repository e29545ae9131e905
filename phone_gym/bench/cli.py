"""``phone-gym bench run|compare|report``: wired into the ``phone-gym`` command."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ..trainer.cli import arg_type, positive_int

positive_float = arg_type(float, lambda v: v > 0, "a number > 0")
port_number = arg_type(int, lambda v: 1 <= v <= 65535, "a port, 1 to 65535")
#: Where a help text names the registered suites (``SuitesHelp`` fills it in).
SUITES = "{suites}"


class SuitesHelp(argparse.HelpFormatter):
    """Help with ``{suites}`` replaced by the registered suite names (``suite_names()``,
    plugins' too), read only when help is shown: building the parser loads no suite."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text and SUITES in text:
            from .suites import suite_names

            text = text.replace(SUITES, ", ".join(suite_names()))
        return text


def cmd_run(args: argparse.Namespace) -> int:
    from .agents import agent_call_s
    from .runner import CALL_TIMEOUT_S, run_bench

    options: dict[str, Any] = {}
    if args.agent == "openai":
        if not args.base_url or not args.model:
            raise ValueError("--agent openai needs --base-url URL (e.g. "
                             "http://127.0.0.1:8000/v1) and --model NAME")
        options = {"base_url": args.base_url, "model": args.model, "format": args.format,
                   "api_key": os.environ.get(args.api_key_env) or None,
                   "concurrency": args.concurrency, "retries": args.retries,
                   "timeout": args.timeout, "max_tokens": args.max_tokens,
                   "temperature": args.temperature}
    elif args.agent == "random":
        options = {"seed": args.agent_seed}
    call_timeout = args.call_timeout
    if call_timeout is None:  # the default: 600 s, longer than the agent's own worst case
        call_timeout = max(CALL_TIMEOUT_S, (agent_call_s(args.agent, options) or 0.0) + 60.0)
    env_kwargs: dict[str, Any] = {}
    if args.suite == "real":
        env_kwargs = {"host": args.host, "port": args.port, "serial": args.serial}
    summary = run_bench(args.suite, args.agent, seeds=args.seeds, workers=args.workers,
                        out_dir=args.out, resume=not args.no_resume,
                        time_limit_s=args.time_limit, max_steps_rule=args.budget_multiplier,
                        agent_options=options, env_kwargs=env_kwargs,
                        frames=not args.no_frames, progress=not args.no_progress,
                        executor=args.executor, record_to=args.record,
                        call_timeout_s=call_timeout or None,
                        retry_crashed=args.retry_crashed)
    cats = ", ".join(f"{k} {v['success_rate']:.0%}" for k, v in summary["by_category"].items())
    fails = ", ".join(f"{k} {v}" for k, v in summary["failures"].items()) or "none"
    print(f"{summary['episodes']} episodes: success {summary['success_rate']:.1%} ({cats}); "
          f"failures: {fails}; tokens {summary['tokens_in']} in, {summary['tokens_out']} out")
    print(f"results in {Path(args.out) / 'results.jsonl'}; "
          f"next: phone-gym bench report {args.out}")
    if summary["crashes"]:
        print(f"{summary['crashes']} episodes crashed (failure_detail says how); run again "
              "with --retry-crashed to rerun them")
    if args.record:
        print(f"trajectories in {args.record} (train sft: --set data.path={args.record})")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from .results import RESULTS, compare, format_compare

    for folder in (args.a, args.b):
        if not (Path(folder) / RESULTS).exists():
            raise ValueError(f"{folder} holds no {RESULTS}: pass the --out folders of two "
                             "phone-gym bench run")
    result = compare(args.a, args.b)
    print(json.dumps(result, indent=2) if args.json else format_compare(result))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .results import RESULTS

    if not (Path(args.dir) / RESULTS).exists():
        raise ValueError(f"{args.dir} holds no {RESULTS}: pass the --out folder of a "
                         "phone-gym bench run")
    try:
        from .report import write_report  # type: ignore[import-not-found, unused-ignore]
    except ModuleNotFoundError as exc:
        if exc.name != "phone_gym.bench.report":
            raise
        raise ValueError("this phone-gym has no HTML report yet (phone_gym.bench.report): "
                         "read summary.json and results.jsonl instead") from None
    path = write_report(Path(args.dir))
    print(f"report written to {path} (open it in a browser)")
    return 0


def add_commands(subparsers: Any, parents: list[argparse.ArgumentParser] | None = None
                 ) -> None:
    """Add ``bench`` (``run``, ``compare``, ``report``) to an argparse subparsers object."""
    parents = parents or []
    bench = subparsers.add_parser(
        "bench", parents=parents, help="evaluate an agent on a suite of tasks",
        description="Evaluate an agent (the oracle, random, a Python function or a model "
                    "behind an OpenAI-compatible endpoint) on a suite of tasks x seeds, in "
                    "parallel, with resume; compare two runs; write an HTML report.")
    sub = bench.add_subparsers(dest="bench_command", required=True, metavar="WHAT",
                               title="what", help="run, compare or report")
    p = sub.add_parser("run", parents=parents, help="run an agent over a suite",
                       formatter_class=SuitesHelp,
                       description="Run an agent over a suite's templates x seeds; records "
                                   "go to OUT/results.jsonl (one line per episode), the "
                                   "summary to OUT/summary.json. Run it again to resume.")
    p.add_argument("--suite", default="phoneworld",
                   help=f"a registered suite ({SUITES}; phoneworld: every PhoneWorld "
                        "template, real: the real-device ones over adb, pwbench*: "
                        "PhoneWorld-Bench's fixed instances) or a comma list of template ids "
                        "(default phoneworld)")
    p.add_argument("--agent", default="oracle",
                   help="oracle, random, openai or module:function (default oracle)")
    p.add_argument("--base-url", default=None,
                   help="with --agent openai: the endpoint, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--model", default=None, help="with --agent openai: the model name")
    p.add_argument("--format", default="phone_gym",
                   help="with --agent openai: the model's action format (phone_gym, "
                        "qwen25vl, qwen3vl, uitars, glm, androidworld; default phone_gym)")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="environment variable holding the API key (default OPENAI_API_KEY)")
    p.add_argument("--concurrency", type=positive_int, default=8,
                   help="requests at once per worker (default 8)")
    p.add_argument("--retries", type=arg_type(int, lambda v: v >= 0, "an integer >= 0"),
                   default=3, help="retries of a failed request (default 3)")
    p.add_argument("--timeout", type=positive_float, default=120.0,
                   help="seconds per request (default 120)")
    p.add_argument("--max-tokens", type=positive_int, default=512,
                   help="max_tokens of a request (default 512)")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="sampling temperature (default 0)")
    p.add_argument("--agent-seed", type=int, default=0, help="seed of --agent random")
    p.add_argument("--seeds", type=positive_int, default=1,
                   help="seeds per template: 0..N-1 (default 1)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="worker processes or Ray tasks at a time (default 1: one worker "
                        "process)")
    p.add_argument("--executor", choices=("processes", "ray"), default="processes",
                   help="run workers as processes (default) or as Ray tasks (the ray "
                        "extra; joins a running cluster with RAY_ADDRESS)")
    p.add_argument("--out", default="out/bench", help="output folder (default out/bench)")
    p.add_argument("--time-limit", type=positive_float, default=None,
                   help="wall-clock seconds per episode; an agent call still running then "
                        "is abandoned (default: none)")
    p.add_argument("--call-timeout", type=arg_type(float, lambda v: v >= 0,
                                                   "seconds >= 0 (0: no limit)"),
                   default=None, metavar="SECONDS",
                   help="seconds one agent call may take before it is abandoned and the "
                        "episode recorded as time_limit; 0: no limit (default 600, or the "
                        "openai agent's --timeout x tries plus 60 s when longer)")
    p.add_argument("--retry-crashed", action="store_true",
                   help="when resuming, run the episodes recorded as crashed again")
    p.add_argument("--budget-multiplier", type=positive_float, default=1.0,
                   help="step budget: each template's max_steps times this (default 1)")
    p.add_argument("--no-resume", action="store_true",
                   help="start over: delete OUT's earlier results and frames")
    p.add_argument("--no-frames", action="store_true", help="save no screenshots")
    p.add_argument("--record", default=None, metavar="DIR",
                   help="also append every episode to DIR in the trainer's trajectory format "
                        "(steps.jsonl plus frames: train sft reads it as data.path; phone-gym "
                        "play --out DIR replays it)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--host", default="127.0.0.1", help="with --suite real: adb server host")
    p.add_argument("--port", type=port_number, default=5037,
                   help="with --suite real: adb server port (default 5037)")
    p.add_argument("--serial", default=None, help="with --suite real: the phone's serial")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("compare", parents=parents, help="compare two runs",
                       description="Per-task success of two runs side by side, their "
                                   "difference and an exact sign test over the seeds.")
    p.add_argument("a", help="the first run's folder")
    p.add_argument("b", help="the second run's folder")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_compare)
    p = sub.add_parser("report", parents=parents, help="write a run's HTML report",
                       description="Write DIR/report/index.html: charts and every episode's "
                                   "frames (opens from disk).")
    p.add_argument("dir", help="the run's folder")
    p.set_defaults(func=cmd_report)
