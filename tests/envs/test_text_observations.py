"""Text observations carry Unicode as it is (issue 23): for every template on seeds 0-2 the
instruction the agent reads is the task's, the UI listing is the screen's text unchanged, and
every character of the instruction, the params and the oracle's typed text is drawn by the
package's own fonts (so that no template depends on the fonts a machine has). Vector envs pass
the text through unchanged; the OpenEnv client's side is in tests/integrations/test_openenv.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from phone_gym.envs import PhoneWorldEnv
from phone_gym.envs.contract import (
    MAX_INSTRUCTION,
    MAX_UI_TEXT,
    REPLACEMENT,
    clean_text,
    obs_charset,
)
from phone_gym.mockapps import TEMPLATES
from phone_gym.world.a11y import format_elements, ui_elements
from phone_gym.world.glyphs import FONT_DIR, PRIMARY, SYMBOL, prepare, source, stack

SEEDS = (0, 1, 2)


def strings(value: Any) -> Iterator[str]:
    """Every string in a params value (dicts, lists, dataclasses' fields)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from strings(v)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from strings(getattr(value, name))


def from_package_fonts(text: str) -> str:
    """The characters of ``text`` that no font of the package (nor a vector symbol) draws."""
    bad = []
    for ch in prepare(text):
        face = source(ch)
        if ch.isspace() or face == SYMBOL:
            continue
        if face == PRIMARY:
            from phone_gym.world.glyphs import font_has

            if font_has(ch):
                continue
        elif Path(stack()[face].path).parent == FONT_DIR:
            continue
        bad.append(ch)
    return "".join(dict.fromkeys(bad))


@pytest.fixture(scope="module")
def env() -> PhoneWorldEnv:
    return PhoneWorldEnv(screenshot=False, ui_in_obs=True)


@pytest.mark.parametrize("task_id", list(TEMPLATES))
def test_the_agent_reads_the_tasks_text_and_the_screens_unchanged(env: PhoneWorldEnv,
                                                                   task_id: str) -> None:
    for seed in SEEDS:
        obs, info = env.reset(seed=seed, options={"task": task_id})
        episode = env.episode
        instruction = episode.instruction
        assert len(instruction) <= MAX_INSTRUCTION // 2, "room to grow"
        texts = [instruction, *strings(episode.params)]
        for _ in range(episode.template.max_steps + 1):
            assert obs["instruction"] == info["instruction"] == instruction
            listing = format_elements(ui_elements(env.device.frame()))
            assert len(listing) <= MAX_UI_TEXT // 2, "room to grow"
            assert obs["ui"] == listing
            assert env.observation_space.contains(obs)
            action = env.oracle_action()
            if action.type == "type" and action.text:
                texts.append(action.text)
            obs, _, terminated, truncated, info = env.step(action)
            assert info["action_error"] is None, info["action_error"]
            if terminated or truncated:
                break
        assert info["success"], (seed, info["verdict"])
        for text in texts:
            assert from_package_fonts(text) == "", (seed, text)


def test_a_character_no_font_draws_is_replaced_not_dropped() -> None:
    assert "京" in obs_charset() and "¥" in obs_charset() and "é" in obs_charset()
    assert clean_text("Pay ¥30 for 京A 🚀", 100) == "Pay ¥30 for 京A 🚀"
    assert clean_text("a\ue000b\x07", 100) == f"a{REPLACEMENT}b{REPLACEMENT}"
    assert clean_text("京" * 10, 4) == "京" * 4


@pytest.mark.parametrize("vectorization_mode", ["sync", "async"])
def test_vector_envs_pass_unicode_instructions_through(vectorization_mode: str) -> None:
    task = "BikePayParking"
    expected = []
    for seed in (0, 1):
        single = PhoneWorldEnv(task=task, screenshot=False, ui_in_obs=True)
        obs, _ = single.reset(seed=seed)
        expected.append((obs["instruction"], obs["ui"]))
    assert any(not i.isascii() for i, _ in expected)
    envs = gym.make_vec("PhoneWorld-v0", num_envs=2, vectorization_mode=vectorization_mode,
                        task=task, screenshot=False, ui_in_obs=True)
    try:
        obs, _ = envs.reset(seed=[0, 1])
        assert [(obs["instruction"][i], obs["ui"][i]) for i in range(2)] == expected
    finally:
        envs.close()


def test_the_large_charset_pickles_small_and_keeps_its_order() -> None:
    """Vector envs pickle spaces to every worker: the phone's charset (about 19,000
    characters) crosses as its string, and a charset's order (its flatten indices) is kept."""
    import pickle

    from phone_gym.envs.spaces import SharedText

    space = PhoneWorldEnv(task="BikePayParking").observation_space["instruction"]
    data = pickle.dumps(space)
    assert len(space.character_set) > 15000 and len(data) < 200_000
    assert pickle.loads(data) == space
    ordered = SharedText(8, charset="cba")
    assert pickle.loads(pickle.dumps(ordered)).character_list == ("c", "b", "a")
