"""GRPO with TRL on PhoneWorld: the model acts through tool calls, the verifier rewards it.

TRL's ``GRPOTrainer`` makes one ``PhoneToolEnv`` per rollout (``environment_factory``), resets
it with the dataset row (the template and seed: the first screenshot and the instruction join
the prompt), runs the tool calls the model writes (click, type, open_app, ..., finish: each
returns the new screenshot and feedback) and rewards the rollout with ``get_reward()``: the
verifier's score of the episode.

By default the model is the project's tiny random Qwen-VL with Qwen3-VL's chat template (CPU,
a minute or two; it writes no sensible tool calls, but every moving part runs). Point --model
at a local Qwen3-VL checkpoint for the real thing (``examples/trl_grpo_gpu.sh`` runs it with
vLLM); TRL parses Qwen3-VL's tool calls but not Qwen2.5-VL's:

    python examples/trl_grpo.py
    python examples/trl_grpo.py --model /models/Qwen3-VL-2B-Instruct --split train --seeds 16

Needs the trl and train extras: pip install -e ".[train,trl]"
"""

from __future__ import annotations

import argparse
import functools
import os
from typing import Any

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # environment_factory is experimental

from trl import GRPOConfig, GRPOTrainer  # noqa: E402

from phone_gym.integrations.trl import PhoneToolEnv, build_dataset, check_processor  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--model", default=None, help="a local checkpoint (default: tiny random)")
parser.add_argument("--tasks", nargs="*", default=["SettingsBluetoothOn", "ClockAddAlarm"],
                    help="template ids (none given: all templates of --split)")
parser.add_argument("--split", choices=["train", "test"], default=None,
                    help="PhoneWorld-Bench's split of templates")
parser.add_argument("--seeds", type=int, default=2, help="seeds per template")
parser.add_argument("--steps", type=int, default=2, help="optimizer steps")
parser.add_argument("--num-generations", type=int, default=2, help="rollouts per prompt")
parser.add_argument("--lr", type=float, default=1e-5, help="learning rate")
parser.add_argument("--max-completion-length", type=int, default=256,
                    help="tokens per rollout: the model's and the tool results' (screenshots)")
parser.add_argument("--max-tool-calls", type=int, default=15, help="tool calls per rollout")
parser.add_argument("--image-size", type=int, nargs=2, default=[270, 600],
                    metavar=("W", "H"), help="screenshot size shown to the model")
parser.add_argument("--remote", default=None,
                    help="the URL phone-gym serve --openenv prints, with its ?token= "
                         "(default: local envs)")
parser.add_argument("--vllm", action="store_true", help="generate with vLLM (colocate)")
parser.add_argument("--output-dir", default="runs/trl_grpo", help="checkpoints and logs")
args = parser.parse_args()

# 1. The model and its processor. The tiny one: random weights, a locally trained tokenizer,
#    and TRL's copy of Qwen3-VL's chat template, whose tool calls TRL knows how to parse.
if args.model is None:
    from trl.chat_template_utils import qwen3_vl_chat_template

    from phone_gym.trainer.tiny import build_tiny_vlm

    model: Any
    model, processor = build_tiny_vlm()  # its processor resizes screenshots to 64x128
    processor.chat_template = qwen3_vl_chat_template
    # the twelve tools' schemas take a few thousand tokens of the tiny tokenizer
    model.config.text_config.max_position_embeddings = 16384
    use_cpu = True
else:
    from transformers import AutoProcessor

    model = args.model  # TRL loads it (AutoModelForImageTextToText for a VLM)
    processor = AutoProcessor.from_pretrained(args.model, padding_side="left")
    use_cpu = False
check_processor(processor)  # fails early on a template TRL cannot parse (Qwen2.5-VL)

# 2. The prompts: one row per (template, seed); the env adds the screen and the instruction.
dataset = build_dataset(args.tasks or None, seeds=args.seeds, split=args.split)
print(f"{len(dataset)} prompts, e.g. {dataset[0]['task']} seed {dataset[0]['seed']}")

# 3. The environment: one per rollout, made by TRL with no arguments.
factory: Any = functools.partial(PhoneToolEnv, image_size=tuple(args.image_size),
                                 remote=args.remote)

# 4. GRPO. The reward is the env's get_reward() (the verifier's score), logged as
#    rewards/PhoneToolEnv/mean; tool calls per rollout as tools/call_frequency.
config = GRPOConfig(
    output_dir=args.output_dir, max_steps=args.steps, learning_rate=args.lr,
    per_device_train_batch_size=args.num_generations, num_generations=args.num_generations,
    max_completion_length=args.max_completion_length,
    max_tool_calling_iterations=args.max_tool_calls, beta=0.0, logging_steps=1,
    use_cpu=use_cpu, bf16=not use_cpu, report_to="none", save_strategy="no",
    use_vllm=args.vllm, vllm_mode="colocate", dataloader_num_workers=0,
)
trainer = GRPOTrainer(model=model, args=config, train_dataset=dataset,
                      processing_class=processor, environment_factory=factory)
trainer.train()

# 5. What happened, step by step.
for row in trainer.state.log_history:
    if "rewards/PhoneToolEnv/mean" in row:
        print(f"step {row['step']}: reward {row['rewards/PhoneToolEnv/mean']:.3f}, "
              f"tool calls per rollout {row.get('tools/call_frequency', 0.0):.2f}")
if args.model is not None:
    trainer.save_model(args.output_dir)
