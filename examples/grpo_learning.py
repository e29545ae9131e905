"""GRPO learning from a partial SFT start, on CPU with the tiny model.

SFT stops early on purpose: the tiny Qwen2.5-VL is trained on oracle episodes of
ClockDisableAlarm (seeds 0-7, 400 cosine-decayed steps at lr 3e-3) and the weights after
step 80 are kept, a model that writes valid actions but turns off the right alarm only now
and then. GRPO then trains on the task's verifier reward alone (1 when the right alarm is off,
the episode ends at success or after 2 steps) on seeds 4 and 7, two the partial model gets
right least often, and the success rate of its sampled rollouts rises. Success per iteration
is the curve; ``--plot`` draws it (matplotlib if installed, else Pillow).

    python examples/grpo_learning.py                                   # seed 0, ~2 min
    python examples/grpo_learning.py --seeds 0 1 2 --runs docs/data/grpo_learning.json \
        --plot docs/images/grpo_learning.png                           # the README's plot

Needs the train extra: pip install -e ".[train]"
"""

from __future__ import annotations

import argparse
import copy
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

TASK = "ClockDisableAlarm"
OBS_SIZE = (135, 300)
IMAGE_SIZE = (64, 128)
SFT_SEEDS = list(range(8))
SFT_STEPS, KEEP_STEP = 400, 80
GRPO_SEEDS = [4, 7]
GRPO_LR = 3e-4


def partial_sft(model: Any, processor: Any) -> dict[str, Any]:
    """The tiny model's weights after ``KEEP_STEP`` of ``SFT_STEPS`` SFT steps (deterministic)."""
    import torch

    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.trainer import Collector, OraclePolicy, VLMPolicy, sft_samples, train_sft
    from phone_gym.trainer.mixing import EpisodeSpec

    torch.manual_seed(0)
    policy = VLMPolicy(copy.deepcopy(model), processor, image_size=IMAGE_SIZE,
                       max_new_tokens=16, do_sample=False)
    envs = [PhoneWorldEnv(task=TASK, obs_size=OBS_SIZE) for _ in range(4)]
    specs = [EpisodeSpec("env", s, i) for i, s in enumerate(SFT_SEEDS)]
    episodes = Collector(envs, OraclePolicy()).collect(specs=specs)
    kept: dict[str, Any] = {}

    class Enough(Exception):
        """Raised at ``KEEP_STEP``: the steps after it would change nothing kept."""

    def keep(step: int, metrics: dict[str, float]) -> None:
        if step == KEEP_STEP:
            kept.update(copy.deepcopy(policy.model.state_dict()))
            raise Enough

    try:  # the schedule is that of SFT_STEPS steps; training stops at KEEP_STEP
        train_sft(policy, sft_samples(episodes, policy), steps=SFT_STEPS, batch_size=8,
                  lr=3e-3, schedule="cosine", seed=0, callback=keep)
    except Enough:
        pass
    return kept


def run(seed: int = 0, iterations: int = 16, start: dict[str, Any] | None = None,
        tiny: tuple[Any, Any] | None = None, lr: float = GRPO_LR) -> dict[str, Any]:
    """GRPO at ``lr`` from the partial SFT weights (``start``, else trained here) with ``seed``:
    ``{"seed", "success": [per iteration], "first", "last"}`` (``first``/``last``: the mean
    success of the first and last three iterations)."""
    if iterations < 3:
        raise ValueError(f"iterations={iterations}; accepted: 3 or more")
    import numpy as np
    import torch

    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.trainer import (
        Collector,
        EnvSource,
        GRPOSettings,
        MixedSampler,
        VLMPolicy,
        build_tiny_vlm,
        train_grpo,
    )

    model, processor = tiny or build_tiny_vlm(image_size=IMAGE_SIZE)
    start = start if start is not None else partial_sft(model, processor)
    torch.manual_seed(seed)
    policy = VLMPolicy(copy.deepcopy(model), processor, image_size=IMAGE_SIZE,
                       max_new_tokens=16, do_sample=True, temperature=1.0)
    policy.model.load_state_dict(copy.deepcopy(start))
    source = EnvSource("clock", PhoneWorldEnv,
                       {"task": TASK, "obs_size": OBS_SIZE, "end_on_success": True,
                        "max_steps": 2}, num_envs=16, seeds=GRPO_SEEDS)
    collector = Collector(MixedSampler([source], seed=seed), policy, keep_frames=False)
    settings = GRPOSettings(iterations=iterations, groups_per_iter=4, group_size=16, lr=lr,
                            epochs=1, minibatch_size=16, seed=seed)
    history = train_grpo(policy, collector, settings)
    success = [float(h["reward_mean"]) for h in history]  # reward 1 = success, else 0
    return {"seed": seed, "success": success, "first": float(np.mean(success[:3])),
            "last": float(np.mean(success[-3:]))}


def plot(runs: Sequence[dict[str, Any]], path: str | Path) -> None:
    """Success per GRPO iteration, one line per run, as a PNG (matplotlib, else Pillow)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    title = f"GRPO on {TASK} from a partial SFT start (tiny model, CPU)"
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return _plot_pillow(runs, path, title)
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    for r in runs:
        ax.plot(range(len(r["success"])), r["success"], marker="o", label=f"seed {r['seed']}")
    ax.set(xlabel="GRPO iteration", ylabel="success rate of rollouts", ylim=(0, 1),
           title=title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _plot_pillow(runs: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    from PIL import Image, ImageDraw

    from phone_gym.world.glyphs import font  # the package's own font, never the system's

    w, h, left, right, top, bottom = 640, 340, 50, 20, 30, 40
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    d.font = font(11)
    d.text((left, 8), title, fill="black")
    x0, x1, y0, y1 = left, w - right, h - bottom, top
    d.rectangle((x0, y1, x1, y0), outline="black")
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y0 + (y1 - y0) * tick
        d.line((x0 - 4, y, x0, y), fill="black")
        d.line((x0 + 1, y, x1 - 1, y), fill=(225, 225, 225))
        d.text((8, y - 6), f"{tick:.2f}", fill="black")
    n = max(len(r["success"]) for r in runs)
    for i in range(n):
        x = x0 + (x1 - x0) * i / max(n - 1, 1)
        d.line((x, y0, x, y0 + 4), fill="black")
        if i % 2 == 0:
            d.text((x - 3, y0 + 6), str(i), fill="black")
    d.text(((x0 + x1) // 2 - 60, h - 16), "GRPO iteration; y: success rate", fill="black")
    colors = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189)]
    for k, r in enumerate(runs):
        color = colors[k % len(colors)]
        pts = [(x0 + (x1 - x0) * i / max(n - 1, 1), y0 + (y1 - y0) * s)
               for i, s in enumerate(r["success"])]
        d.line(pts, fill=color, width=2)
        for x, y in pts:
            d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=color)
        d.text((x1 - 70, y1 + 6 + 12 * k), f"seed {r['seed']}", fill=color)
    img.save(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0],
                        help="GRPO seeds, one run each (default 0)")
    parser.add_argument("--iterations", type=int, default=16, help="GRPO iterations (16)")
    parser.add_argument("--lr", type=float, default=GRPO_LR,
                        help=f"GRPO learning rate ({GRPO_LR:g}; 0: no learning, a control)")
    parser.add_argument("--plot", default=None, metavar="PNG", help="write the curve here")
    parser.add_argument("--runs", default=None, metavar="JSON",
                        help="also write the runs' results here (a JSON list)")
    parser.add_argument("--from-runs", default=None, metavar="JSON",
                        help="plot runs written by --runs instead of training")
    args = parser.parse_args(argv)
    if args.iterations < 3:
        parser.error("--iterations must be at least 3")
    if args.from_runs:
        if not args.plot:
            parser.error("--from-runs needs --plot PNG")
        plot(json.loads(Path(args.from_runs).read_text()), args.plot)
        print(f"wrote {args.plot}")
        return 0
    from phone_gym.trainer import build_tiny_vlm

    tiny = build_tiny_vlm(image_size=IMAGE_SIZE)
    start = partial_sft(*tiny)
    runs = []
    for seed in args.seeds:
        result = run(seed, args.iterations, start=start, tiny=tiny, lr=args.lr)
        runs.append(result)
        print(json.dumps(result), flush=True)
    if args.runs:
        Path(args.runs).write_text(json.dumps(runs, indent=1) + "\n")
    if args.plot:
        plot(runs, args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
