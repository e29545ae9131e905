"""``phone-gym record --real`` and ``phone-gym reconstruct``: their flags and what they run
(the heavy imports load when a command runs)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..trainer.cli import arg_type, missing_extra, positive_int

__all__ = ["add_commands", "cmd_record", "cmd_reconstruct", "cmd_import", "import_argv"]

_port = arg_type(int, lambda v: 1 <= v <= 65535, "a port, 1 to 65535")
_seconds = arg_type(float, lambda v: v >= 0, "seconds >= 0")


def cmd_record(args: argparse.Namespace) -> int:
    if not args.real:
        raise ValueError("pass --real: phone-gym record records a phone over adb (a phone "
                         "listed by adb devices, or phone-gym virtual-device)")
    error = missing_extra(["adbutils"], "phone-gym record --real")
    if error is not None:
        raise error
    from ..mockapps import REGISTRY
    from ..real.backend import AdbBackend
    from ..real.packages import app_packages
    from .recorder import Recorder, read_actions
    from .trace import TRACE_FILE

    out = Path(args.out)
    if (out / TRACE_FILE).exists():
        raise ValueError(f"{out / TRACE_FILE} exists already: pick another --out")
    actions = read_actions(Path(args.actions)) if args.actions else None
    backend = AdbBackend(args.serial, host=args.host, port=args.port)
    recorder = Recorder(backend, out, frames=not args.no_frames)
    if actions is not None:
        if args.max_steps is not None:
            actions = actions[:max(0, args.max_steps - 1)]
        recorder.drive(actions, app_packages(None, REGISTRY.package_map()), settle=args.settle)
    else:
        print(f"recording {backend.serial} to {out}: use the phone; Ctrl-C stops", flush=True)
        try:
            recorder.watch(max_steps=args.max_steps, poll=args.poll)
        except KeyboardInterrupt:
            pass
    inferred = sum(s.source == "inferred" for s in recorder.steps)
    print(f"recorded {len(recorder.steps)} steps ({inferred} actions inferred) to {out}; "
          f"next: phone-gym reconstruct {out} --out DIR")
    return 0


def cmd_reconstruct(args: argparse.Namespace) -> int:
    from . import reconstruct

    rep: dict[str, Any] = reconstruct(args.traces, args.out, package=args.package,
                                      name=args.name, label=args.label,
                                      app_package=args.app_package)
    r = rep["replay"]
    print(f"rebuilt {rep['app']['name']} ({rep['app']['package']}) in {rep['folder']}: "
          f"{rep['screens']} screens, {rep['links']} links")
    print(f"transitions replayed: {r['replayed']}/{r['transitions']} ({r['rate']:.1%}); "
          f"report: {Path(args.out) / 'fidelity.md'}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .importers import import_traces

    tally = import_traces(args.format, args.src, args.out, limit=args.limit)
    print(f"imported {tally.line()} to {args.out}; next: phone-gym reconstruct {args.out} "
          "--out DIR")
    return 0


def import_argv(argv: list[str]) -> list[str]:
    """``reconstruct import ...`` as the ``reconstruct-import`` subcommand (``reconstruct``'s
    positionals are trace folders, so ``import`` cannot be its subparser)."""
    if argv[:2] == ["reconstruct", "import"]:
        return ["reconstruct-import", *argv[2:]]
    return argv


def add_commands(sub: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Add ``record`` and ``reconstruct`` to the ``phone-gym`` subcommands."""
    p = sub.add_parser("record", parents=parents,
                       help="record a trace from a phone over adb (screens, UI dumps, actions)",
                       description="Record a trace from a phone over adb: at each change the "
                                   "screenshot, the uiautomator dump, the app and activity in "
                                   "front, and the action (inferred from consecutive dumps, "
                                   "or run from --actions). Needs the real extra.")
    p.add_argument("--real", action="store_true",
                   help="record a phone over adb (required: a phone or phone-gym "
                        "virtual-device)")
    p.add_argument("--out", required=True, help="folder the trace is written to")
    p.add_argument("--actions", default=None,
                   help="a JSONL of actions to run and record, one per line (e.g. "
                        '{"action": "click", "x": 500, "y": 300}); default: watch a person')
    p.add_argument("--max-steps", type=positive_int, default=None,
                   help="stop after this many recorded steps (default: until Ctrl-C)")
    p.add_argument("--poll", type=_seconds, default=0.5,
                   help="seconds between two looks at an unchanged screen (default 0.5)")
    p.add_argument("--settle", type=_seconds, default=0.5,
                   help="seconds to let the phone settle after each --actions action "
                        "(default 0.5)")
    p.add_argument("--no-frames", action="store_true",
                   help="do not save screenshots (only UI dumps)")
    p.add_argument("--host", default="127.0.0.1", help="adb server host (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=5037, help="adb server port (default 5037)")
    p.add_argument("--serial", default=None,
                   help="phone serial (default: the only phone attached)")
    p.set_defaults(func=cmd_record)
    p = sub.add_parser("reconstruct", parents=parents,
                       help="rebuild a PhoneWorld app skeleton from recorded traces",
                       description="Rebuild a runnable PhoneWorld app from traces written by "
                                   "phone-gym record: screens from the UI dumps, links from "
                                   "the transitions, list rows as seeded records, a manifest; "
                                   "then replay the traces in it and write fidelity.json and "
                                   "fidelity.md. (phone-gym reconstruct import turns public "
                                   "datasets into traces.)")
    p.add_argument("traces", nargs="+", metavar="TRACES",
                   help="trace folders (or folders holding trace folders)")
    p.add_argument("--out", required=True,
                   help="folder for the app package (pyproject.toml, the app folder, the "
                        "fidelity report)")
    p.add_argument("--package", default=None,
                   help="the Android package to rebuild (default: the one the traces show most)")
    p.add_argument("--name", default=None,
                   help="the app's name, CamelCase (default: from the package)")
    p.add_argument("--label", default=None, help="the app's label (default: its name)")
    p.add_argument("--app-package", default=None,
                   help="the rebuilt app's own Android package (default: the recorded one; "
                        "give another to install it beside an app that has that package)")
    p.set_defaults(func=cmd_reconstruct)
    from .importers import FORMATS

    p = sub.add_parser("reconstruct-import", parents=parents,
                       help="import a public GUI-trace dataset as traces "
                            "(phone-gym reconstruct import)",
                       description="Convert episodes of a public phone GUI-trace dataset into "
                                   "phone-gym record's trace folders (one per episode): "
                                   "screenshots, UI dumps, actions on the [0, 1000] grid. "
                                   "Run as: phone-gym reconstruct import --format F SRC OUT.")
    p.add_argument("--format", required=True, choices=sorted(FORMATS),
                   help="; ".join(f"{k}: {v[2]}" for k, v in FORMATS.items()))
    p.add_argument("src", metavar="SRC", help="the dataset's files (see --format)")
    p.add_argument("out", metavar="OUT", help="folder the trace folders are written to")
    p.add_argument("--limit", type=positive_int, default=None,
                   help="import at most this many episodes (default: all)")
    p.set_defaults(func=cmd_import)
