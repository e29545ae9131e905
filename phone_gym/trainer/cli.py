"""``phone-gym collect`` and ``phone-gym train sft|grpo --config FILE``.

``phone_gym.cli`` wires these in with ``add_commands(subparsers)``; this module imports
neither torch nor transformers until a command runs. Each command sets ``func=run``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any


def add_commands(subparsers: Any) -> None:
    """Add ``collect`` and ``train`` to an argparse subparsers object."""
    p = subparsers.add_parser("collect", help="oracle trajectories as JSONL + PNG frames")
    p.add_argument("--task", default=None, help="template id (default: all templates)")
    p.add_argument("--episodes", type=int, default=16)
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", type=int, nargs=2, default=None, metavar=("W", "H"),
                   help="screenshot size (default 540 x 1200)")
    p.add_argument("--out", default="out/trajectories")
    p.add_argument("--conversations", default="llamafactory",
                   choices=["llamafactory", "trl", "none"],
                   help="also write messages+images conversations in this style")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=run, trainer_command="collect")
    p = subparsers.add_parser("train", help="train a VLM policy: sft or grpo")
    p.add_argument("algorithm", choices=["sft", "grpo"])
    p.add_argument("--config", required=True, help="JSON or TOML run config")
    p.add_argument("--set", action="append", default=[], metavar="KEY=JSON",
                   help="override a top-level config key, e.g. --set steps=50")
    p.set_defaults(func=run, trainer_command="train")


def _overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set {item!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def run(args: argparse.Namespace) -> int:
    """Run the command ``args`` came from; prints a one-line JSON summary."""
    if args.trainer_command == "collect":
        from .runs import run_collect

        summary = run_collect(args.task, args.episodes, args.out, num_envs=args.num_envs,
                              seed=args.seed, obs_size=tuple(args.size) if args.size else None,
                              conversations=None if args.conversations == "none"
                              else args.conversations, progress=not args.no_progress)
        summary["out"] = args.out
    else:
        from .config import load_config
        from .runs import run_grpo, run_sft

        missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
        if missing:
            print(f"phone-gym train needs {', '.join(missing)}: pip install -e \".[train]\"",
                  file=sys.stderr)
            return 2
        config = {**load_config(args.config), **_overrides(args.set)}
        summary = (run_sft if args.algorithm == "sft" else run_grpo)(config)
    print(json.dumps(summary))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry point (``python -m phone_gym.trainer.cli ...``)."""
    parser = argparse.ArgumentParser(prog="phone-gym", description=__doc__)
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
