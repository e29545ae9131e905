#!/usr/bin/env bash
# GRPO with TRL on PhoneWorld with a real VLM on one GPU, generating with vLLM (colocate).
#
# STATUS: NOT YET RUN. Nothing below has been measured; the figures are what to check, not
# results. The CPU test (tests/integrations/test_trl.py) shows the wiring with a tiny random
# model and scripted tool calls; only this run shows that a real model learns.
#
# Needs: one GPU with >= 40 GB (an H100/H200 fits Qwen3-VL-2B, vLLM and the optimizer), CUDA
# torch, and pip install -e ".[train,trl]" vllm. MODEL is a hub id or a local checkpoint whose
# chat template is Qwen3-VL's (TRL 1.16 parses its tool calls; Qwen2.5-VL's it does not).
#
#   bash examples/trl_grpo_gpu.sh                 # Qwen3-VL-2B-Instruct, 200 steps
#   MODEL=/models/Qwen3-VL-4B-Instruct STEPS=100 bash examples/trl_grpo_gpu.sh
#
# Expected figures to check (the log lines examples/trl_grpo.py prints, and trainer_state):
#   1. It runs: every step logs rewards/PhoneToolEnv/mean, and tools/call_frequency > 1 from
#      step 1 (an instruct Qwen3-VL calls tools zero-shot; 0 means the tool calls are not
#      parsed: check the chat template).
#   2. tools/failure_frequency (calls TRL could not run: unknown tool, bad arguments) < 0.1
#      after 50 steps.
#   3. rewards/PhoneToolEnv/mean on the four tasks below: above its step-1 value by >= 0.2 at
#      step 200 (a guess: zero-shot 2B agents reach roughly 0.1-0.4 on single-toggle and
#      single-record tasks); frac_reward_zero_std falling below 0.8 (groups that teach).
#   4. Images per rollout (num_images in the batch) equal 1 + the tool calls of the rollout.
#   5. Time: under 60 s a step with 8 rollouts of up to 15 tool calls at 270x600 (about 200
#      image tokens a screenshot); GPU memory under 60 GB.
#   6. Held-out check after training: `phone-gym bench` with the saved model (in $OUT) on
#      PhoneWorld-Bench's test split should not drop below the base model's score.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-VL-2B-Instruct}
STEPS=${STEPS:-200}
OUT=${OUT:-runs/trl_grpo_gpu}
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$OUT")"

nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
python -c "import vllm, trl; print('vllm', vllm.__version__, 'trl', trl.__version__)"

python examples/trl_grpo.py \
    --model "$MODEL" \
    --tasks SettingsBluetoothOn SettingsWifiOff ClockAddAlarm ContactsStarContact \
    --seeds 32 \
    --steps "$STEPS" \
    --num-generations 8 \
    --lr 1e-6 \
    --max-completion-length 6144 \
    --max-tool-calls 15 \
    --image-size 270 600 \
    --vllm \
    --output-dir "$OUT" 2>&1 | tee "$OUT.log"

grep -E "^step [0-9]+:" "$OUT.log" | sed -n '1p;$p'
