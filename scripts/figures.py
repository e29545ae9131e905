"""Regenerate the figures committed under ``docs/`` (the README's and the docs site's), each
from the command that draws it. ``tests/test_figures.py`` runs every figure into a temporary
folder and compares its pixels with the committed files, so a change of look fails there
until the figures are drawn again::

    python scripts/figures.py                  # every figure, into docs/
    python scripts/figures.py screenshots      # some of them (--list names them)
    python scripts/figures.py --root DIR       # write DIR/docs/... instead

The phone's pixels come from the package's fonts only (``PHONE_GYM_NO_SYSTEM_FONTS=1``), so
a figure is the same on every machine. The browser figures (``play``, ``bench-report``) need
Playwright and the system's Chromium (``/usr/bin/chromium``, never a downloaded browser).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The demo GIFs' screen size (half the demo's default), as the README shows them.
GIF_SIZE = ("270", "600")


@dataclass(frozen=True)
class Figure:
    """A figure: its ``name``, what it shows, the files it writes (globs, relative to the
    root), whether it needs the browser, and ``draw(root)``, which writes them."""

    name: str
    what: str
    files: tuple[str, ...]
    draw: Callable[[Path], None]
    browser: bool = False


def environment() -> dict[str, str]:
    """The environment figures are drawn in: the package's fonts only, this checkout first."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return {**os.environ, "PHONE_GYM_NO_SYSTEM_FONTS": "1", "PYTHONPATH": path}


def run(*argv: str) -> None:
    """Run a command (``python -m phone_gym ...`` and the like) in ``environment()``."""
    subprocess.run([sys.executable, *argv], check=True, cwd=ROOT, env=environment(),
                   stdout=subprocess.DEVNULL)


def screenshots(root: Path) -> None:
    run("-m", "phone_gym", "screenshots", "--out", str(root / "docs" / "screenshots"))


def screenshots_zh(root: Path) -> None:
    """``phone-gym screenshots --locale zh-CN``'s overview: the launcher and every app that
    declares zh-CN, on a Chinese phone."""
    with tempfile.TemporaryDirectory() as tmp:
        run("-m", "phone_gym", "screenshots", "--locale", "zh-CN", "--out", tmp)
        target = root / "docs" / "images" / "overview_zh.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(tmp) / "overview.png", target)


def demo_gif(task: str, seed: int, name: str) -> Callable[[Path], None]:
    """``phone-gym demo --task TASK --seed SEED --size 270 600``'s GIF, saved as ``name``."""

    def draw(root: Path) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            run("-m", "phone_gym", "demo", "--task", task, "--seed", str(seed), "--size",
                *GIF_SIZE, "--out", tmp)
            target = root / "docs" / "images" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / f"demo_{task}_{seed}.gif", target)

    return draw


def fidelity(root: Path) -> None:
    run("-m", "phone_gym.docgen.fidelity", "--write", "--root", str(root))


def set_of_marks(root: Path) -> None:
    run("-m", "phone_gym.envs.marks", "--out", str(root / "docs" / "images" / "set_of_marks.png"))


def reconstruct_heldout(root: Path) -> None:
    """Contacts rebuilt and replayed by ``scripts/reconstruct_closed_loop.py``: the held-out
    screen after a save beside the rebuilt app's (its ``fidelity.md``'s Held-out screens)."""
    with tempfile.TemporaryDirectory() as tmp:
        run(str(ROOT / "scripts" / "reconstruct_closed_loop.py"), "--app", "contacts",
            "--seeds", "1", "--screens", "4", "--out", tmp)
        target = root / "docs" / "images" / "reconstruct_heldout.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(tmp) / "app0" / "rebuilt" / "heldout" / "ContactsCreate_2_0007.png",
                        target)


def grpo_learning(root: Path) -> None:
    """The GRPO example's success curves, from the runs it measured (``docs/data``; measure
    anew with ``python examples/grpo_learning.py --seeds 0 1 2 --runs docs/data/...``)."""
    target = root / "docs" / "images" / "grpo_learning.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    run(str(ROOT / "examples" / "grpo_learning.py"), "--from-runs",
        str(ROOT / "docs" / "data" / "grpo_learning.json"), "--plot", str(target))


def play_page(root: Path) -> None:
    tests_play = ROOT / "tests" / "play"
    subprocess.run([sys.executable, str(tests_play / "make_screenshot.py"),
                    str(root / "docs" / "images" / "play.png")], check=True, cwd=ROOT,
                   env={**environment(), "PYTHONPATH": os.pathsep.join(
                       [str(ROOT), str(tests_play)])}, stdout=subprocess.DEVNULL)


# --- the bench report ----------------------------------------------------------------------
#: The report's run: 7 templates x 2 seeds, the oracle with 20% of its steps random taps.
REPORT_TASKS = ("ClockDisableAlarm", "ContactsAddContact", "CrossContactPhoneToNote",
                "NotesDeleteNoteInfeasible", "NotesEditNote", "SettingsSetBrightness",
                "TodoCountOpen")
REPORT_EPISODE = "SettingsSetBrightness_0"  #: the episode page shown under the summary
#: The pages are taken at VIEWPORT px wide, the figure is WIDTH px wide (scaled down).
REPORT_VIEWPORT, REPORT_WIDTH = 1280, 780
REPORT_SUMMARY_HEIGHT, REPORT_EPISODE_HEIGHT = 595, 900  # in the viewport's pixels
REPORT_AGENT = "NoisyOracle (the oracle, 20% of its steps random taps)"


class NoisyOracle:
    """The oracle, with a share (``noise``) of its steps replaced by random taps; seeded by
    the episode's seed and instruction, so a run is the same every time."""

    def __init__(self, noise: float = 0.2) -> None:
        self.noise, self.env, self.seed = noise, None, 0
        self.rng: Any = None

    def bind(self, env: Any, seed: int) -> None:
        self.env, self.seed = env, seed

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        import numpy as np

        self.rng = np.random.default_rng([self.seed, zlib.crc32(instruction.encode())])

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> tuple[Any, dict]:
        from phone_gym.actions import PhoneAction

        assert self.env is not None and self.rng is not None
        if self.rng.random() < self.noise:
            x, y = (int(v) for v in self.rng.integers(0, 1001, size=2))
            return PhoneAction("click", x=x, y=y), {}
        return self.env.unwrapped.oracle_action(), {}


def fixed_times(run_dir: Path) -> None:
    """Set the run's times to 1 s per episode (0 s of model latency), and name the agent as
    the figure's caption does: what the figure shows must not depend on the machine that
    drew it, nor on the module the agent was loaded from."""
    results = run_dir / "results.jsonl"
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    for record in records:
        record.update(time_s=1.0, latency_s=0.0)
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = json.loads((run_dir / "summary.json").read_text())
    summary.update(time_s=float(len(records)), agent=REPORT_AGENT)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))


def bench_report(root: Path) -> None:
    """``phone-gym bench report`` of a ``NoisyOracle`` run: the summary page's top above an
    episode's page, as Chromium shows them. Drawn in this process (``main`` hides the
    system's fonts first)."""
    import io

    from PIL import Image
    from playwright.sync_api import sync_playwright

    from phone_gym.bench import run_bench
    from phone_gym.bench.report import write_report

    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp) / "run"
        run_bench(",".join(REPORT_TASKS), NoisyOracle(), seeds=2, workers=1, out_dir=run_dir,
                  progress=False)
        fixed_times(run_dir)
        report = write_report(run_dir)
        shots = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": REPORT_VIEWPORT, "height": 1000})
            page.goto(report.as_uri())
            shots.append(page.screenshot(clip={"x": 0, "y": 0, "width": REPORT_VIEWPORT,
                                               "height": REPORT_SUMMARY_HEIGHT}))
            page.goto((report.parent / "episodes" / f"{REPORT_EPISODE}.html").as_uri())
            top = page.locator("h1").first.bounding_box()
            assert top is not None
            shots.append(page.screenshot(clip={"x": 0, "y": max(0.0, top["y"] - 6),
                                               "width": REPORT_VIEWPORT,
                                               "height": REPORT_EPISODE_HEIGHT}))
            browser.close()
    scale = REPORT_WIDTH / REPORT_VIEWPORT
    parts = [Image.open(io.BytesIO(png)).convert("RGB") for png in shots]
    parts = [p.resize((REPORT_WIDTH, round(p.height * scale)), Image.Resampling.LANCZOS)
             for p in parts]
    gap = 6
    sheet = Image.new("RGB", (REPORT_WIDTH, sum(p.height for p in parts) + gap), (200, 205, 214))
    sheet.paste(parts[0], (0, 0))
    sheet.paste(parts[1], (0, parts[0].height + gap))
    target = root / "docs" / "images" / "bench_report.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    sheet.quantize(colors=128).save(target, optimize=True)


FIGURES: dict[str, Figure] = {f.name: f for f in (
    Figure("screenshots", "the launcher and each app's main screen, and overview.png "
           "(`phone-gym screenshots`)", ("docs/screenshots/*.png",), screenshots),
    Figure("screenshots-zh", "the launcher and each zh-CN app on a Chinese phone "
           "(`phone-gym screenshots --locale zh-CN`'s overview.png)",
           ("docs/images/overview_zh.png",), screenshots_zh),
    Figure("demo-crossapp", "what `phone-gym demo` runs: CrossContactPhoneToNote, seed 0",
           ("docs/images/demo_crossapp.gif",),
           demo_gif("CrossContactPhoneToNote", 0, "demo_crossapp.gif")),
    Figure("demo-miniprogram", "HotelBookCheapestNear, seed 0, in WeChat's Hotel Booking",
           ("docs/images/demo_miniprogram.gif",),
           demo_gif("HotelBookCheapestNear", 0, "demo_miniprogram.gif")),
    Figure("demo-receipt", "MarkorTranscribeReceipt, seed 2: a receipt photo typed into Markor",
           ("docs/images/demo_receipt.gif",),
           demo_gif("MarkorTranscribeReceipt", 2, "demo_receipt.gif")),
    Figure("fidelity", "each app's main screen on docs/fidelity.md "
           "(`python -m phone_gym.docgen.fidelity --write`, which writes the page too)",
           ("docs/images/fidelity/*.png",), fidelity),
    Figure("set-of-marks", "set-of-marks boxes on Contacts (`python -m phone_gym.envs.marks`)",
           ("docs/images/set_of_marks.png",), set_of_marks),
    Figure("reconstruct-heldout", "a held-out Contacts screen beside the rebuilt app's "
           "(`python scripts/reconstruct_closed_loop.py --app contacts --screens 4`)",
           ("docs/images/reconstruct_heldout.png",), reconstruct_heldout),
    Figure("grpo-learning", "examples/grpo_learning.py's curves: GRPO from a partial SFT start, "
           "seeds 0-2 (replotted from docs/data/grpo_learning.json)",
           ("docs/images/grpo_learning.png",), grpo_learning),
    Figure("play", "the play page, a Clock task two steps in (tests/play/make_screenshot.py)",
           ("docs/images/play.png",), play_page, browser=True),
    Figure("bench-report", "the bench report of a noisy oracle (7 templates x 2 seeds)",
           ("docs/images/bench_report.png",), bench_report, browser=True),
)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/figures.py",
                                     description="Draw the figures committed under docs/.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"figures to draw (default: all): {', '.join(FIGURES)}")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="write ROOT/docs/... (default: this checkout)")
    parser.add_argument("--list", action="store_true", help="list the figures and exit")
    args = parser.parse_args(argv)
    os.environ["PHONE_GYM_NO_SYSTEM_FONTS"] = "1"  # before phone_gym draws anything here
    if args.list:
        for figure in FIGURES.values():
            print(f"{figure.name:18} {', '.join(figure.files):38} {figure.what}")
        return 0
    unknown = [n for n in args.names if n not in FIGURES]
    if unknown:
        parser.error(f"unknown figure {unknown[0]!r}; accepted: {', '.join(FIGURES)}")
    for name in args.names or FIGURES:
        FIGURES[name].draw(args.root)
        print(f"drew {name}: {', '.join(FIGURES[name].files)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
