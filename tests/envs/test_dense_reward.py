"""``dense_reward=True``: each step pays the change in the verdict's progress (the share of
the task's criteria met), so a multi-stage task pays per stage and undoing a stage takes its
reward back; the last step pays the rest of the score, so an episode's rewards add up to its
score in every end (issue 26, item 6): a wrong end takes the progress back, a goal that held
at the start pays on the right finish."""

from __future__ import annotations

import gymnasium as gym
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.wrappers import ScoreOnTruncation
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


def work_then(env: PhoneWorldEnv, end: str) -> tuple[list[float], dict]:
    """The oracle's actions (not its end), then ``end``: the rewards and the last info."""
    rewards = []
    while True:
        action = env.oracle_action()
        if action.type in ("answer", "finish"):
            break
        _, reward, *_ = env.step(action)
        rewards.append(float(reward))
    _, reward, terminated, _, info = env.step(end)
    assert terminated
    return [*rewards, float(reward)], info


def test_finishing_then_declaring_infeasible_takes_the_progress_back() -> None:
    env = PhoneWorldEnv(task=TWO_STAGES, dense_reward=True, screenshot=False)
    env.reset(seed=0)
    rewards, info = work_then(env, 'finish(status="infeasible")')
    assert not info["success"] and info["progress"] == 1.0  # the work was all done
    assert sum(rewards[:-1]) == pytest.approx(1.0) and rewards[-1] == pytest.approx(-1.0)
    assert sum(rewards) == pytest.approx(0.0)


def test_a_wrong_answer_after_the_work_takes_the_progress_back() -> None:
    """A list of stops saved (criteria met, paid), then a wrong total time."""
    env = PhoneWorldEnv(task="MapsPlanDayOut", dense_reward=True, screenshot=False)
    env.reset(seed=0)
    rewards, info = work_then(env, 'answer(text="something else")')
    assert not info["success"] and sum(rewards[:-1]) > 0.5
    assert sum(rewards) == pytest.approx(0.0)


def test_an_infeasible_claim_at_once_pays_nothing() -> None:
    env = PhoneWorldEnv(task=TWO_STAGES, dense_reward=True, screenshot=False)
    env.reset(seed=0)
    _, reward, *_ = env.step('finish(status="infeasible")')
    assert reward == 0.0


def test_a_goal_that_held_at_the_start_pays_on_the_right_finish() -> None:
    env = PhoneWorldEnv(task="ClockStopWatchPausedVerify", dense_reward=True, screenshot=False)
    env.reset(seed=0)
    _, reward, _, _, info = env.step('finish(status="success")')
    assert info["success"] and reward == 1.0
    env.reset(seed=0)
    _, reward, _, _, info = env.step('finish(status="infeasible")')
    assert not info["success"] and reward == 0.0


def test_a_declared_infeasible_task_pays_on_its_right_end() -> None:
    env = PhoneWorldEnv(task="ContactsDeleteContactInfeasible", dense_reward=True,
                        screenshot=False)
    env.reset(seed=0)
    rewards, info = work_then(env, 'finish(status="infeasible")')
    assert info["success"] and sum(rewards) == pytest.approx(1.0)


def test_running_out_of_steps_outside_the_env_adds_up_too() -> None:
    """``ScoreOnTruncation`` (what ``gym.make`` puts outside its ``TimeLimit``) ends the
    episode with the score less what was paid."""
    inner = PhoneWorldEnv(task=TWO_STAGES, dense_reward=True, screenshot=False)
    env = ScoreOnTruncation(gym.wrappers.TimeLimit(inner, 3))
    env.reset(seed=0)
    rewards, truncated = [], False
    while not truncated:
        _, reward, _, truncated, info = env.step(inner.oracle_action())
        rewards.append(float(reward))
    assert sum(rewards) == pytest.approx(float(info["success"]))
