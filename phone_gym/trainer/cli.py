"""phone-gym collect and phone-gym train sft|grpo --config FILE.

phone_gym.cli wires these in with add_commands(subparsers); this module imports neither
torch nor transformers until a command runs. Each command sets func=run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import socket
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from .formats import FORMATS
from .prompts import REASONS

#: What each optional module is installed with.
EXTRAS: dict[str, str] = {
    "torch": "train", "transformers": "train", "peft": "train", "tokenizers": "train",
    "tqdm": "train", "ray": "ray", "adbutils": "real", "uiautomator2": "real",
}


def missing_extra(modules: list[str], what: str) -> ModuleNotFoundError | None:
    """A ``ModuleNotFoundError`` naming the pip extra that brings the first of ``modules``
    that is not installed (None if all are)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            extra = EXTRAS.get(module, "train")
            exc = ModuleNotFoundError(
                f"{what} needs {module}, which is not installed: pip install "
                f"\"phone-gym[{extra}]\" (in a checkout: pip install -e \".[{extra}]\")")
            exc.name = module
            return exc
    return None


def arg_type(convert: Callable[[str], Any], ok: Callable[[Any], bool],
             accepted: str) -> Callable[[str], Any]:
    """An argparse ``type``: ``convert`` the text, then accept it if ``ok``; otherwise an
    argparse error naming what is ``accepted``."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not accepted: {accepted}")
        return value

    parse.__name__ = accepted  # argparse names the type in some messages
    return parse


positive_int = arg_type(int, lambda v: v > 0, "an integer >= 1")


def _seeds(text: str) -> list[int] | None:
    from .collect import parse_seeds

    return parse_seeds(text) or None


def _formats(text: str) -> list[str] | None:
    names = [n.strip() for n in text.split(",") if n.strip()]
    return names if names and all(n in FORMATS for n in names) else None


seed_list = arg_type(_seeds, lambda v: v is not None,
                     "seeds such as 0-1, 0,3,5 or 0-4,9 (integers >= 0)")
format_list = arg_type(_formats, lambda v: v is not None,
                       f"formats from {', '.join(FORMATS)}, comma-separated")
seed_int = arg_type(int, lambda v: v >= 0, "an integer >= 0")


def add_commands(subparsers: Any, parents: list[argparse.ArgumentParser] | None = None
                 ) -> None:
    """Add ``collect`` and ``train`` to an argparse subparsers object (``parents``: parsers
    whose flags every command takes, such as the command line's --debug)."""
    parents = parents or []
    p = subparsers.add_parser(
        "collect", parents=parents,
        help="solve tasks with the oracle and save the episodes for train sft",
        description="Solve PhoneWorld tasks with the oracle and write the episodes to a "
                    "folder: steps.jsonl (frame paths relative to that folder), frames/*.png "
                    "and a conversations file for other trainers (absolute image paths); "
                    "--format adds datasets for Hugging Face datasets, LLaMA-Factory and TRL. "
                    "train sft reads the folder: data.path in its config "
                    "(or --set data.path=FOLDER). At scale: --tasks all --seeds 0-1 "
                    "--workers 8 (resumable).")
    p.add_argument("--task", action="append", default=None, metavar="ID",
                   help="a template id; repeatable (default: all templates)")
    p.add_argument("--tasks", default=None, metavar="IDS",
                   help="template ids, comma-separated, or 'all': with --seeds, every "
                        "(template, seed) pair is collected once")
    p.add_argument("--seeds", type=seed_list, default=None, metavar="RANGE",
                   help="collect every template (--task/--tasks, default all) on each of "
                        "these seeds (0-1, 0,3,5, 0-4,9): one episode per (template, seed), "
                        "named TEMPLATE-sSEED; a rerun skips the pairs already complete in "
                        "--out (resume); ends with a summary, also written to "
                        "OUT/collect_summary.json. Without it: --episodes random episodes")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="with --seeds: worker processes (default 1)")
    p.add_argument("--format", type=format_list, default=["native"], metavar="FORMATS",
                   help="what to write, comma-separated: native (the trajectory folder, "
                        "always written: train sft reads it), hf (OUT/hf: parquet for "
                        "datasets.load_dataset), sharegpt (OUT/sharegpt: LLaMA-Factory's "
                        "ShareGPT JSON and dataset_info.json), trl (OUT/trl/train.jsonl: "
                        "TRL's conversational messages with images); default native")
    p.add_argument("--reasons", choices=list(REASONS), default="none",
                   help="what the assistant's target holds before the action in the hf, "
                        "sharegpt and trl exports: none (the action alone, default), reason "
                        "(the oracle's reason), reason_and_step (and the step instruction); "
                        "the hf export also has them as columns")
    p.add_argument("--detours", action="store_true",
                   help="with --seeds: the oracle takes recoverable detours (a wrong app "
                        "opened, then left) where the task's budget allows, so the data "
                        "shows recovery")
    p.add_argument("--episodes", type=positive_int, default=16,
                   help="how many episodes to collect (default 16)")
    p.add_argument("--num-envs", type=positive_int, default=4,
                   help="environments run at once (default 4)")
    p.add_argument("--seed", type=seed_int, default=0,
                   help="seed of the episode seeds (an integer >= 0, default 0)")
    p.add_argument("--size", type=positive_int, nargs=2, default=None, metavar=("W", "H"),
                   help="screenshot size in pixels (default 540 1200)")
    p.add_argument("--out", default="out/trajectories",
                   help="folder to write (default out/trajectories)")
    p.add_argument("--conversations", default="llamafactory",
                   choices=["llamafactory", "trl", "none"],
                   help="also write messages+images conversations in this style "
                        "(default llamafactory)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run, trainer_command="collect")
    p = subparsers.add_parser(
        "train", parents=parents, help="train a VLM policy: sft or grpo",
        description="Train a vision-language policy from a run config (TOML or JSON; "
                    "examples in examples/configs). Needs the train extra: "
                    "pip install -e \".[train]\"; a config with a RealPhone-v0 source also "
                    "needs the real extra and a phone (or phone-gym virtual-device).")
    p.add_argument("algorithm", choices=["sft", "grpo", "export", "estimate"],
                   help="sft: supervised fine-tuning on collected episodes; "
                        "grpo: reinforcement learning with the tasks' verifier rewards; "
                        "export RUN_DIR OUT: a run's model (its final/ folder, else its last "
                        "checkpoint, or a checkpoint-N folder) as a Hugging Face folder "
                        "that from_pretrained loads, LoRA merged, in the training dtype; "
                        "estimate: the memory the config needs (parameters, gradients, "
                        "optimizer state, activations), nothing trained")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="export only: RUN_DIR OUT")
    p.add_argument("--config", default=None, metavar="FILE",
                   help="the run config, TOML or JSON (e.g. examples/configs/sft.toml); "
                        "required for sft, grpo and estimate")
    p.add_argument("--resume", default=None, metavar="DIR",
                   help="continue a run from a checkpoint: its out_dir (the last "
                        "checkpoint-N) or a checkpoint-N folder (written every "
                        "checkpoint_every steps/iterations); pass the run's config")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value; repeatable. KEY is a top-level key or a "
                        "dotted one (steps=50, grpo.lr=1e-4, data.path=out/traj, "
                        "sources.real.kwargs.port=5038); a key of grpo's grpo table or "
                        "sft's data table may leave the table out (iterations=3). VALUE is "
                        "a TOML literal (3, 1e-4, true, [64, 128], { lr = 1e-4 }) or plain "
                        "text; a table is merged into the file's table")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bars (the same as --set progress=false)")
    p.add_argument("--micro-batch", type=positive_int, default=1, metavar="N",
                   help="estimate: the micro-batch size of its micro-batched rows (default 1)")
    p.set_defaults(func=run, trainer_command="train")


def real_sources(config: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The ``[[sources]]`` of a config that drive a phone over adb: how ``--set`` names
    them (their ``name``, else their index) and their env kwargs."""
    return [(str(s.get("name", k)), s.get("kwargs") or {})
            for k, s in enumerate(config.get("sources") or [])
            if isinstance(s, Mapping) and str(s.get("env", "")).startswith("RealPhone")]


def adb_hint(name: str, kwargs: Mapping[str, Any]) -> str:
    """What to start for the real-phone source ``name`` (env kwargs ``kwargs``)."""
    port = kwargs.get("port", 5037)
    return (f"connect a phone (adb devices lists it) or start phone-gym virtual-device "
            f"--port {port} (for another port N: --set sources.{name}.kwargs.port=N)")


def check_adb_servers(real: list[tuple[str, Mapping[str, Any]]], timeout: float = 5.0
                      ) -> None:
    """Raise ``DeviceError`` unless an adb server answers at each real-phone source's host
    and port (before the model loads, so that a missing phone fails in seconds)."""
    from ..verifiers.state import DeviceError

    for name, kwargs in real:
        host, port = str(kwargs.get("host", "127.0.0.1")), kwargs.get("port", 5037)
        try:
            with socket.create_connection((host, int(port)), timeout=timeout):
                pass
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise DeviceError(f"the real-phone source {name!r} finds no adb server at "
                              f"{host}:{port} ({reason}): {adb_hint(name, kwargs)}") from None


def run(args: argparse.Namespace) -> int:
    """Run the command ``args`` came from; prints a one-line JSON summary."""
    if args.trainer_command == "collect":
        from .runs import run_collect

        progress = not args.no_progress
        if progress and importlib.util.find_spec("tqdm") is None:
            warnings.warn("no progress bar: tqdm is not installed: pip install tqdm (or pass "
                          "--no-progress)", stacklevel=1)
            progress = False
        obs_size = tuple(args.size) if args.size else None
        tasks = args.tasks if args.tasks is not None else args.task
        if args.seeds is not None:
            from .collect import collect_grid
            from .export import write_formats

            summary = collect_grid(tasks, args.seeds, args.out, workers=args.workers,
                                   obs_size=obs_size, progress=progress,
                                   detours=args.detours)
            extra = [f for f in args.format if f != "native"]
            if extra:
                summary["formats"] = write_formats(args.out, extra, reasons=args.reasons)
        else:
            summary = run_collect(tasks, args.episodes, args.out, num_envs=args.num_envs,
                                  seed=args.seed, obs_size=obs_size,
                                  conversations=None if args.conversations == "none"
                                  else args.conversations, progress=progress,
                                  formats=args.format, reasons=args.reasons)
        summary["out"] = args.out
    elif args.algorithm == "export":
        if len(args.paths) != 2:
            raise ValueError("phone-gym train export needs RUN_DIR OUT, e.g. phone-gym train "
                             "export runs/sft out/model")
        error = missing_extra(["torch", "transformers"], "phone-gym train export")
        if error is not None:
            raise error
        from .checkpoint import export_model

        summary = export_model(*args.paths)
    else:
        from .config import ConfigError, apply_overrides, load_config

        error = missing_extra(["torch", "transformers", "tqdm"],
                              f"phone-gym train {args.algorithm}")
        if error is not None:
            raise error
        if args.paths:
            raise ConfigError(f"phone-gym train {args.algorithm} takes no PATH (given "
                              f"{' '.join(args.paths)}): pass --config FILE")
        if args.config is None:
            example = "sft" if args.algorithm == "estimate" else args.algorithm
            raise ConfigError(f"phone-gym train {args.algorithm} needs --config FILE (e.g. "
                              f"examples/configs/{example}.toml)")
        if args.algorithm == "estimate":
            from .estimate import estimate, format_estimate

            raw = load_config(args.config)
            kind = "grpo" if "sources" in raw or "grpo" in raw else "sft"
            result = estimate(apply_overrides(raw, args.set, kind), kind,
                              micro_batch=args.micro_batch)
            print(format_estimate(result))
            return 0
        config = apply_overrides(load_config(args.config), args.set, args.algorithm)
        if args.no_progress:
            config["progress"] = False
        real = real_sources(config)
        if real:
            names = ", ".join(repr(name) for name, _ in real)
            error = missing_extra(["adbutils"], f"the real-phone source {names} of this config")
            if error is not None:
                name, kwargs = real[0]
                raise ModuleNotFoundError(
                    f"{error}; it also needs a phone, or the virtual device: "
                    f"{adb_hint(name, kwargs)}") from None
            check_adb_servers(real)
        if args.algorithm == "grpo" and config.get("ray_workers"):
            error = missing_extra(["ray"], "ray_workers")
            if error is not None:
                raise error
        from .runs import run_grpo, run_sft

        summary = (run_sft if args.algorithm == "sft" else run_grpo)(config,
                                                                     resume=args.resume)
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
