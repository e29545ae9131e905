"""A random agent on PhoneWorld: the floor every phone agent should beat.

Runs ``--episodes`` episodes with actions drawn from ``env.action_space`` in a vector of
``--num-envs`` environments, and prints the success rate per task.

    python examples/random_agent.py --episodes 40 --num-envs 4
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

import phone_gym

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--episodes", type=int, default=40)
parser.add_argument("--num-envs", type=int, default=4)
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

envs = phone_gym.make_vec(args.num_envs, vectorization_mode="sync")
envs.action_space.seed(args.seed)
obs, infos = envs.reset(seed=args.seed)

results: dict[str, list[float]] = defaultdict(list)
while sum(len(r) for r in results.values()) < args.episodes:
    obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())
    for i in np.flatnonzero(terminated | truncated):  # an ended episode names its task
        results[str(infos["task_id"][i])].append(float(rewards[i]))

total = [r for rs in results.values() for r in rs]
for task_id in sorted(results):
    rs = results[task_id]
    print(f"{task_id:28} {np.mean(rs):5.2f} over {len(rs)} episodes")
print(f"random agent: {np.mean(total):.3f} success over {len(total)} episodes")
