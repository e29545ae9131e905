"""Oracle trajectories as a supervised dataset: one JSON line per step plus PNG frames.

Each line holds the instruction, the screenshot's file name, the UI elements, and the
oracle's action in the model's own syntax (``format_action``), which is what supervised
fine-tuning trains a policy to write.

    python examples/oracle_dataset.py --episodes 10 --out out/oracle_data
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from PIL import Image

from phone_gym.actions import format_action
from phone_gym.envs import PhoneWorldEnv

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--episodes", type=int, default=10)
parser.add_argument("--task", default=None, help="one template id (default: all)")
parser.add_argument("--out", default="out/oracle_data")
args = parser.parse_args()

out = Path(args.out)
(out / "frames").mkdir(parents=True, exist_ok=True)
env = PhoneWorldEnv(task=args.task, privileged_info=True)  # task ids label the data
solved = 0
with open(out / "steps.jsonl", "w") as lines:
    for episode in range(args.episodes):
        obs, info = env.reset(seed=episode)
        done, step = False, 0
        while not done:
            action = env.oracle_action()
            frame = f"frames/{episode:05d}_{step:03d}.png"
            Image.fromarray(obs["screenshot"]).save(out / frame)
            record = {"episode": episode, "step": step, "task_id": info["task_id"],
                      "instruction": obs["instruction"], "image": frame,
                      "ui_elements": list(info["ui_elements"]), "action": format_action(action)}
            lines.write(json.dumps(record) + "\n")
            obs, reward, terminated, truncated, info = env.step(action)
            done, step = terminated or truncated, step + 1
        solved += int(reward == 1.0)
print(f"{args.episodes} episodes, {solved} solved; data in {out}/steps.jsonl")
