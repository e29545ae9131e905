"""``dense_reward=True``: each step pays the change in the verdict's progress (the share of
the task's criteria met), so a multi-stage task pays per stage, an episode's rewards add up
to the progress gained, and undoing a stage takes its reward back."""

from __future__ import annotations

import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.world.a11y import ui_elements

TWO_STAGES = "TurnOffWifiAndTurnOnBluetooth"  # one criterion per switch


def play(env: PhoneWorldEnv) -> list[float]:
    rewards, done = [], False
    while not done:
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        rewards.append(float(reward))
        done = terminated or truncated
    assert info["success"]
    return rewards


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_two_stage_task_pays_each_stage(seed: int) -> None:
    env = PhoneWorldEnv(task=TWO_STAGES, dense_reward=True, screenshot=False)
    env.reset(seed=seed)
    rewards = play(env)
    assert sum(rewards) == pytest.approx(1.0)
    assert sorted(r for r in rewards if r)[:2] == [0.5, 0.5]  # two milestones, then nothing
    sparse = PhoneWorldEnv(task=TWO_STAGES, screenshot=False)
    sparse.reset(seed=seed)
    rewards = play(sparse)
    assert rewards[-1] == 1.0 and not any(rewards[:-1])  # the default: only the end pays


def test_undoing_a_stage_takes_its_reward_back() -> None:
    env = PhoneWorldEnv(task=TWO_STAGES, dense_reward=True, screenshot=False)
    env.reset(seed=0)
    device = env.device
    paid = 0.0
    for _ in range(30):
        _, reward, *_ = env.step(env.oracle_action())
        paid += float(reward)
        if paid == 0.5:
            break
    assert paid == 0.5
    wifi = device.system.get_setting("global", "wifi_on")
    bluetooth = device.system.get_setting("global", "bluetooth_on")
    done_key = "wifi_on" if wifi == "0" else "bluetooth_on"
    # put the finished stage back through the quick settings of the shade
    _, reward, *_ = env.step('drag(x=500, y=5, x2=500, y2=600)')
    assert reward == 0.0
    toggle = "qs_wifi" if done_key == "wifi_on" else "qs_bt"
    x, y = next(e for e in ui_elements(env.device.frame()) if e.short_id == toggle).center_norm
    _, reward, *_ = env.step(f"click(x={x}, y={y})")
    assert reward == -0.5
    assert (wifi, bluetooth) != (device.system.get_setting("global", "wifi_on"),
                                 device.system.get_setting("global", "bluetooth_on"))


def test_a_question_pays_only_for_the_answer() -> None:
    env = PhoneWorldEnv(task="NotesReadNote", dense_reward=True, screenshot=False)
    env.reset(seed=0)
    rewards = play(env)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == 1.0
