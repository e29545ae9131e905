"""PPO from pixels on PhoneWorld with stable-baselines3: a CNN learns to clean up alarms.

The task is ``ClockDeleteDisabledAlarms`` ("In the Clock app, delete every alarm that is
switched off. Keep the others."). Every other template names its target in the instruction
(a contact, a note, an alarm's label), which a pixels-only policy never reads; this one
names nothing, so the screen alone says what to do. The alarms (5 to 7, 2 or 3 of them
off) change with the seed; their switches show which to delete.

phone-gym's wrappers make the env fit SB3: ``DiscreteActions`` (clicks at the centers of a
2 x 12 grid over the screen, plus "back": 25 actions), ``PixelsOnly`` (the screenshot,
grayscale, 36 x 80) and ``SuccessInfo`` (``info["is_success"]`` for SB3's success rate).
The grid's rows happen to line up with the alarm list. A solution taps the Clock icon, then
for each switched-off alarm its row, "Delete alarm" and the dialog's "Delete": 7 or 10 taps.

A success reward alone is out of reach for random exploration (no deletion at all in 1000
random episodes), so training adds milestone rewards read from the phone's state
(``DeleteDisabledShaping``). The policy still sees only pixels, and evaluation counts the
verifier's verdict alone, on seeds training never used.

    python examples/sb3_ppo.py            # train 250k steps, evaluate 200 episodes
    python examples/sb3_ppo.py --smoke    # a few hundred steps: the loop works (CI)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.wrappers import DiscreteActions, PixelsOnly, SuccessInfo

TASK = "ClockDeleteDisabledAlarms"
MAX_STEPS = 14  # the longest solution takes 10 taps
RENDER_SIZE = (144, 320)  # (width, height) the phone draws at; PixelsOnly shrinks it by 4
OBS_SIZE = (36, 80)  # what the CNN sees (NatureCNN's smallest input is 36 x 36)
GRAYSCALE = True  # a switch that is on is blue (dark in gray), one that is off light gray
GRID = (2, 12)  # x = 250 or 750; y = 42, 125, ... 958: rows 83 apart, like the alarm list
PPO_KWARGS: dict[str, Any] = {
    "n_steps": 64,  # per env and rollout: 512 steps between updates with 8 envs
    "batch_size": 256,
    "n_epochs": 4,
    "learning_rate": 5e-4,
    "gamma": 0.95,
    "gae_lambda": 0.9,
    "ent_coef": 0.01,
    "clip_range": 0.2,
}
SMOKE_PPO_KWARGS: dict[str, Any] = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}
EVAL_SEED = 1_000_000  # evaluation episodes use seeds from here: unseen in training


def make_env(shaped: bool = False) -> gym.Env[Any, Any]:
    """The task, pixels in and discrete taps out; ``shaped`` adds the training reward."""
    env: gym.Env[Any, Any] = PhoneWorldEnv(
        task=TASK, obs_size=RENDER_SIZE, end_on_success=True, max_steps=MAX_STEPS)
    env = SuccessInfo(env)
    if shaped:
        env = DeleteDisabledShaping(env)
    env = DiscreteActions(env, grid=GRID, buttons=("back",))
    return PixelsOnly(env, size=OBS_SIZE, grayscale=GRAYSCALE)


class DeleteDisabledShaping(gym.Wrapper):
    """Training reward for this task, read from the phone's state (never shown to the policy).

    Milestones, each paid once an episode: the Clock app open (+0.1), and for each
    switched-off alarm its editor open (+0.1), its delete dialog open (+0.2), the alarm
    deleted (+0.5). Any other alarm changed, deleted or added costs 0.5 while it stays so
    (the verifier fails it: collateral damage). The verifier's 1.0 on success comes on top.
    """

    BONUS = {"clock": 0.1, "editor": 0.1, "dialog": 0.2, "deleted": 0.5}
    DAMAGE = 0.5

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.initial = self.alarms()
        self.off_ids = {i for i, alarm in self.initial.items() if not alarm[3]}
        self.paid: set[tuple[str, int]] = set()
        self.damage = 0
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        now = self.alarms()
        milestones = {("deleted", i) for i in self.off_ids - now.keys()}
        device = self.env.unwrapped.device
        clock = device.apps["Clock"]
        if device.foreground == "Clock":
            milestones.add(("clock", 0))
            if clock.route.name == "edit" and clock.route.arg in self.off_ids:
                milestones.add(("editor", clock.route.arg))
                if clock.ui.draft.confirm_delete:
                    milestones.add(("dialog", clock.route.arg))
        reward += sum(self.BONUS[kind] for kind, _ in milestones - self.paid)
        self.paid |= milestones
        # collateral damage: an alarm that was on changed or gone, one that was off changed
        # (switched on), an alarm added
        damage = sum(now.get(i) != alarm for i, alarm in self.initial.items()
                     if i not in self.off_ids or i in now) + len(now.keys() - self.initial)
        reward -= self.DAMAGE * (damage - self.damage)
        self.damage = damage
        return obs, reward, terminated, truncated, info

    def alarms(self) -> dict[int, tuple[Any, ...]]:
        alarms = self.env.unwrapped.device.system.alarms  # the store the clock owns
        return {a.id: (a.hour, a.minute, a.label, a.enabled, tuple(a.days)) for a in alarms}


class Progress(BaseCallback):
    """One line every ``every`` rollouts: timesteps, minutes, and the success rate and (shaped)
    return of the last 100 training episodes."""

    def __init__(self, every: int, start: float) -> None:
        super().__init__()
        self.every, self.start, self.rollouts = every, start, 0

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        model = self.model
        if self.rollouts % self.every == 0 and model.ep_success_buffer:
            print(f"  {self.num_timesteps:>8} steps  {(time.time() - self.start) / 60:5.1f} min  "
                  f"success {np.mean(model.ep_success_buffer):.2f}  "
                  f"return {np.mean([e['r'] for e in model.ep_info_buffer]):+.2f}", flush=True)

    def _on_step(self) -> bool:
        return True


def evaluate(model: PPO, episodes: int, seed: int = EVAL_SEED) -> float:
    """Success rate of the greedy policy on ``episodes`` episodes (seeds ``seed``,
    ``seed + 1``...), on the env without shaping: the verifier's verdict alone."""
    env = make_env()
    successes = []
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        successes.append(info["is_success"])
    env.close()
    return float(np.mean(successes))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=250_000)
    parser.add_argument("--eval-episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that only checks the loop works (for CI)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.timesteps, args.eval_episodes, args.n_envs = 256, 2, 2
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return ``timesteps``, ``wall_time_s``, ``success_rate``."""
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    start = time.time()

    envs = make_vec_env(lambda: make_env(shaped=True), n_envs=args.n_envs, seed=args.seed)
    hyper = {**PPO_KWARGS, **(SMOKE_PPO_KWARGS if args.smoke else {})}
    model = PPO("CnnPolicy", envs, seed=args.seed, device="cpu", verbose=0, **hyper)
    print(f"PPO CnnPolicy on {TASK}: {args.timesteps} timesteps, {args.n_envs} envs, "
          f"obs {model.observation_space.shape}, {model.action_space.n} actions", flush=True)
    model.learn(total_timesteps=args.timesteps, callback=Progress(every=20, start=start))
    train_time = time.time() - start
    envs.close()

    success_rate = evaluate(model, args.eval_episodes)
    wall_time = time.time() - start
    print(f"timesteps {model.num_timesteps}  training {train_time:.0f} s  "
          f"wall time {wall_time:.0f} s  success rate {success_rate:.3f} "
          f"over {args.eval_episodes} evaluation episodes", flush=True)
    return {"timesteps": float(model.num_timesteps), "wall_time_s": wall_time,
            "train_time_s": train_time, "success_rate": success_rate}


if __name__ == "__main__":
    main()
