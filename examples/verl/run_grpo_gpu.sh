#!/usr/bin/env bash
# ==========================================================================================
# NOT YET RUN. Written against verl 0.9.1's config (verl/trainer/config/ppo_trainer.yaml) and
# checked only on CPU up to the agent loop (tests/integrations/test_verl.py, fake server).
# The figures below are what to check on the first real run, not results.
# ==========================================================================================
#
# GRPO on PhoneWorld with verl, one node of NGPUS GPUs (8 x 80 GB assumed), vLLM rollouts,
# phone_gym.integrations.verl.PhoneGymAgentLoop as the agent loop (examples/verl/agent_loop.yaml).
#
#   python3 -m venv .venv-gpu && . .venv-gpu/bin/activate
#   pip install -e ".[verl]" vllm   # on GPU machines let vLLM bring its CUDA torch (the CPU
#                                   # torch==2.13.0 pin is for the CPU tests only)
#   MODEL=/models/Qwen2.5-VL-3B-Instruct bash examples/verl/run_grpo_gpu.sh
#   MODEL=/models/Qwen3-VL-4B-Instruct FORMAT=qwen3vl bash examples/verl/run_grpo_gpu.sh
#
# What to check (expected figures, estimates):
# - it starts: every sample's prompt fits `data.max_prompt_length=2048` (system prompt about
#   1000 tokens + one 270x600 screenshot, about 210 image tokens for Qwen2.5-VL after its
#   280x588 resize) and no episode passes `max_response_length=8192` before its 15 turns
#   (about 300 tokens a turn: screenshot, note, reply);
# - rollout: `num_turns` (mean) between 4 and 30 (2 per step), images per sample = model
#   turns; `response_mask` covers only the replies (mean share of 1s roughly 0.2-0.35);
# - reward: `critic/score/mean` at step 0 is the zero-shot success rate on train templates
#   (for a 3B model, roughly 0.05-0.25), it rises by at least 0.10 within 200 steps;
#   the validation reward of data source phone_gym (`val-core/phone_gym/...`, on
#   the held-out test templates) does not fall below its step-0
#   value and should rise by a few points;
# - speed: one step (64 prompts x 8 rollouts) within 5-10 minutes on 8 H100; PhoneWorld
#   itself is CPU-bound (a step is milliseconds; 512 envs need the node's CPU cores).
set -euo pipefail
cd "$(dirname "$0")/../.."

MODEL=${MODEL:?set MODEL to a local Qwen2.5-VL or Qwen3-VL checkpoint}
FORMAT=${FORMAT:-qwen25vl}          # qwen25vl (Qwen2.5-VL) or qwen3vl (Qwen3-VL)
NGPUS=${NGPUS:-8}
DATA=${DATA:-$HOME/data/phone_gym}
STEPS=${STEPS:-200}

# the dataset: train templates x 32 seeds; held-out test templates x 2 other seeds
python -m phone_gym.integrations.verl_data "$DATA/train.parquet" --split train --seeds 32
python -m phone_gym.integrations.verl_data "$DATA/test.parquet" --split test --seeds 2 \
    --first-seed 1000

# the action format the model writes goes into a copy of the agent-loop config
LOOP_YAML="$DATA/agent_loop.yaml"
sed "s/^  action_format: .*/  action_format: $FORMAT/" examples/verl/agent_loop.yaml > "$LOOP_YAML"

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    algorithm.use_kl_in_reward=False \
    data.train_files="$DATA/train.parquet" \
    data.val_files="$DATA/test.parquet" \
    data.train_batch_size=64 \
    data.max_prompt_length=2048 \
    data.max_response_length=8192 \
    data.return_raw_chat=True \
    data.filter_overlong_prompts=False \
    actor_rollout_ref.model.path="$MODEL" \
    actor_rollout_ref.model.use_remove_padding=True \
    actor_rollout_ref.model.enable_gradient_checkpointing=True \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
    actor_rollout_ref.actor.use_kl_loss=True \
    actor_rollout_ref.actor.kl_loss_coef=0.01 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.max_model_len=10240 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.multi_turn.enable=True \
    actor_rollout_ref.rollout.agent.agent_loop_config_path="$LOOP_YAML" \
    actor_rollout_ref.rollout.agent.default_agent_loop=phone_gym \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node="$NGPUS" \
    trainer.nnodes=1 \
    trainer.total_training_steps="$STEPS" \
    trainer.test_freq=20 \
    trainer.save_freq=50 \
    trainer.val_before_train=True \
    trainer.logger='["console"]' \
    trainer.project_name=phone_gym \
    trainer.experiment_name="grpo_${FORMAT}_$(basename "$MODEL")" \
    "$@"
