"""Train a vision-language phone agent: SFT on oracle trajectories, then GRPO with the
verifier's reward, on PhoneWorld.

By default the model is a tiny random Qwen2.5-VL built locally (CPU, about a minute): it
learns one template on a few seeds, which shows every moving part. Point --model at a
local checkpoint (e.g. Qwen2.5-VL-3B-Instruct) for the real thing:

    python examples/train_vlm.py
    python examples/train_vlm.py --model /models/Qwen2.5-VL-3B-Instruct --device cuda \\
        --lora --sft-lr 1e-4 --grpo-lr 1e-5 --seeds 64

Needs the train extra: pip install -e ".[train]"
"""

from __future__ import annotations

import argparse

import torch

from phone_gym.envs import PhoneWorldEnv
from phone_gym.trainer import (
    Collector,
    EnvSource,
    GRPOSettings,
    LoraSettings,
    MixedSampler,
    OraclePolicy,
    VLMPolicy,
    apply_lora,
    export_episodes,
    load_vlm,
    sft_samples,
    train_grpo,
    train_sft,
    write_conversations,
)
from phone_gym.trainer.runs import evaluate

parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--model", default="tiny",
                    help='"tiny" (default) or a local checkpoint folder')
parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
parser.add_argument("--task", default="ClockDisableAlarm",
                    help="template id to learn (default ClockDisableAlarm)")
parser.add_argument("--seeds", type=int, default=8,
                    help="task seeds to train and evaluate on (default 8)")
parser.add_argument("--lora", action="store_true", help="train LoRA adapters only")
parser.add_argument("--sft-steps", type=int, default=400, help="SFT steps (default 400)")
parser.add_argument("--sft-lr", type=float, default=3e-3,
                    help="SFT learning rate (default 3e-3)")
parser.add_argument("--grpo-iterations", type=int, default=10,
                    help="GRPO iterations (default 10)")
parser.add_argument("--grpo-lr", type=float, default=3e-4,
                    help="GRPO learning rate (default 3e-4)")
parser.add_argument("--out", default="out/train_vlm",
                    help="folder for the data and the model (default out/train_vlm)")
args = parser.parse_args()
for name in ("seeds", "sft_steps", "grpo_iterations"):
    if getattr(args, name) < 1:
        parser.error(f"--{name.replace('_', '-')} must be at least 1")
torch.manual_seed(0)
tiny = args.model == "tiny"
if tiny:
    torch.set_num_threads(1)  # a model this small runs fastest on one CPU thread
# small screenshots keep the tiny model fast; a real model reads full-size ones
env_kwargs = {"task": args.task, "obs_size": (135, 300) if tiny else (540, 1200)}
seeds = list(range(args.seeds))

# 1. Data: the task's oracle on 4 envs, saved as JSONL + PNG frames and as conversations
#    (messages + images, for TRL or LLaMA-Factory) for training elsewhere.
oracle = EnvSource("oracle", PhoneWorldEnv, env_kwargs, num_envs=4, seeds=seeds)
episodes = Collector(MixedSampler([oracle]), OraclePolicy()).collect(len(seeds))
export_episodes(episodes, f"{args.out}/oracle")
write_conversations(episodes, f"{args.out}/oracle/conversations.jsonl")
print(f"oracle: {sum(e.success for e in episodes)}/{len(episodes)} episodes solved")

# 2. The policy: model + processor, prompts generated from the action definitions.
model, processor = load_vlm(args.model, device=args.device)
policy = VLMPolicy(model, processor, image_size=(64, 128) if tiny else None,
                   max_new_tokens=16 if tiny else 64, do_sample=False)
if args.lora:
    apply_lora(policy, LoraSettings(r=16, alpha=32))

# 3. SFT: the loss is on the answer tokens only (prompts built exactly as at inference).
samples = sft_samples(episodes, policy)
history = train_sft(policy, samples, steps=args.sft_steps, batch_size=8, lr=args.sft_lr,
                    schedule="cosine", progress=True)
success = evaluate(policy, "PhoneWorld-v0", env_kwargs, len(seeds), seeds)
print(f"SFT: loss {history[-1]['loss']:.4f}, greedy success {success:.2f}")

# 4. GRPO: groups of 8 rollouts per task seed, rewards from the verifier, a small format
#    penalty for unparseable actions; the episode ends as soon as the task is verified.
#    A "real+mock" run adds EnvSource("real", "RealPhone-v0", {...}, weight=1.0).
policy.do_sample = True
mock = EnvSource("mock", PhoneWorldEnv, {**env_kwargs, "end_on_success": True,
                                         "max_steps": 4}, num_envs=16, seeds=seeds)
sampler = MixedSampler([mock], group_size=8)
collector = Collector(sampler, policy, format_penalty=0.1, keep_frames=False)
settings = GRPOSettings(iterations=args.grpo_iterations, groups_per_iter=4, group_size=8,
                        lr=args.grpo_lr)
for h in train_grpo(policy, collector, settings, progress=True):
    print(f"GRPO iteration {h['iteration']:.0f}: mean reward {h['reward_mean']:.3f}, "
          f"{h['groups_kept']:.0f} groups with signal")

# 5. Save (LoRA adapters merged into the weights), to load with load_vlm(path).
policy.do_sample = False
success = evaluate(policy, "PhoneWorld-v0", env_kwargs, len(seeds), seeds)
print(f"after GRPO: greedy success {success:.2f}")
policy.save(f"{args.out}/final", merged=True)
print(f"saved to {args.out}/final")
