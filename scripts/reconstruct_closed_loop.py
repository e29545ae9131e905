"""Issue 32's closed loop on seven PhoneWorld apps: record each app's training and held-out
episodes through the virtual device, rebuild from the training traces, replay the held-out
ones, run ``check_task`` on the templates generated for the rebuilt app, and print the
figures (transitions reached, mean element IoU and text overlap, state-change agreement,
templates passing) with a Markdown table of them at the end. Each app's
``rebuilt/fidelity.md`` shows the figures and, with ``--screens N`` (held-out episodes then
recorded with screenshots), N held-out screens beside the rebuilt app's.

    python scripts/reconstruct_closed_loop.py [--out DIR] [--app SUBSTRING] [--seeds N]
        [--screens N]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from phone_gym.reconstruct.fidelity import load_app
from phone_gym.reconstruct.loop import APPS, closed_loop, record_episodes
from phone_gym.testing import CheckFailed, check_task


def templates_passing(folder: str, seeds: int) -> tuple[int, int, list[str]]:
    """How many of the rebuilt app's generated templates pass ``check_task`` on ``seeds``
    seeds, of how many, and their kinds (a failing one's first problem is printed)."""
    module: Any = load_app(folder)
    ok = 0
    for t in module.TEMPLATES:
        try:
            report = check_task(t, seeds, apps=[module.APP])
        except CheckFailed as exc:
            print(f"  {str(exc).splitlines()[0]} {str(exc).splitlines()[1].strip()}")
            continue
        ok += report.solved == seeds and not report.problems
    return ok, len(module.TEMPLATES), sorted(t.spec["kind"] for t in module.TEMPLATES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="folder for traces and rebuilt apps")
    ap.add_argument("--app", default="", help="only the apps whose name holds this")
    ap.add_argument("--seeds", type=int, default=20, help="check_task seeds per template")
    ap.add_argument("--screens", type=int, default=4,
                    help="held-out screens side by side per app in fidelity.md (0: none)")
    args = ap.parse_args()
    if args.screens < 0:
        ap.error("--screens: pass a number >= 0 (0: no screens)")
    root = Path(args.out or tempfile.mkdtemp(prefix="closed-loop-"))
    rows = []
    for i, (app, (train, held)) in enumerate(APPS.items()):
        if args.app not in app:
            continue
        base = root / f"app{i}"
        tr = record_episodes(train, base / "train")
        he = record_episodes(held, base / "held", frames=args.screens > 0)
        rep = closed_loop(tr, he, base / "rebuilt", screens=args.screens)
        rep["templates"] = dict(zip(("passing", "generated", "kinds"),
                                    templates_passing(rep["folder"], args.seeds), strict=True))
        (base / "heldout.json").write_text(json.dumps(rep, indent=1) + "\n")
        rows.append((app, rep))
        print(f"{app}: reached {rep['reached']}/{rep['transitions']} ({rep['rate']:.1%}), "
              f"mean IoU {rep['mean_iou']}, text overlap {rep['mean_text_overlap']}, "
              f"state changes agreeing {rep['changes_agreeing']}/{rep['changes']}, "
              f"templates passing check_task {rep['templates']['passing']}/"
              f"{rep['templates']['generated']} {rep['templates']['kinds']}, "
              f"recovered {rep['recovered']}; {base / 'rebuilt' / 'fidelity.md'}", flush=True)
    print("\n| app | transitions reached | mean IoU | text overlap | state changes agreeing "
          f"| templates passing check_task ({args.seeds} seeds) |\n|---|---|---|---|---|---|")
    for app, rep in rows:
        tp = rep["templates"]
        print(f"| {app} | {rep['reached']}/{rep['transitions']} ({rep['rate']:.0%}) | "
              f"{rep['mean_iou']:.2f} | {rep['mean_text_overlap']:.2f} | "
              f"{rep['changes_agreeing']}/{rep['changes']} | {tp['passing']}/{tp['generated']} "
              f"({', '.join(tp['kinds']) or 'none'}) |")
    print(f"\ntraces and reports under {root}")


if __name__ == "__main__":
    main()
